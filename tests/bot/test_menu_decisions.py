"""Every decision of every part through the private menu, at the fullest table (SimCord, the real bot):

- a Guild Hall split and a Trading House purchase made from the menu's selects (their custom ids are routed);
- a position with five kinds of move (2nd edition, Market, Modules 1-6, five players): the fifth kind is on
  the menu's second page and is taken from there; a page of an older board is refused as stale;
- five players joining a Market game are told their real seat count;
- a covered Guild Hall, Pub and Trading House (AMB-17(e)): no VP offered, in the menu nor by ``decide``.

The positions are written into the database as if play had reached them (``helpers.rig``).
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
import simcord
from simcord.actors import MemberActor

from bot.client import PetersburgBot
from cogs.components import DYNAMIC_ITEMS, decode
from cogs.review_items import REVIEW_ITEMS
from cogs.tournament_items import TOURNAMENT_ITEMS
from rules import GameState, apply, format_action, legal_moves, new_game

from .helpers import (
    FIVE_KINDS,
    board_message,
    bot_of,
    controls,
    decider,
    decider_of,
    game_in,
    open_menu,
    pick_parts,
    reply_of,
    rig,
    select_kind,
    setup_members,
    state_in,
    take_card,
)

EVERY_PART = ["market", "module1", "module2", "module3", "module4", "module5", "module6"]


async def _table(env: simcord.Env, n: int, parts: list[str], name: str) -> tuple[simcord.ChannelHandle,
                                                                                  list[MemberActor]]:
    """A 2nd-edition game of ``n`` members with ``parts`` chosen in the lobby, started."""
    channel = env.create_guild().create_text_channel(name)
    players = setup_members(env, n)
    assert reply_of(await pick_parts(channel, players[0], parts, edition=2)).ephemeral
    for p in players[1:]:
        await p.slash(channel, "petersburg join")
    assert (await players[0].slash(channel, "petersburg start")).acknowledged
    return channel, players


def _select(menu: Any, kind: str) -> Any:
    found = [c for c in controls(menu) if (c.custom_id or "").startswith("pb:s:") and select_kind(c.custom_id) == kind]
    assert found, (kind, [c.custom_id for c in controls(menu)])
    return found[0]


def _buildings(*cards: str, chip: str | None = None) -> Any:
    """The building phase of round 2, the player to move owning ``cards`` (the Money Collector's ``chip`` on
    one of them) and 30 rubles; the other seats nothing."""
    def change(st: GameState) -> None:
        seat = st.to_move
        st.round, st.phase, st.passes = 2, [p.key for p in st.ruleset.phases].index("buildings"), 0
        st.tokens[st.ruleset.phases[st.phase].token] = seat
        st.upper, st.lower = [take_card(st, "market")], []
        for s in range(st.n):
            st.tableaux[s] = []
            st.rubles[s] = 30
        st.tableaux[seat] = [take_card(st, c) for c in cards]
        if chip is not None:
            st.ext["banquet"]["chip"] = [next(c for c in st.tableaux[seat] if st.cards[c].id == chip), seat]
    return change


async def _everyone_passes(env: simcord.Env, channel: simcord.ChannelHandle, players: list[MemberActor]) -> None:
    """Each player passes from the menu until the building phase's scoring has run."""
    st = await state_in(env, channel)
    for _ in range(st.n):
        board = board_message(channel)
        who = decider_of(board, players)
        menu = await open_menu(who, board)
        passing = next(c for c in controls(menu) if (c.custom_id or "").startswith("pb:b:")
                       and c.custom_id.split(":")[-1].startswith("pass|"))
        await who.click(menu, custom_id=passing.custom_id)


async def test_guild_hall_split_and_trading_house_from_the_menu(env: simcord.Env) -> None:
    channel, players = await _table(env, 2, ["module2"], "guild-hall")
    await rig(env, channel, players, _buildings("guild_hall", "trading_house"))
    await _everyone_passes(env, channel, players)
    st = await state_in(env, channel)
    assert st.pending is not None and st.pending.kind == "guild_hall"
    seat = st.pending.seat
    actor = decider(channel, players)
    vp, rubles = st.vp[seat], st.rubles[seat]
    menu = await open_menu(actor, board_message(channel))
    split = _select(menu, "guild_hall")
    three = next(o for o in split.options if o.label == "Guild Hall: take 3 VP and 1 ruble")
    r = await actor.select(menu, [three.value], custom_id=split.custom_id)
    assert "✅" in reply_of(r).content
    st = await state_in(env, channel)
    assert (st.vp[seat], st.rubles[seat]) == (vp + 3, rubles + 1)
    assert st.pending is not None and st.pending.kind == "trading_house" and st.pending.seat == seat
    menu = reply_of(r)  # the next decision is the same player's: the reply is its menu
    buy = _select(menu, "trading_house")
    yes = next(o for o in buy.options if "2 VP" in o.label and "3 rubles" in o.label)
    r = await actor.select(menu, [yes.value], custom_id=buy.custom_id)
    st = await state_in(env, channel)
    assert (st.vp[seat], st.rubles[seat]) == (vp + 5, rubles - 2)


