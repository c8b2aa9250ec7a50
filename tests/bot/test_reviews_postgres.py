"""📈 Review with several processes on PostgreSQL: while another process holds a game's review, a press (and a
second one, by someone else) shows that review's progress from the database and starts no second review;
when that process dies (its claim lapses) the next look takes the review over and goes on from the decisions
it stored (here made up by the test: its judging is not what this checks), judging none of them again."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from bot import reviewing, thinking
from bot.client import PetersburgBot
from bot.config import Config
from bot.store import Store
from cogs.reviews import PROGRESS_SECONDS
from rules import apply, parse_for

from .helpers import bot_of, controls, game_in, play_to_end, reply_of, setup_members, start_game


@pytest.fixture
def simcord_bot(pg_url: str) -> PetersburgBot:
    return PetersburgBot(Config(token="x", database_url=pg_url, render_images=False, computer_pause=0.0,
                                review_iterations=1), sync_commands=True)


@pytest.fixture(autouse=True)
def _stop_pools() -> Any:
    yield
    reviewing.REVIEW.shutdown()
    thinking.THINK.shutdown()


async def test_a_second_press_while_another_process_reviews(env: simcord.Env, pg_url: str) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("petersburg")
    players = setup_members(env, 2, guild)
    await start_game(env, channel, players)
    await play_to_end(env, channel, players, by="buttons")
    game = await game_in(env, channel)
    store = bot_of(env).store
    assert store is not None and store.shared and game.status == "finished"
    record = bot_of(env).service.record_of(game, await store.actions(game.id))  # type: ignore[union-attr]
    todo = reviewing.plan(record.to_json())
    st = record.start()
    staged: dict[int, dict[str, Any]] = {}
    for i, text in enumerate(record.actions):  # what the other process judged: all but the last three decisions
        if i in todo[:-3]:
            staged[i] = {"index": i, "seat": st.decider, "round": st.round, "phase": st.phase_key, "played": text,
                         "preferred": text, "before": 0.5, "after": 0.5, "label": None, "preferred_public": True,
                         "chances": [0.5, 0.5], "judged_by": "other"}
        apply(st, parse_for(st, text))
    other = await Store.open(pg_url)  # another bot process, reviewing this game
    try:
        assert await other.claim_review(game.id, "other", 600, requested_by=None, iterations=1, seed=0)
        assert await other.set_review_total(game.id, "other", len(todo))
        for idx, data in staged.items():
            assert await other.add_review_part(game.id, "other", idx, data, 600)
    finally:
        await other.close()
    final = next(m for m in reversed(channel.history()) if any(c.custom_id == f"pb:v:{game.id}" for c in controls(m)))
    first = reply_of(await players[0].click(final, custom_id=f"pb:v:{game.id}"))
    expected = f"📈 Reviewing game #{game.id}: {len(todo) - 3} of {len(todo)} decisions…"
    assert first.content == expected and not first.embeds
    onlooker = guild.add_member(env.create_user("onlooker"))
    second = reply_of(await onlooker.click(final, custom_id=f"pb:v:{game.id}"))
    assert second.content == expected and not second.embeds
    row = await store.review(game.id)
    assert row is not None and row.owner == "other" and row.done == len(todo) - 3  # nobody else started judging
    # the other process dies: its claim lapses, and the next look here takes the review over
    env.settle_timeout = 60.0  # the review is judged in real seconds in the review worker
    await store.fetch_all("UPDATE reviews SET lease = 0 WHERE game_id = ? RETURNING game_id", (game.id,))
    for _ in range(5):
        if first.embeds and second.embeds:
            break
        await env.advance_time(PROGRESS_SECONDS)
    assert first.embeds and second.embeds and first.embeds[0].title == second.embeds[0].title
    parts = await store.review_parts(game.id)
    assert sorted(parts) == todo and all(parts[i] == staged[i] for i in staged)
    row = await store.review(game.id)
    assert row is not None and row.finished and row.owner is None
