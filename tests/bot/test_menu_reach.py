"""Every decision of every part through the private menu: for random positions of every allowed ruleset, the
"Your move" menu and each of its follow-ups (its other pages, a trading card's targets) offer every legal move
and nothing else, every component's custom id is routed by exactly one of the bot's own ``DynamicItem``
templates the way discord.py routes it (``fullmatch``, then ``from_custom_id`` rebuilding an item of the same
type and id), and every label, placeholder, option and row is within Discord's limits."""

from __future__ import annotations

import random
import re
from typing import Any

import discord

from cogs.components import DYNAMIC_ITEMS, GROUP, ActionButton, ActionSelect, PageButton, decode
from cogs.menus import menu_pages, move_view, target_moves, target_view
from cogs.review_items import REVIEW_ITEMS
from rules import Action, GameState, Ruleset, apply, legal_moves, new_game

from .helpers import FIVE_KINDS
from .test_move_words import NAMES, allowed_rulesets

GAME, VERSION = 123456789012, 4321  # long ids, as a real game's: the custom ids must fit all the same
# Discord's limits for message components
ROWS, BUTTONS_IN_ROW, OPTIONS, CUSTOM_ID, LABEL, BUTTON_LABEL, PLACEHOLDER, VALUE = 5, 5, 25, 100, 100, 80, 150, 100
EVERY_PART = Ruleset(edition=2, players=5, expansions=("market",), modules=(1, 2, 3, 4, 5, 6))
SAMPLE = 6  # one position in SAMPLE of each ruleset's random game is checked (positions with a decision always)


def _route(component: dict[str, Any]) -> type[discord.ui.DynamicItem[Any]]:
    """The one registered DynamicItem that discord.py hands this component's interaction to."""
    cid = component["custom_id"]
    routed = [cls for cls in (*DYNAMIC_ITEMS, *REVIEW_ITEMS) if cls.__discord_ui_compiled_template__.fullmatch(cid)]
    assert len(routed) == 1, f"custom id {cid!r} is routed to {[c.__name__ for c in routed]}"
    return routed[0]


async def _rebuilt(cls: type[discord.ui.DynamicItem[Any]], component: dict[str, Any]) -> Any:
    """What discord.py builds on a click: ``from_custom_id`` with the template's match; it must carry the same
    custom id and be the same kind of component (it is swapped in for the clicked one)."""
    cid = component["custom_id"]
    match = cls.__discord_ui_compiled_template__.fullmatch(cid)
    assert match is not None
    item = await cls.from_custom_id(None, None, match)  # type: ignore[arg-type]
    assert item.item.custom_id == cid
    assert item.item.type.value == component["type"], (cid, item.item.type)
    return item


