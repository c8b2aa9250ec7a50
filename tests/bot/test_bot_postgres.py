"""The real bot (cogs inside SimCord) on PostgreSQL: a whole game by buttons, boards and final scores posted
once (the board poster claims each game's channel in the database there)."""

from __future__ import annotations

import asyncio

import pytest
import simcord

from bot.client import PetersburgBot
from bot.config import Config

from .helpers import (
    act_by_buttons,
    board_message,
    boards_with_controls,
    bot_of,
    game_in,
    new_table,
    play_to_end,
    state_in,
)


@pytest.fixture
def simcord_bot(pg_url: str) -> PetersburgBot:
    return PetersburgBot(Config(token="x", database_url=pg_url, render_images=False), sync_commands=True)


async def test_whole_game_on_postgresql(env: simcord.Env) -> None:
    store = bot_of(env).store
    assert store is not None and store.dialect == "postgresql"
    channel, players = await new_table(env, 2)
    actions = await play_to_end(env, channel, players, by="buttons")
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    assert game.status == "finished" and st.finished and game.final_posted
    final = channel.history()[-1]
    assert final.embeds and len(final.embeds[0].fields) == 3  # a field per player, then the ratings
    assert final.embeds[0].fields[-1].name == "Ratings"
    assert [m.embeds[0].title for m in channel.history() if m.embeds].count(final.embeds[0].title) == 1
    rows = await store.actions(game.id)
    assert [r.idx for r in rows] == list(range(st.action_count))
    assert len([r for r in rows if r.auto is None]) == actions
    assert await store.fetch_all("SELECT board_owner FROM games WHERE id = ?", (game.id,)) == [(None,)]


@pytest.mark.simcord(settle_timeout=20)  # the bot is busy until the other process lets the channel go
async def test_the_board_command_is_answered_while_another_process_holds_the_channel(env: simcord.Env) -> None:
    """Another process is updating the channel (its claim holds for a while): ``/petersburg board`` does not
    wait for it beyond a few seconds, says the board follows, and reposts it once the channel is free."""
    store = bot_of(env).store
    assert store is not None
    channel, players = await new_table(env, 2)
    game = await game_in(env, channel)
    old = board_message(channel)
    assert await store.claim_board(game.id, "another process", 120)

    async def done_later() -> None:
        await asyncio.sleep(6)
        await store.release_board(game.id, "another process")

    other = asyncio.create_task(done_later())
    since = len(env.http_requests)
    r = await asyncio.wait_for(players[1].slash(channel, "petersburg board"), 30)  # returns once all is done
    await other
    assert r.ephemeral and "in a moment" in (r.response.content if r.response else ""), r
    calls = [(c.method, c.path) for c in env.http_requests[since:]]
    answer = next(i for i, (m, p) in enumerate(calls) if m == "PATCH" and p.startswith("/webhooks/"))
    posted = next(i for i, (m, p) in enumerate(calls) if m == "POST" and p == f"/channels/{channel.id}/messages")
    assert answer < posted  # answered before the other process was done, the board reposted after
    assert board_message(channel).id != old.id
    assert len(boards_with_controls(channel)) == 1


async def test_a_failed_turn_message_holds_nothing(env: simcord.Env) -> None:
    """Posting the turn message fails once (403 Missing Permissions): the away player is told by DM at once,
    the channel's claim is released, and with the permission back the next turn pings in the channel."""
    store = bot_of(env).store
    assert store is not None
    channel, players = await new_table(env)
    await env.advance_time(10 * 60)  # both players away: each turn pings
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013, message="Missing Permissions")
    await act_by_buttons(env, channel, players)
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    away = next(p for p in players if p.user.id == game.user_at(st.decider))
    assert away.user.dm_channel is not None
    assert any("It is your turn in" in m.content for m in away.user.dm_channel.history())
    assert await store.fetch_all("SELECT board_owner FROM games WHERE id = ?", (game.id,)) == [(None,)]
    await env.advance_time(10 * 60)
    await act_by_buttons(env, channel, players)
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    turn = [m for m in channel.history() if "your turn" in m.content]
    assert len(turn) == 1 and f"<@{game.user_at(st.decider)}>" in turn[0].content
