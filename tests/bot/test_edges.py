"""The Discord layer at its edges.

1 a computer player's seat is never called empty; 4 every turn is announced (a 503 on the turn message is
retried, a 403 falls back to a DM and is reported once); 5 the notice of a 403 says why (in
test_live_board.py, with the board that cannot be shown); 6 a doubled
Observatory decision is answered "already made"; 9 the "You decide again" menu shows hand and money, and a
413 on the hand picture falls back to text; 10 no ping per turn while people play live, a ping for a player
who is away.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot import images
from bot.thinking import THINK

from .conftest import make_bot
from .helpers import (
    act_by_buttons,
    board_message,
    bot_of,
    controls,
    decider,
    decider_and_other,
    game_in,
    new_table,
    open_menu,
    reply_of,
    rig,
    setup_members,
    start_game,
    state_in,
    tables_in,
)
from .test_decisions import observatory_turn
from .test_faults import _same_player_again, _two_lumberjacks
from .traffic import traffic

AWAY = 10 * 60.0  # seconds: longer than the live window (LIVE_MINUTES, 5 by default)


@pytest.fixture(autouse=True)
def _stop_thinking() -> object:
    yield
    THINK.shutdown()


def _turn_messages(channel: simcord.ChannelHandle) -> list[str]:
    return [m.content for m in channel.history() if "your turn" in m.content]


async def _hand_over(env: simcord.Env, channel: simcord.ChannelHandle, players: list) -> None:
    """The player to decide acts (by the board's menu) until the turn is someone else's."""
    first = decider(channel, players)
    for _ in range(10):
        await act_by_buttons(env, channel, players)
        if decider(channel, players) is not first:
            return
    raise AssertionError("the turn did not pass on")


# --- 1 ------------------------------------------------------------------------------------------------------
async def test_a_computer_seat_is_never_called_empty(env: simcord.Env) -> None:
    """A whole game of a person and a computer: no public text (also of messages deleted again) says "empty",
    and nobody is pinged for the computer's turns."""
    channel = env.create_guild().create_text_channel("robot")
    host = setup_members(env, 1)[0]
    r = await host.slash(channel, "petersburg create", computers=1, level="easy")
    assert r.ephemeral
    await host.slash(channel, "petersburg start")
    for _ in range(300):
        if (await game_in(env, channel)).status != "active":
            break
        await env.advance_time(AWAY)  # the person is away: their turns are pinged
        await act_by_buttons(env, channel, [host])
    game = await game_in(env, channel)
    assert game.status == "finished"
    store = bot_of(env).store
    assert store is not None
    assert any(a.auto == "computer" for a in await store.actions(game.id))
    sent = traffic(env, channel.id)
    empty = [x for x in sent.texts() if "empty" in x.lower()]
    assert empty == [], empty[:3]
    assert set(sent.mentions()) <= {host.id}


# --- 4 ------------------------------------------------------------------------------------------------------
async def test_a_503_on_the_turn_message_is_retried(env: simcord.Env) -> None:
    """Discord fails (503) on posting the turn message, then on deleting the old one: the player is pinged
    once Discord recovers, and the channel holds exactly one turn message."""
    channel, players = await new_table(env)
    await env.advance_time(AWAY)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=503, message="Service Unavailable", times=2)
    await _hand_over(env, channel, players)
    await env.advance_time(30)  # the poster tries again with backoff
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    decider = game.user_at(st.decider)
    turns = _turn_messages(channel)
    assert turns == [f"<@{decider}>, it is your turn."], turns
    assert game.turn_message_id == next(m.id for m in channel.history() if "your turn" in m.content)
    env.inject_error("DELETE", f"/channels/{channel.id}/messages/{game.turn_message_id}", status=503,
                     message="Service Unavailable", times=1)
    await env.advance_time(AWAY)
    await _hand_over(env, channel, players)
    await env.advance_time(30)
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    assert _turn_messages(channel) == [f"<@{game.user_at(st.decider)}>, it is your turn."], _turn_messages(channel)


async def test_a_403_on_the_turn_message_tells_the_player_another_way(env: simcord.Env) -> None:
    """The bot may edit the board but not post (403): the player to decide is told by DM at every turn, the
    host is told once what is wrong, and once the permission is back the turn message is there again."""
    channel, players = await new_table(env)
    host = players[0]
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013,
                     message="Missing Permissions", times=None)
    for _ in range(3):
        await env.advance_time(AWAY)
        await _hand_over(env, channel, players)
        game = await game_in(env, channel)
        st = await state_in(env, channel)
        decider = next(p for p in players if p.id == game.user_at(st.decider))
        dms = [m.content for m in decider.user.dm_channel.history()]
        assert "your turn" in dms[-1] and f"<#{channel.id}>" in dms[-1], dms[-3:]
    told = [m.content for m in host.user.dm_channel.history() if "⚠️" in m.content]
    assert len(told) == 1, told
    assert "Missing Permissions" in told[0] and "Send Messages" in told[0], told
    env.backend.faults.clear()
    await env.advance_time(AWAY)
    await _hand_over(env, channel, players)
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    assert _turn_messages(channel) == [f"<@{game.user_at(st.decider)}>, it is your turn."]


