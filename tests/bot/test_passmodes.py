"""Pass modes (this turn, until the display changes, rest of the phase) and forced passes, through the
board's menu and the slash command. Games are rigged into a later workers phase (passing is allowed)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import simcord
from simcord.actors import MemberActor

from bot.store import ActionRow
from rules import GameState
from rules.autopass import only_pass

from .conftest import make_bot
from .helpers import (
    act_by_buttons,
    board_message,
    bot_of,
    controls,
    decider,
    decider_of,
    game_in,
    new_table,
    open_menu,
    reply_of,
    rig,
    state_in,
    take_card,
)


async def _rigged(env: simcord.Env, n: int, change: Callable[[GameState], None] | None = None
                  ) -> tuple[simcord.ChannelHandle, list[MemberActor]]:
    """A game in round 2's workers phase, seat 0 to move, four Lumberjacks on display; players in seat order."""
    channel, members = await new_table(env, n)

    def later(st: GameState) -> None:
        st.round, st.phase, st.to_move, st.passes = 2, 0, 0, 0
        st.discard.extend(st.upper + st.lower)
        st.upper, st.lower = [take_card(st, "lumberjack") for _ in range(4)], []
        st.rubles = [30] * st.n
        if change is not None:
            change(st)

    await rig(env, channel, members, later)
    game = await game_in(env, channel)
    by_id = {m.id: m for m in members}
    seated = [by_id[s.user_id] for s in game.seats if s.user_id is not None]
    assert decider_of(board_message(channel), seated) is seated[0]
    return channel, seated


async def _rows(env: simcord.Env, channel: simcord.ChannelHandle) -> list[ActionRow]:
    store = bot_of(env).store
    assert store is not None
    return await store.actions((await game_in(env, channel)).id)


async def _modes(env: simcord.Env, channel: simcord.ChannelHandle) -> dict[int, str]:
    store = bot_of(env).store
    assert store is not None
    return {s: d["mode"] for s, d in (await store.pass_modes((await game_in(env, channel)).id)).items()}


async def _click_pass(channel: simcord.ChannelHandle, who: MemberActor) -> None:
    """``who`` opens the board's "Your move" menu and clicks its pass button."""
    menu = await open_menu(who, board_message(channel))
    cid = next(c.custom_id for c in controls(menu) if (c.custom_id or "").startswith("pb:b:")
               and c.custom_id.split(":")[-1].startswith("pass|"))
    await who.click(menu, custom_id=cid)


def _version_shown(channel: simcord.ChannelHandle) -> int:
    """The game version in the live board's "Your move" button."""
    cid = next(c.custom_id for c in controls(board_message(channel)) if (c.custom_id or "").startswith("pb:y:"))
    return int(cid.split(":")[-1])


async def test_rest_of_phase_from_the_board_menu(env: simcord.Env) -> None:
    channel, (a, b) = await _rigged(env, 2)
    board = board_message(channel)
    version = (await game_in(env, channel)).version
    menu = next(c for c in controls(board) if (c.custom_id or "").startswith("pb:m:"))
    assert [o.value for o in menu.options] == ["turn", "display", "phase", "off"]
    r = await b.select(board, ["phase"], custom_id=menu.custom_id)  # b is waiting: anyone at the table may
    assert reply_of(r).ephemeral and "rest of this phase" in reply_of(r).content
    assert await _modes(env, channel) == {1: "phase"}
    assert board_message(channel).id == board.id  # nothing happened yet
    assert (await game_in(env, channel)).version == version == _version_shown(channel)
    for _ in range(2):  # a buys; b's turn is passed at once, so a is to decide again
        await act_by_buttons(env, channel, [a, b])
        rows = await _rows(env, channel)
        assert (rows[-1].seat, rows[-1].auto, rows[-1].notation) == (1, "mode_phase", "pass")
        assert rows[-2].auto is None and rows[-2].user_id == a.id
        board = board_message(channel)
        assert _version_shown(channel) == (await game_in(env, channel)).version  # the live board is current
        assert decider_of(board, [a, b]) is a
        text = board.embeds[0].description or ""
        assert "p1 passed (automatically) — pass mode: rest of this phase." in text
        assert "Passing automatically: p1 (rest of this phase)" in text
    # a passes right after b's pass: everyone passed in a row, the phase ends and the mode with it
    await _click_pass(channel, a)
    st = await state_in(env, channel)
    assert (st.round, st.phase) == (2, 1)
    assert await _modes(env, channel) == {}
    assert [r.auto for r in await _rows(env, channel)] == [None, "mode_phase", None, "mode_phase", None]