async def test_the_bot_registers_exactly_the_menus_items(env: simcord.Env) -> None:
    """The templates the tests check are the ones the running bot routes by."""
    bot = env.bot
    assert isinstance(bot, PetersburgBot)
    registered = set(bot._connection._view_store._dynamic_items.values())
    assert registered == set(DYNAMIC_ITEMS) | set(REVIEW_ITEMS) | set(TOURNAMENT_ITEMS)


async def test_five_kinds_of_move_the_fifth_on_the_second_page(env: simcord.Env) -> None:
    channel, players = await _table(env, 5, EVERY_PART, "five-kinds")
    seed, steps = FIVE_KINDS

    def five_kinds(st: GameState) -> None:
        rng = random.Random(seed)
        pos = new_game(st.ruleset, st.seats, seed=seed)
        for _ in range(steps):
            apply(pos, rng.choice(legal_moves(pos)).action)
        for f in dataclasses.fields(pos):
            if f.init:
                setattr(st, f.name, getattr(pos, f.name))

    await rig(env, channel, players, five_kinds)
    st = await state_in(env, channel)
    grabs = [m.action for m in legal_moves(st) if m.action.kind == "grabber"]
    assert len({m.action.kind for m in legal_moves(st)} - {"pass", "discard"}) == 5 and grabs
    board = board_message(channel)
    actor = decider_of(board, players)
    menu = await open_menu(actor, board)
    older = await open_menu(actor, board)  # a second menu of the same board, kept for later
    assert not [c for c in controls(menu) if (c.custom_id or "").startswith("pb:s:")
                and select_kind(c.custom_id) == "grabber"]  # four selects on the first page
    pages = [c for c in controls(menu) if (c.custom_id or "").startswith("pb:p:")]
    assert pages, "the menu offers no way to the Grabber"
    more = pages[0]
    assert "Grabber" in more.label and "(2/2)" in more.label
    r = await actor.click(menu, custom_id=more.custom_id)
    page = reply_of(r)
    assert page.ephemeral and page.id == menu.id  # the same private menu, turned
    grabber = _select(page, "grabber")
    back = next(c for c in controls(page) if (c.custom_id or "").startswith("pb:p:"))
    assert "(1/2)" in back.label
    game = await game_in(env, channel)
    r = await actor.select(page, [grabber.options[0].value], custom_id=grabber.custom_id)
    assert "✅" in reply_of(r).content
    rows = await bot_of(env).store.actions(game.id)  # type: ignore[union-attr]
    chosen = decode(grabber.options[0].value)
    assert chosen in grabs and rows[-1].notation == format_action(chosen, st.ruleset.catalogue, seats=st.seats)
    # the page button of a menu of the older board: refused as stale, nothing changes
    after = await game_in(env, channel)
    r = await actor.click(older, custom_id=more.custom_id)
    assert "out of date" in reply_of(r).content
    assert (await game_in(env, channel)).version == after.version


async def test_five_players_join_and_see_five_seats(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("five")
    host, *others = setup_members(env, 5)
    await pick_parts(channel, host, ["market"], edition=2)
    said = []
    for n, p in enumerate(others):
        if n % 2:
            said.append(reply_of(await p.slash(channel, "petersburg join")).content)
        else:
            lobby = next(m for m in reversed(channel.history()) if any((c.custom_id or "").startswith("pb:l:")
                                                                       for c in controls(m)))
            said.append(reply_of(await p.click(lobby, custom_id=f"pb:l:{(await game_in(env, channel)).id}:join"))
                        .content)
    assert said == [f"You joined ({n}/5 players)." for n in (2, 3, 4, 5)]


@pytest.mark.parametrize("card", ["guild_hall", "pub", "trading_house"])
async def test_covered_card_offers_no_vp(env: simcord.Env, card: str) -> None:
    channel, players = await _table(env, 2, ["module1", "module2"], f"covered-{card}")
    await rig(env, channel, players, _buildings(card, chip=card))
    st = await state_in(env, channel)
    seat = st.to_move
    game = await game_in(env, channel)
    owner = next(p for p in players if p.id == game.user_at(seat))
    await _everyone_passes(env, channel, players)
    st = await state_in(env, channel)
    assert st.vp[seat] == 0
    if card != "guild_hall":  # nothing to decide: no purchase
        assert st.pending is None or st.pending.seat != seat
        assert await owner.autocomplete(channel, "petersburg decide", "choice", "") == []
        return
    assert st.pending is not None and st.pending.kind == "guild_hall" and st.pending.seat == seat
    offered = await owner.autocomplete(channel, "petersburg decide", "choice", "")
    assert [c["value"].split(" ", 1)[1] for c in offered] == ["guild_hall 0 VP"]
    menu = await open_menu(owner, board_message(channel))
    split = _select(menu, "guild_hall")
    assert [o.label for o in split.options] == ["Guild Hall: take 0 VP and 4 rubles"]
    assert split.placeholder == "Guild Hall under the Money Collector's chip: no VP, its 4 rubles…"
    rubles = st.rubles[seat]
    await owner.select(menu, [split.options[0].value], custom_id=split.custom_id)
    st = await state_in(env, channel)
    assert (st.vp[seat], st.rubles[seat]) == (0, rubles + 4)