# --- 6 ------------------------------------------------------------------------------------------------------
async def _drawn(env: simcord.Env) -> tuple[simcord.ChannelHandle, object, str]:
    """A player who drew with the Observatory; their "discard" decision as ``/petersburg decide`` offers it."""
    channel = env.create_guild().create_text_channel("observatory")
    players = setup_members(env, 2)
    await start_game(env, channel, players)
    await rig(env, channel, players, observatory_turn)
    actor = decider(channel, players)
    stacks = await actor.autocomplete(channel, "petersburg observatory", "stack", "")
    chosen = next(c["value"] for c in stacks if c["value"].endswith(" aristocrats"))
    await actor.slash(channel, "petersburg observatory", stack=chosen)
    decision = next(c["value"] for c in await actor.autocomplete(channel, "petersburg decide", "choice", "")
                    if " discard" in c["value"])
    return channel, actor, decision


@pytest.mark.parametrize(("first_by", "again_by"), [("command", "command"), ("click", "command"),
                                                    ("command", "click")])
async def test_a_doubled_observatory_decision(env: simcord.Env, first_by: str, again_by: str) -> None:
    """The same decision twice, by ``/petersburg decide`` or by a click on the private menu opened before
    either: the second is answered "already made" and changes nothing."""
    channel, actor, decision = await _drawn(env)
    menu = await open_menu(actor, board_message(channel))  # type: ignore[arg-type]
    discard = next(c for c in controls(menu) if (c.custom_id or "").startswith("pb:b:")
                   and (c.custom_id or "").split(":")[-1].startswith("discard|"))

    async def decide(by: str) -> Any:
        if by == "click":
            return await actor.click(menu, custom_id=discard.custom_id)  # type: ignore[attr-defined]
        return await actor.slash(channel, "petersburg decide", choice=decision)  # type: ignore[attr-defined]

    assert "✅" in reply_of(await decide(first_by)).content
    version = (await game_in(env, channel)).version
    again = await decide(again_by)
    assert "already made" in reply_of(again).content, reply_of(again).content
    assert (await game_in(env, channel)).version == version


# --- 9 ------------------------------------------------------------------------------------------------------
async def test_the_decide_again_menu_shows_hand_and_money(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    mover, _ = await _same_player_again(env, channel, players)
    menu = await open_menu(mover, board_message(channel))
    select = next(c for c in controls(menu) if (c.custom_id or "").endswith(":buy-0"))
    option = next(o.value for o in select.options if o.value.startswith("buy|lumberjack|"))
    r = await mover.select(menu, [option], custom_id=select.custom_id)
    shown = reply_of(r)
    assert "You decide again" in shown.content, shown.content
    st = await state_in(env, channel)
    seat = (await game_in(env, channel)).seat_of(mover.id)
    assert seat is not None
    assert "Your hand" in shown.content and f"You have {st.rubles[seat]} rubles" in shown.content, shown.content
    assert controls(shown)  # and the choices


@pytest.mark.skipif(not images.available(), reason="render/ is not there")
async def test_a_hand_picture_too_large_falls_back_to_text(env: simcord.Env, db_path: Path) -> None:
    channel, players = await new_table(env)
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False, render_images=True))
    assert old.store is not None
    await old.store.close()
    board = board_message(channel)
    hand_id = next(c.custom_id for c in controls(board) if (c.custom_id or "").startswith("pb:h:"))
    env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=413, code=40005,
                     message="Request entity too large", times=1)
    r = await players[1].click(board, custom_id=hand_id)
    shown = reply_of(r)
    assert shown.ephemeral and "Your hand" in shown.content and shown.attachments == [], shown.content
    assert bot_of(env).bugs == []


# --- 10 -----------------------------------------------------------------------------------------------------
async def test_a_live_game_pings_nobody_per_turn(env: simcord.Env) -> None:
    """Two players at the board, acting within seconds of each other, a whole game: no mention after the
    first, and no turn message posted and deleted per turn."""
    channel, players = await new_table(env)
    start = len(env.http_requests)
    moves = 0
    while (await game_in(env, channel)).status == "active":
        await env.advance_time(8)
        await act_by_buttons(env, channel, players)
        moves += 1
    sent = traffic(env, channel.id, start)
    assert moves > 20
    assert len(sent.mentions()) <= 1, sent.mentions()
    assert len(sent.posted) <= 3, [p.get("content") for p in sent.posted]  # the final scores (and a ping)
    assert bot_of(env).bugs == []


