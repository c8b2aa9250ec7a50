"""Decisions beyond a plain buy: a trading card's target, the Observatory and the Pub, via the board's
private "Your move" menu.

The games are set up by writing a prepared state into the database (as if play had reached it)."""

from __future__ import annotations

from typing import Any, cast

import discord
import simcord
from simcord.actors import MemberActor

from rules import GameState, catalogue

from .helpers import (
    board_message,
    controls,
    decider_and_other,
    decider_of,
    game_in,
    open_menu,
    rig,
    select_kind,
    setup_members,
    start_game,
    state_in,
    take_card,
)


def _select(menu: discord.Message | simcord.ResponseMessage, kind: str) -> Any:
    return next(c for c in controls(menu) if (c.custom_id or "").startswith("pb:s:")
                and select_kind(c.custom_id or "") == kind)


def _button(menu: discord.Message | simcord.ResponseMessage, kind: str) -> Any:
    return next(c for c in controls(menu) if (c.custom_id or "").startswith("pb:b:")
                and (c.custom_id or "").split(":")[-1].startswith(kind + "|"))


def _version_shown(channel: simcord.ChannelHandle) -> int:
    """The game version in the live board's "Your move" button."""
    cid = next(c.custom_id for c in controls(board_message(channel)) if (c.custom_id or "").startswith("pb:y:"))
    return int(cid.split(":")[-1])