def _check_limits(payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Discord's limits on a message's components; returns the components."""
    assert 1 <= len(payload) <= ROWS, len(payload)
    out = []
    ids: set[str] = set()
    for row in payload:
        assert row["type"] == 1
        children = row["components"]
        selects = [c for c in children if c["type"] == 3]
        assert len(children) <= (1 if selects else BUTTONS_IN_ROW), row
        for c in children:
            cid = c["custom_id"]
            assert 1 <= len(cid) <= CUSTOM_ID and cid not in ids, cid
            ids.add(cid)
            if c["type"] == 3:
                options = c["options"]
                assert 1 <= len(options) <= OPTIONS, (cid, len(options))
                assert len({o["value"] for o in options}) == len(options), cid
                assert len(c.get("placeholder") or "") <= PLACEHOLDER, c.get("placeholder")
                for o in options:
                    assert 1 <= len(o["label"]) <= LABEL and 1 <= len(o["value"]) <= VALUE, o
                    assert len(o.get("description") or "") <= LABEL, o
            else:
                assert 1 <= len(c.get("label") or "") <= BUTTON_LABEL, c
            out.append(c)
    return out


async def _reachable(st: GameState, lang: str) -> set[Action]:
    """Every action the private menu and its follow-ups lead to, checking each message on the way."""
    reached: set[Action] = set()
    ed = st.ruleset.edition
    messages = [move_view(GAME, VERSION, st, lang)]
    pages = {0}
    while messages:
        view = messages.pop()
        for component in _check_limits(view.to_components()):
            cls = _route(component)
            item = await _rebuilt(cls, component)
            if isinstance(item, ActionSelect):
                for o in component["options"]:
                    if o["value"].startswith(GROUP):
                        moves = target_moves(st, o["value"])
                        assert len(moves) > 1, o
                        messages.append(target_view(GAME, VERSION, moves, ed, lang))
                    else:
                        reached.add(decode(o["value"]))
            elif isinstance(item, ActionButton):
                reached.add(decode(item.value))
            elif isinstance(item, PageButton):  # what ``cogs.play`` shows for it: the menu's other page
                assert (item.game_id, item.version) == (GAME, VERSION)
                if item.page not in pages:
                    pages.add(item.page)
                    messages.append(move_view(GAME, VERSION, st, lang, item.page))
            else:
                raise AssertionError(f"the private menu holds a {cls.__name__}")
    return reached


async def _check(st: GameState, lang: str) -> None:
    legal = {m.action for m in legal_moves(st)}
    reached = await _reachable(st, lang)
    assert reached == legal, {"missing": legal - reached, "not legal": reached - legal}


def _position(rs: Ruleset, seed: int, steps: int) -> GameState:
    rng = random.Random(seed)
    st = new_game(rs, NAMES[: rs.players], seed=seed)
    for _ in range(steps):
        apply(st, rng.choice(legal_moves(st)).action)
    return st


async def test_five_kinds_of_move_all_reachable() -> None:
    """A fifth kind of move (here the Grabber) is in the menu too."""
    st = _position(EVERY_PART, *FIVE_KINDS)
    kinds = {m.action.kind for m in legal_moves(st)} - {"pass", "discard"}
    assert len(kinds) >= 5, kinds
    for lang in ("en", "de"):
        await _check(st, lang)


async def test_every_position_with_pages_in_thirty_games_at_the_fullest_table() -> None:
    """2nd edition, Market, Modules 1-6, five players: every position of 30 random games whose menu needs more
    than one page is checked whole (five such positions in these games, by the scan that found FIVE_KINDS)."""
    paged = 0
    for seed in range(30):
        rng = random.Random(seed)
        st = new_game(EVERY_PART, NAMES[:5], seed=seed)
        while not st.finished:
            moves = legal_moves(st)
            if len(menu_pages(moves)[1]) > 1:
                await _check(st, ("en", "de")[paged % 2])
                paged += 1
            apply(st, rng.choice(moves).action)
    assert paged >= 5, paged


async def test_guild_hall_and_trading_house_ids_are_routed() -> None:
    """``pb:s:GAME:VERSION:guild_hall0`` matches a template (or discord.py would drop the click)."""
    rs = Ruleset(edition=2, players=3, modules=(2,))
    for kind in ("guild_hall", "trading_house"):
        seed = 0
        while True:  # the first random game reaching this decision
            rng = random.Random(seed)
            st = new_game(rs, NAMES[:3], seed=seed)
            while not st.finished and not (st.pending is not None and st.pending.kind == kind):
                apply(st, rng.choice(legal_moves(st)).action)
            if not st.finished:
                break
            seed += 1
        await _check(st, "en")


async def test_every_legal_move_of_every_ruleset_reachable_from_the_menu() -> None:
    rulesets = list(allowed_rulesets())
    menus = 0
    for i, rs in enumerate(rulesets):
        rng = random.Random(i)
        pick = random.Random(-i)
        st = new_game(rs, NAMES[: rs.players], seed=i)
        lang = ("en", "de")[i % 2]
        while not st.finished:
            if st.pending is not None or pick.randrange(SAMPLE) == 0:
                await _check(st, lang)
                menus += 1
            apply(st, rng.choice(legal_moves(st)).action)
    assert menus > 10_000, menus


def test_templates_are_distinct() -> None:
    """No two registered templates are the same pattern (discord.py keys them by pattern)."""
    patterns = [cls.__discord_ui_compiled_template__.pattern for cls in (*DYNAMIC_ITEMS, *REVIEW_ITEMS)]
    assert len(set(patterns)) == len(patterns)
    assert all(isinstance(cls.__discord_ui_compiled_template__, re.Pattern) for cls in DYNAMIC_ITEMS)


async def test_menus_sent_before_the_slot_naming_still_route() -> None:
    """A private menu still open when the bot was upgraded (``buy0``, ``guild_hall0``) reaches ActionSelect."""
    for cid in ("pb:s:12:34:buy0", "pb:s:12:34:guild_hall0", "pb:s:12:34:target1"):
        component = {"custom_id": cid, "type": discord.ComponentType.select.value}
        assert _route(component) is ActionSelect
        assert (await _rebuilt(ActionSelect, component)).slot == cid.rsplit(":", 1)[1]