async def test_live_games_keep_one_look_again(env: simcord.Env) -> None:
    """The looks again at the end of live players' windows are one sleeping task for all games, moved later by
    each move: a task per game (or per move) kept a timer per game pending, and SimCord keeps every timer of
    the bot in a list it searches at each callback (the load benchmark's CPU a move grew with its games)."""
    tables = await tables_in(env, 3, "live")

    def looks_again() -> set[asyncio.Task[Any]]:  # the poster's sleeping tasks (cogs.board_turns)
        codes = {t: getattr(t.get_coro(), "cr_code", None) for t in asyncio.all_tasks() if not t.done()}
        return {t for t, code in codes.items() if code is not None and code.co_filename.endswith("board_turns.py")}

    seen: set[asyncio.Task[Any]] = set()
    for _ in range(4):
        for channel, players in tables:
            await env.advance_time(8)
            await act_by_buttons(env, channel, players)
            now = looks_again()
            assert len(now) == 1, now
            seen |= now
    assert len(seen) == 1, len(seen)
    await env.advance_time(AWAY)  # the windows pass: the player to decide in each game is pinged, once
    for channel, players in tables:
        waiting = decider(channel, players)
        assert _turn_messages(channel) == [f"<@{waiting.id}>, it is your turn."]
    assert looks_again() == set()


async def test_a_player_who_is_away_is_pinged(env: simcord.Env) -> None:
    """Live play pings nobody; a player who has not been seen for longer than the live window is pinged when
    the turn reaches them, and a live player who does not act within that window is pinged then."""
    channel, players = await new_table(env)
    start = len(env.http_requests)
    await env.advance_time(5)
    await _hand_over(env, channel, players)  # both were here seconds ago
    assert traffic(env, channel.id, start).mentions() == []
    waiting = decider(channel, players)
    await env.advance_time(4 * 60)  # still within the window: quiet
    assert traffic(env, channel.id, start).mentions() == []
    await env.advance_time(2 * 60)  # the live window has passed without a move: pinged now
    assert traffic(env, channel.id, start).mentions() == [waiting.id]
    assert _turn_messages(channel) == [f"<@{waiting.id}>, it is your turn."]
    await _hand_over(env, channel, players)  # the other player has been away for six minutes
    other = decider(channel, players)
    assert other is not waiting
    assert traffic(env, channel.id, start).mentions() == [waiting.id, other.id]
    assert _turn_messages(channel) == [f"<@{other.id}>, it is your turn."]


async def test_a_pinged_player_who_turns_live_and_decides_again_is_pinged_when_idle(env: simcord.Env) -> None:
    """A player away is pinged; back at the board (``/petersburg board``) the turn message goes, the turn
    being told. They move and decide again (the other passes at once): that new turn is untold, so once the
    live window passes without a move they are pinged again."""
    channel, players = await new_table(env)
    await rig(env, channel, players, _two_lumberjacks)
    other, mover = decider_and_other(channel, players)
    await env.advance_time(AWAY)  # the mover is away
    await other.slash(channel, "petersburg pass", mode="phase")  # the other passes: the mover's turn
    assert _turn_messages(channel) == [f"<@{mover.id}>, it is your turn."]
    await mover.slash(channel, "petersburg board")  # back, live: the turn message goes
    assert _turn_messages(channel) == []
    await act_by_buttons(env, channel, players)  # the mover buys a Lumberjack, the other passes at once ...
    assert decider(channel, players) is mover  # ... and the mover decides again
    await env.advance_time(4 * 60)
    assert _turn_messages(channel) == []  # still live
    await env.advance_time(2 * 60)  # the live window passed without a move
    assert _turn_messages(channel) == [f"<@{mover.id}>, it is your turn."]


async def test_a_live_player_is_still_pinged_after_a_restart(env: simcord.Env, db_path: Path) -> None:
    """The look again at the end of a live player's window is in memory: a restart finds the untold turn."""
    channel, players = await new_table(env)
    waiting = decider(channel, players)
    assert _turn_messages(channel) == []  # just started: at the board
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False))
    assert old.store is not None
    await old.store.close()
    await env.advance_time(6 * 60)
    assert _turn_messages(channel) == [f"<@{waiting.id}>, it is your turn."]


def test_live_minutes_setting() -> None:
    from bot.config import Config

    assert Config.from_env({}).live_minutes == 5
    assert Config.from_env({"LIVE_MINUTES": "off"}).live_minutes == 0
    assert Config.from_env({"LIVE_MINUTES": "12"}).live_minutes == 12
    with pytest.raises(ValueError, match="LIVE_MINUTES"):
        Config.from_env({"LIVE_MINUTES": "soon"})