async def test_trading_card_target_chosen_privately(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("t")
    players = setup_members(env, 2)
    await start_game(env, channel, players)

    def trading(st: GameState) -> None:
        seat = st.to_move
        st.round, st.phase, st.passes = 2, 3, 0
        st.upper, st.lower = [take_card(st, "bank")], []
        st.tableaux[seat] = [take_card(st, "market"), take_card(st, "customs_house"), take_card(st, "lumberjack")]
        st.rubles[seat] = 40

    await rig(env, channel, players, trading)
    board = board_message(channel)
    actor = decider_of(board, players)
    assert not [c for c in controls(board) if (c.custom_id or "").startswith(("pb:s:", "pb:b:"))]  # none public
    menu = await open_menu(actor, board)
    buy = _select(menu, "buy")
    group = [o for o in buy.options if o.value.startswith("?")]
    assert len(group) == 1 and "from" in group[0].label
    r = await actor.select(menu, [group[0].value], custom_id=buy.custom_id)
    shown = r.followups[-1] if r.followups else r.response
    assert shown is not None and shown.ephemeral and shown.id == menu.id  # the menu now asks for the target
    target = next(c for row in shown.message.components for c in cast(discord.ActionRow, row).children)
    assert isinstance(target, discord.SelectMenu)
    labels = [o.label for o in target.options]
    assert len(labels) == 2 and all("over" in x and "rubles" in x for x in labels)  # Market, Customs House
    before = await game_in(env, channel)
    chosen = next(o for o in target.options if "Market" in o.label)
    r = await actor.select(shown, [chosen.value], custom_id=target.custom_id)
    st = await state_in(env, channel)
    seat = next(s.seat for s in before.seats if s.user_id == actor.id)
    names = [st.cards[c].id for c in st.tableaux[seat]]
    assert "bank" in names and "market" not in names and "customs_house" in names
    assert (await game_in(env, channel)).version == before.version + 1
    assert _version_shown(channel) == before.version + 1  # the live board shows the new state
    closed = r.followups[-1] if r.followups else r.response
    assert closed is not None and closed.ephemeral and closed.id == menu.id
    assert "✅" in closed.content and not closed.components  # the private choice is closed



def observatory_turn(st: GameState) -> None:
    """The buildings phase of round 2: the player to move owns an Observatory; one card on the display."""
    seat = st.to_move
    st.round, st.phase, st.passes = 2, 1, 0
    st.tableaux[seat] = [take_card(st, "observatory")]
    st.upper = [take_card(st, "market")]
    st.lower = []


async def test_observatory_draw_and_discard(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("o")
    players = setup_members(env, 2)
    await start_game(env, channel, players)
    cat = catalogue(2)

    await rig(env, channel, players, observatory_turn)
    board = board_message(channel)
    actor, other = decider_and_other(channel, players)
    version = (await game_in(env, channel)).version
    stacks = await actor.autocomplete(channel, "petersburg observatory", "stack", "")
    assert {c["value"] for c in stacks} == {f"v{version} observe {s}"
                                            for s in ("workers", "buildings", "aristocrats", "trading")}
    chosen = next(c["value"] for c in stacks if c["value"].endswith(" aristocrats"))
    r = await actor.slash(channel, "petersburg observatory", stack=chosen)
    assert r.ephemeral and "Observatory" in (r.response.content if r.response else "")
    assert r.response is not None and _button(r.response, "discard")  # the same player decides again
    st = await state_in(env, channel)
    assert st.pending is not None and st.pending.kind == "observatory"
    drawn = st.cards[st.pending.card]
    board = board_message(channel)
    assert _version_shown(channel) == version + 1
    assert cat.by_id[drawn.id].name_en in (board.embeds[0].description or "")  # shown to everyone
    assert decider_of(board, players) is actor
    # the other player gets no controls, and cannot take the decision by command either
    r_other = await open_menu(other, board)
    assert "turn" in r_other.content and not controls(r_other)
    decision = next(c["value"] for c in await actor.autocomplete(channel, "petersburg decide", "choice", "")
                    if " discard" in c["value"])
    r = await other.slash(channel, "petersburg decide", choice=decision)
    reply = r.followups[-1] if r.followups else r.response
    assert reply is not None and reply.ephemeral and "not your turn" in reply.content
    assert (await game_in(env, channel)).version == version + 1
    menu = await open_menu(actor, board)
    await actor.click(menu, custom_id=_button(menu, "discard").custom_id)
    st = await state_in(env, channel)
    assert st.pending is None and st.cards[st.discard[-1]].id == drawn.id
    assert any(st.cards[c].id == "observatory" for c in st.face_down)


def _pubs(st: GameState) -> None:
    """The buildings phase of round 2, one card left on the display; each player has a Pub and 30 rubles."""
    st.round, st.phase, st.passes = 2, 1, 0
    st.upper, st.lower = [take_card(st, "market")], []
    for s in range(st.n):
        st.tableaux[s] = [take_card(st, "pub")]
        st.rubles[s] = 30


async def to_the_pub_decisions(env: simcord.Env, channel: simcord.ChannelHandle, players: list[MemberActor]) -> None:
    """Both players of a new game own a Pub and pass in the buildings phase: after the building scoring,
    the first Pub decision is pending."""
    await rig(env, channel, players, _pubs)
    for _ in range(2):
        board = board_message(channel)
        who = decider_of(board, players)
        menu = await open_menu(who, board)
        await who.click(menu, custom_id=_button(menu, "pass").custom_id)


async def test_pub_after_building_scoring(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("p")
    players = setup_members(env, 2)
    await start_game(env, channel, players)
    await to_the_pub_decisions(env, channel, players)
    st = await state_in(env, channel)
    assert st.pending is not None and st.pending.kind == "pub"
    board = board_message(channel)
    actor = decider_of(board, players)
    assert not [c for c in controls(board) if (c.custom_id or "").startswith(("pb:s:", "pb:b:"))]  # none public
    menu = await open_menu(actor, board)
    pub = _select(menu, "pub")
    values = [o.value for o in pub.options]
    assert values[0].endswith("|0") and len(values) == 6  # 0..5 VP
    seat = st.pending.seat
    vp, rubles = st.vp[seat], st.rubles[seat]
    await actor.select(menu, [values[2]], custom_id=pub.custom_id)
    st = await state_in(env, channel)
    assert (st.vp[seat], st.rubles[seat]) == (vp + 2, rubles - 4)
    r = await actor.autocomplete(channel, "petersburg decide", "choice", "")
    assert r == []  # no longer this player's decision