async def test_until_the_display_changes(env: simcord.Env) -> None:
    channel, (a, b, c) = await _rigged(env, 3)
    r = await b.slash(channel, "petersburg pass", mode="display")
    assert reply_of(r).ephemeral and "until the display changes" in reply_of(r).content
    await _click_pass(channel, a)  # the display stays: b passes automatically, c decides
    rows = await _rows(env, channel)
    assert [(x.seat, x.auto) for x in rows] == [(0, None), (1, "mode_display")]
    assert decider_of(board_message(channel), [a, b, c]) is c
    await act_by_buttons(env, channel, [a, b, c])  # c buys: the display changes
    await act_by_buttons(env, channel, [a, b, c])  # a buys
    assert decider_of(board_message(channel), [a, b, c]) is b  # no longer passed for
    assert await _modes(env, channel) == {}
    assert len(await _rows(env, channel)) == 4


async def test_this_turn_only_and_cancel(env: simcord.Env) -> None:
    channel, (a, b) = await _rigged(env, 2)
    await b.slash(channel, "petersburg pass", mode="turn")
    await act_by_buttons(env, channel, [a, b])
    assert [x.auto for x in await _rows(env, channel)] == [None, "mode_turn"]
    assert await _modes(env, channel) == {}  # used up
    await act_by_buttons(env, channel, [a, b])
    assert decider_of(board_message(channel), [a, b]) is b  # this time b decides
    # the player to decide asking for "this turn" passes at once; nothing is kept
    r = await b.slash(channel, "petersburg pass", mode="turn")
    assert "you passed" in reply_of(r).content and await _modes(env, channel) == {}
    assert decider_of(board_message(channel), [a, b]) is a
    # set, then cancelled: no automatic pass
    await b.slash(channel, "petersburg pass", mode="phase")
    r = await b.slash(channel, "petersburg pass", mode="off")
    assert "cancelled" in reply_of(r).content and await _modes(env, channel) == {}
    await act_by_buttons(env, channel, [a, b])
    assert decider_of(board_message(channel), [a, b]) is b


async def test_forced_pass_when_passing_is_the_only_move(env: simcord.Env) -> None:
    def broke(st: GameState) -> None:
        st.rubles[1] = 0  # no money, and a full hand of cards it cannot pay for
        st.hands[1] = [take_card(st, cid) for cid in ("academy", "theater", "library")]

    channel, (a, b) = await _rigged(env, 2, broke)
    st = await state_in(env, channel)
    st.to_move = 1
    assert only_pass(st)  # what the rules say about b's coming turn
    await act_by_buttons(env, channel, [a, b])
    rows = await _rows(env, channel)
    assert [(x.seat, x.auto, x.user_id) for x in rows] == [(0, None, a.id), (1, "forced", None)]
    board = board_message(channel)
    assert decider_of(board, [a, b]) is a
    assert "p1 passed (automatically) — passing was the only legal move." in (board.embeds[0].description or "")


async def test_pass_mode_refusals(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    first = decider(channel, players)
    r = await first.slash(channel, "petersburg pass", mode="turn")  # round 1: a worker must be bought
    assert reply_of(r).ephemeral and "cannot pass" in reply_of(r).content
    outsider = env.guild.add_member(env.create_user("kibitz"))
    r = await outsider.slash(channel, "petersburg pass", mode="phase")
    assert reply_of(r).ephemeral and "not playing" in reply_of(r).content
    assert await _modes(env, channel) == {} and await _rows(env, channel) == []


async def test_everyone_passing_automatically_ends_the_phase_and_the_chain(env: simcord.Env) -> None:
    channel, (a, b, c) = await _rigged(env, 3)
    await b.slash(channel, "petersburg pass", mode="phase")
    await c.slash(channel, "petersburg pass", mode="phase")
    r = await a.slash(channel, "petersburg pass", mode="phase")  # a is to decide: a passes now, then b and c
    assert "you passed" in reply_of(r).content
    rows = await _rows(env, channel)
    assert [(x.seat, x.auto) for x in rows] == [(0, "mode_phase"), (1, "mode_phase"), (2, "mode_phase")]
    st = await state_in(env, channel)
    assert (st.round, st.phase) == (2, 1) and not st.finished  # the next phase: nobody passes for anyone
    assert await _modes(env, channel) == {}
    board = board_message(channel)
    assert board.embeds[0].description.count("pass mode: rest of this phase") == 3  # type: ignore[union-attr]


async def test_pass_mode_survives_a_restart(env: simcord.Env, db_path: Path) -> None:
    channel, (a, b) = await _rigged(env, 2)
    await b.slash(channel, "petersburg pass", mode="phase")
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False))
    assert old.store is not None
    await old.store.close()
    await act_by_buttons(env, channel, [a, b])
    assert [x.auto for x in await _rows(env, channel)] == [None, "mode_phase"]
    assert decider_of(board_message(channel), [a, b]) is a
