"""Decisions beyond a plain buy: a trading card's target, the Observatory and the Pub, via the board.

The games are set up by writing a prepared state into the database (as if play had reached it)."""

from __future__ import annotations

from typing import Any, cast

import discord
import simcord

from rules import GameState, catalogue

from .helpers import (
    board_message,
    controls,
    decider_of,
    game_in,
    rig,
    setup_members,
    start_game,
    state_in,
    take_card,
)


def _select(board: discord.Message, kind: str) -> Any:
    return next(c for c in controls(board) if (c.custom_id or "").split(":")[-1].rstrip("0123456789") == kind)


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
    buy = _select(board, "buy")
    group = [o for o in buy.options if o.value.startswith("?")]
    assert len(group) == 1 and "from" in group[0].label
    r = await actor.select(board, [group[0].value], custom_id=buy.custom_id)
    shown = r.response
    assert shown is not None and shown.ephemeral
    target = next(c for row in shown.message.components for c in cast(discord.ActionRow, row).children)
    assert isinstance(target, discord.SelectMenu)
    labels = [o.label for o in target.options]
    assert len(labels) == 2 and all("over" in x and "rubles" in x for x in labels)  # Market, Customs House
    before = await game_in(env, channel)
    chosen = next(o for o in target.options if "Market" in o.label)
    await actor.select(shown, [chosen.value], custom_id=target.custom_id)
    st = await state_in(env, channel)
    seat = next(s.seat for s in before.seats if s.user_id == actor.id)
    names = [st.cards[c].id for c in st.tableaux[seat]]
    assert "bank" in names and "market" not in names and "customs_house" in names
    assert (await game_in(env, channel)).version == before.version + 1
    assert "✅" in shown.content and not shown.components  # the private choice is closed


async def test_observatory_draw_and_discard(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("o")
    players = setup_members(env, 2)
    await start_game(env, channel, players)
    cat = catalogue(2)

    def buildings(st: GameState) -> None:
        seat = st.to_move
        st.round, st.phase, st.passes = 2, 1, 0
        st.tableaux[seat] = [take_card(st, "observatory")]
        st.upper = [take_card(st, "market")]
        st.lower = []

    await rig(env, channel, players, buildings)
    board = board_message(channel)
    actor = decider_of(board, players)
    other = next(p for p in players if p is not actor)
    stacks = await actor.autocomplete(channel, "petersburg observatory", "stack", "")
    assert {c["value"] for c in stacks} == {"workers", "buildings", "aristocrats", "trading"}
    r = await actor.slash(channel, "petersburg observatory", stack="aristocrats")
    assert r.ephemeral and "Observatory" in (r.response.content if r.response else "")
    st = await state_in(env, channel)
    assert st.pending is not None and st.pending.kind == "observatory"
    drawn = st.cards[st.pending.card]
    board = board_message(channel)
    assert cat.by_id[drawn.id].name_en in (board.embeds[0].description or "")  # shown to everyone
    discard = next(c for c in controls(board) if (c.custom_id or "").split(":")[-1].startswith("discard|"))
    r = await other.click(board, custom_id=discard.custom_id)
    assert "not your turn" in (r.followups[-1].content if r.followups else "")
    await actor.click(board, custom_id=discard.custom_id)
    st = await state_in(env, channel)
    assert st.pending is None and st.cards[st.discard[-1]].id == drawn.id
    assert any(st.cards[c].id == "observatory" for c in st.face_down)


async def test_pub_after_building_scoring(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("p")
    players = setup_members(env, 2)
    await start_game(env, channel, players)

    def pubs(st: GameState) -> None:
        st.round, st.phase, st.passes = 2, 1, 0
        st.upper, st.lower = [take_card(st, "market")], []
        for s in range(st.n):
            st.tableaux[s] = [take_card(st, "pub")]
            st.rubles[s] = 30

    await rig(env, channel, players, pubs)
    for _ in range(2):  # both pass: building scoring, then the Pub decisions
        board = board_message(channel)
        pas = next(c for c in controls(board) if (c.custom_id or "").split(":")[-1].startswith("pass|"))
        await decider_of(board, players).click(board, custom_id=pas.custom_id)
    st = await state_in(env, channel)
    assert st.pending is not None and st.pending.kind == "pub"
    board = board_message(channel)
    actor = decider_of(board, players)
    pub = _select(board, "pub")
    values = [o.value for o in pub.options]
    assert values[0].endswith("|0") and len(values) == 6  # 0..5 VP
    seat = st.pending.seat
    vp, rubles = st.vp[seat], st.rubles[seat]
    await actor.select(board, [values[2]], custom_id=pub.custom_id)
    st = await state_in(env, channel)
    assert (st.vp[seat], st.rubles[seat]) == (vp + 2, rubles - 4)
    r = await actor.autocomplete(channel, "petersburg pub", "amount", "")
    assert r == []  # no longer this player's decision
