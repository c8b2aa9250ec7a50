"""Reviews never hold up live play: they run in a pool of their own (one worker, at a lower priority), so a
computer's move submitted while a long review is being judged is thought at once, not queued behind it."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot import reviewing, thinking
from rules import GameRecord, Ruleset, apply, legal_moves, new_game
from rules.record import notation


@pytest.fixture(autouse=True)
def _stop_pools() -> Iterator[None]:
    yield
    reviewing.REVIEW.shutdown()
    thinking.THINK.shutdown()


def _record() -> GameRecord:
    st = new_game(Ruleset(edition=2, players=2), ["A", "B"], seed=5)
    rng, actions = random.Random(2), []
    while not st.finished:
        move = rng.choice(legal_moves(st))
        actions.append(notation(st, move.action))
        apply(st, move.action)
    return GameRecord(st.ruleset, ["A", "B"], seed=5, actions=actions)


def hold_until_released(folder: str) -> str:
    """In the review worker: a review job that says it has started (the file ``started``) and lasts until the
    test releases it (the file ``release``), so it provably outlasts what the test does meanwhile."""
    Path(folder, "started").touch()
    while not Path(folder, "release").exists():
        time.sleep(0.005)
    return folder


async def until(done: Callable[[], bool]) -> None:
    while not done():
        await asyncio.sleep(0.005)


async def test_a_computer_move_does_not_wait_behind_a_review(tmp_path: Path) -> None:
    record = _record()
    await asyncio.gather(reviewing.REVIEW.executor(), thinking.THINK.executor())  # both started: no start-up
    assert await reviewing.REVIEW.run(reviewing.niceness) >= reviewing.NICE  # lower priority than the bot
    todo = await reviewing.REVIEW.run(reviewing.plan, record.to_json())
    # the review worker is busy until the test releases it, and a review's decision waits behind it
    busy = asyncio.ensure_future(reviewing.REVIEW.run(hold_until_released, str(tmp_path)))
    review = asyncio.ensure_future(reviewing.REVIEW.run(reviewing.judge, record.to_json(), todo[0], 4, 0))
    await asyncio.wait_for(until((tmp_path / "started").exists), timeout=120)
    st = record.start()
    move = await asyncio.wait_for(thinking.THINK.run(thinking.think, st.to_json(), st.decider, "normal", 1, 0.05),
                                  timeout=120)
    assert move in [m.action for m in legal_moves(st)]  # thought while the review worker is held
    assert not busy.done() and not review.done()
    (tmp_path / "release").touch()
    assert await busy == str(tmp_path)
    found = await review
    assert found["index"] == todo[0]


def test_the_default_budget_is_the_engines() -> None:
    """``REVIEW_ITERATIONS`` left unset reviews with the budget the engine's figures were measured at."""
    from bot.config import Config
    from players.judge import DEFAULT_ITERATIONS

    assert Config.from_env({}).review_iterations == DEFAULT_ITERATIONS
