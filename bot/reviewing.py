"""What the review worker process runs (``players.review``): the judging of a finished game's decisions.

Reviews run in a pool of their own (``REVIEW``: one worker, started on the first review, its priority lowered
with ``os.nice``), never in the thinking pool (``bot.thinking.THINK``): a live computer move or a hint never
waits behind a review, and the operating system gives the live moves' worker the core first when both want
it. Inputs and answers are plain data (the record's JSON, an index, the budget and seed; the reviews' JSON).
"""

from __future__ import annotations

import contextlib
import os
from typing import Any

from .thinking import init_worker
from .workers import WorkerPool

NICE = 10  # how much lower the review worker's priority is than the bot's and the thinking worker's


def init_review_worker() -> None:
    """A review worker: lower priority, then the compiled rules core like a thinking worker."""
    with contextlib.suppress(OSError):  # not allowed here: it still never shares a pool with live moves
        os.nice(NICE)
    init_worker()


REVIEW = WorkerPool("review", lambda: 1, init_review_worker)


def niceness() -> int:
    """This process's niceness (a test asks the worker)."""
    return os.nice(0)


def plan(record: dict[str, Any]) -> list[int]:
    """The indices of the record's actions that are judged (the forced ones are not)."""
    from players.review import decisions_to_judge
    from rules import GameRecord

    return decisions_to_judge(GameRecord.from_json(record))


def judge(record: dict[str, Any], index: int, iterations: int, seed: int) -> dict[str, Any]:
    """One decision's review (``DecisionReview`` JSON)."""
    from players.review import review_decision
    from rules import GameRecord

    return review_decision(GameRecord.from_json(record), index, iterations=iterations, seed=seed).to_json()


def summarize(record: dict[str, Any], decisions: list[dict[str, Any]], iterations: int, seed: int) -> dict[str, Any]:
    """The game's review (``GameReview`` JSON) from its decisions' reviews."""
    from players.review import DecisionReview, summarize
    from rules import GameRecord

    found = [DecisionReview.from_json(d) for d in decisions]
    return summarize(GameRecord.from_json(record), found, iterations=iterations, seed=seed).to_json()


def value(record: dict[str, Any], index: int, action: str, iterations: int, seed: int, simulations: int = 0) -> float:
    """The mover's chance to win after ``action`` at the record's action ``index`` (a puzzle's answer), on
    as many simulations as the decision's review had (``DecisionReview.simulations``)."""
    from players.review import value_of
    from rules import GameRecord

    game = GameRecord.from_json(record)
    return value_of(game, index, action, iterations=iterations, seed=seed, simulations=simulations)
