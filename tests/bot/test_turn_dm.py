"""Every turn's ping reaches the player to decide when Discord refuses or fails the turn message. On both
databases (SQLite, and PostgreSQL when ``TEST_DATABASE_URL`` is set), every turn pinged (``LIVE_MINUTES=0``).

A player told by DM because the channel refused their turn message: the DM is for that turn only.

The order forced here: Discord refuses the turn message (403 Missing Permissions) of the player about to
decide, who is told by DM; that player moves (after the DM, or while it is being sent) and, the other player
passing at once (pass mode), decides again. The channel then holds exactly one turn message pinging them,
below the live board.

A turn message Discord failed (503) when the bot stopped before trying again is posted after the restart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import PetersburgBot
from rules import GameState, legal_moves

from .conftest import make_bot
from .helpers import (
    act_by_buttons,
    board_message,
    bot_of,
    decider_and_other,
    game_in,
    new_table,
    rig,
    state_in,
)
from .test_faults import _two_lumberjacks


def bot_on(db_url: str, *, sync: bool = True) -> PetersburgBot:
    """The real bot on the database of ``db_url``, every turn pinged."""
    if db_url.startswith("postgresql"):
        return make_bot(Path("unused.sqlite3"), sync=sync, database_url=db_url, live_minutes=0)
    return make_bot(Path(db_url), sync=sync, live_minutes=0)


@pytest.fixture
def simcord_bot(db_url: str) -> PetersburgBot:
    """The real bot on the database of ``db_url`` (the ``db_url`` fixture: SQLite, then PostgreSQL)."""
    return bot_on(db_url)


def turn_messages(channel: simcord.ChannelHandle) -> list[Any]:
    return [m for m in channel.history() if "your turn" in m.content]


def move_while_told(env: simcord.Env, channel: simcord.ChannelHandle, mover_id: int,
                    monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The mover's move (buy a Lumberjack) is committed the moment the bot sends them the turn DM, before
    that DM goes out and before the bot stores them as told; the versions it left, once done."""
    bot = bot_of(env)
    cog: Any = bot.get_cog("Petersburg")
    real = cog.dms.send
    moved: list[int] = []

    async def send(user_id: int, text: str, *args: Any, **kw: Any) -> bool:
        if user_id == mover_id and "It is your turn in" in text and not moved:
            game = await game_in(env, channel)
            st = GameState.from_json(game.state or {})
            buy = next(m.action for m in legal_moves(st) if m.action.kind == "buy")
            assert bot.service is not None
            await bot.service.act(game.id, mover_id, buy, version=game.version)
            moved.append(game.version)
            cog.poster.kick(game.id)  # as the move's interaction does
        return bool(await real(user_id, text, *args, **kw))

    monkeypatch.setattr(cog.dms, "send", send)
    return moved


@pytest.mark.parametrize("moves", ["after the DM", "while the DM is sent"])
async def test_a_player_told_by_dm_who_decides_again_is_pinged_in_the_channel(
        env: simcord.Env, moves: str, monkeypatch: pytest.MonkeyPatch) -> None:
    channel, players = await new_table(env)
    await rig(env, channel, players, _two_lumberjacks)
    other, mover = decider_and_other(channel, players)  # the other decides now; then the mover
    moved = move_while_told(env, channel, mover.id, monkeypatch) if moves != "after the DM" else []
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013,
                     message="Missing Permissions")  # the mover's turn message, once
    r = await other.slash(channel, "petersburg pass", mode="phase")  # the other passes, now and for the phase
    assert r.ephemeral
    assert any("It is your turn in" in m.content for m in mover.user.dm_channel.history())  # told by DM
    if moves == "after the DM":
        game = await game_in(env, channel)
        st = await state_in(env, channel)
        assert game.user_at(st.decider) == mover.id
        assert (game.turn_message_id, game.turn_user_id) == (None, mover.id)
        assert game.board_problem is not None and game.board_problem.startswith("turn:")
        assert turn_messages(channel) == []
        await act_by_buttons(env, channel, players)  # the mover buys a Lumberjack, the other passes at once ...
    else:
        assert moved, "the mover's move was not made while the DM was sent"
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    assert game.user_at(st.decider) == mover.id  # ... and the mover decides again
    assert st.upper and sum(1 for c in st.upper if st.cards[c].id == "lumberjack") == 1
    turns = turn_messages(channel)
    assert [m.content for m in turns] == [f"<@{mover.id}>, it is your turn."], [m.content for m in turns]
    assert turns[0].id > board_message(channel).id  # below the live board
    assert game.turn_message_id == turns[0].id and game.turn_user_id == mover.id
    assert game.board_problem is None  # the channel takes turn messages again: the problem is over


async def test_a_turn_message_left_to_retry_is_posted_after_a_restart(env: simcord.Env, db_url: str) -> None:
    """Discord fails (503) on the turn message and the bot stops before it could try again (its tries wait in
    memory): the next start finds the untold turn and pings the player once Discord recovers."""
    channel, players = await new_table(env)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=503, message="Service Unavailable",
                     times=None)  # until the restart (discord.py itself tries a 503 again a few times)
    await act_by_buttons(env, channel, players)
    game = await game_in(env, channel)
    assert (game.turn_message_id, game.turn_user_id) == (None, None)  # untold: the poster tries again later
    old = bot_of(env)
    await env.restart_bot(bot_on(db_url, sync=False))  # Discord still fails while the bot stops and starts
    assert old.store is not None
    await old.store.close()
    assert turn_messages(channel) == []
    env.backend.faults.clear()  # then recovers
    await env.advance_time(30)
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    turns = turn_messages(channel)
    assert [m.content for m in turns] == [f"<@{game.user_at(st.decider)}>, it is your turn."]
    assert game.turn_message_id == turns[0].id
