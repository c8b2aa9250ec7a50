"""Builders for rules tests, one set for every part of the game: games with stacked decks and
hand-made tableaux (``build_game``), and the rulesets and positions each part's tests start from
(the base game, the Market, the Banquet, In bester Gesellschaft / SP+ / Module 2, Modules 3 to 6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict, Unpack

from rules import GameState, Ruleset, apply, catalogue, new_game, parse_for
from rules.expansions.market import positions
from rules.state import LOWER, UPPER

MARKET_KINDS = ("as", "confirm", "release")
MARKET_SCORE_EVENTS = ("crate_confirmed", "marketplace")  # rubles paid, VP gained
IBG = ("new_society",)
SP_PLUS = ("new_society_replacements_only",)
# M6-01's layout with chosen obstacles: real ones at 20 and 35, bonus ones at 10, 50, 70
LAYOUT = {10: "bonus_aristocrats", 20: "real_workers", 35: "real_buildings", 50: "bonus_card", 70: "bonus_trading"}


class RulesetOptions(TypedDict, total=False):
    """The on/off options of a ``Ruleset`` that ``position`` passes through."""

    mandatory_first_workers: bool
    open_money: bool
    open_hands: bool


class Placing(TypedDict, total=False):
    """What ``build_game`` places besides the ruleset and the tableaux (its keyword arguments)."""

    hands: Mapping[int, Sequence[str]] | None
    upper: Sequence[str]
    lower: Sequence[str]
    hand: Sequence[str]
    discard: Sequence[str]
    rubles: int | Sequence[int] | None
    phase: str | int
    round_: int
    seed: int
    start: int | None
    author: bool
    given: Mapping[str, Any] | None
    tokens: dict[str, int] | None


class Placement(Placing, total=False):
    """What ``build_game`` places besides the ruleset, for the parts' builders."""

    tableaux: Mapping[int, Sequence[str]] | None


def play(st: GameState, *texts: str) -> list[dict]:
    """Apply actions written in the record notation; returns all events."""
    events: list[dict] = []
    for text in texts:
        events.extend(apply(st, parse_for(st, text)))
    return events


def take_cards(st: GameState, names: Sequence[str]) -> list[int]:
    """Pull physical cards of the given names out of the stacks (for building test positions)."""
    cat = st.ruleset.catalogue
    out = []
    for name in names:
        t = cat.lookup(name)
        assert t is not None, name
        for deck in st.decks.values():
            c = next((c for c in deck if cat.cards[c] is t), None)
            if c is not None:
                deck.remove(c)
                out.append(c)
                break
        else:
            raise AssertionError(f"no {name} left in the stacks")
    return out


def take_roundel(st: GameState, name: str, roundel: str) -> int:
    """Pull the physical card ``name`` with market roundel ``roundel`` out of the stacks."""
    cat = st.ruleset.catalogue
    t = cat.lookup(name)
    for deck in st.decks.values():
        for c in deck:
            if cat.cards[c] is t and cat.markets[c] == roundel:
                deck.remove(c)
                return c
    raise AssertionError(f"no {name} [{roundel}] left")


def seats(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def build_game(
    rs: Ruleset,
    *,
    tableaux: Mapping[int, Sequence[str]] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    upper: Sequence[str] = (),
    lower: Sequence[str] = (),
    hand: Sequence[str] = (),
    discard: Sequence[str] = (),
    rubles: int | Sequence[int] | None = 25,
    phase: str | int = "buildings",
    round_: int = 2,
    seed: int = 1,
    start: int | None = None,
    author: bool = True,
    given: Mapping[str, Any] | None = None,
    tokens: dict[str, int] | None = None,
) -> GameState:
    """A game of ``rs`` in ``phase`` (its key or index) of ``round_`` with the given cards placed, taken
    out of the stacks (``hands``/``hand``: seat 0's; ``discard``: bottom first). Seat 0 is to move, or
    ``start``, which then holds the phase's token. ``rubles``: every seat's (None: as dealt). With
    ``author`` and no display given, one Author lies in the upper row, so that the phase does not end at
    once (an empty display ends it, BG-03). With the Market, the tile is that of the round."""
    st = new_game(rs, seats(rs.players), seed=seed, given=given, tokens=tokens)
    st.decks[rs.phases[0].deck].extend(st.upper)  # put the first workers back
    st.upper = []
    if author and not upper and not lower:
        upper = ("Author",)
    for seat, names in (tableaux or {}).items():
        st.tableaux[seat] = take_cards(st, names)
    for seat, names in (hands or {}).items():
        st.hands[seat] = take_cards(st, names)
    st.upper = take_cards(st, upper)
    st.lower = take_cards(st, lower)
    if hand:
        st.hands[0] = take_cards(st, hand)
    if discard:
        st.discard = take_cards(st, discard)
    if rubles is not None:
        st.rubles = [rubles] * rs.players if isinstance(rubles, int) else list(rubles)
    st.round, st.passes = round_, 0
    st.phase = phase if isinstance(phase, int) else [p.key for p in rs.phases].index(phase)
    st.to_move = start or 0
    if start is not None:
        st.tokens[rs.phases[st.phase].token] = start
    if "market" in st.ext:
        st.ext["market"]["tile"] = min(round_ - 1, 5)
    return st


# --- the base game -------------------------------------------------------------------------------
def position(
    edition: int = 2,
    players: int = 2,
    tableau: Sequence[str] = (),
    upper: Sequence[str] = (),
    lower: Sequence[str] = (),
    hand: Sequence[str] = (),
    rubles: int = 25,
    phase: int = 1,
    round_: int = 2,
    seed: int = 1,
    **options: Unpack[RulesetOptions],
) -> GameState:
    """A game in ``phase`` of ``round_`` with seat 0 to move and the given cards placed."""
    st = build_game(Ruleset(edition=edition, players=players, **options), tableaux={0: tableau}, upper=upper,
                    lower=lower, hand=hand, rubles=None, phase=phase, round_=round_, seed=seed, author=False)
    st.rubles[0] = rubles
    return st


def row(name: str) -> int:
    return LOWER if name == "lower" else UPPER


def cat2():  # type: ignore[no-untyped-def]
    return catalogue(2)


# --- the Market ----------------------------------------------------------------------------------
def market_rules(players: int = 2) -> Ruleset:
    return Ruleset(edition=2, players=players, expansions=("market",))


def market_game(players: int = 2, **placed: Unpack[Placement]) -> GameState:
    """A Market game in ``phase`` (the market phase by default) of ``round_`` (tile of that round), seat 0
    to move, cards placed (``build_game``)."""
    placed.setdefault("phase", "market")
    return build_game(market_rules(players), **placed)


def pos(st: GameState, seat: int, good: str) -> int:
    return positions(st, seat)[good]


# --- the Banquet (Module 1, the 1st-edition Banquet; BQ) -----------------------------
def banquet_rules(edition: int = 2, players: int = 2, market: bool = False) -> Ruleset:
    return Ruleset(edition=edition, players=players, expansions=("market",) if market else (), modules=(1,))


def bq_game(edition: int = 2, players: int = 2, market: bool = False, **placed: Unpack[Placement]) -> GameState:
    """A Banquet game in ``phase`` of ``round_``, seat 0 to move, the given cards placed (``build_game``)."""
    return build_game(banquet_rules(edition, players, market), **placed)


def names(st: GameState, cards: Sequence[int]) -> list[str]:
    return [st.cards[c].id for c in cards]


# --- In bester Gesellschaft, SP+, Module 2 and five players without the Market ---------------------
def ibg(players: int = 2) -> Ruleset:
    return Ruleset(edition=1, players=players, expansions=IBG)


def sp_plus(players: int = 2) -> Ruleset:
    return Ruleset(edition=1, players=players, expansions=SP_PLUS)


def module2(players: int = 2, market: bool = False) -> Ruleset:
    return Ruleset(edition=2, players=players, expansions=("market",) if market else (), modules=(2,))


def society_game(rs: Ruleset, tableaux: Mapping[int, Sequence[str]] | None = None,
                 **placed: Unpack[Placing]) -> GameState:
    """A game of ``rs`` in ``phase`` of ``round_``, seat ``start`` (0 by default) holding the phase's token
    and to move, no VP yet, with the given cards placed (by default one Author in the upper row)."""
    placed.setdefault("upper", ("Author",))
    placed.setdefault("start", 0)
    placed["author"] = False
    st = build_game(rs, tableaux=tableaux, **placed)
    st.vp = [0] * rs.players
    st.vp_by_source = [{} for _ in range(rs.players)]
    return st


def end_phase(st: GameState) -> list[dict]:
    """Everybody passes: the phase's scoring runs (and may stop at a pending decision)."""
    st.passes = st.n - 1
    return play(st, "pass")


# --- Modules 3 and 5 (assistants, assignments) ------------------------------------------------------
def module_rules(players: int = 4, modules: tuple[int, ...] = (3, 5), **options: Any) -> Ruleset:
    return Ruleset(edition=2, players=players, expansions=("market",), modules=modules, **options)


def module_game(players: int = 4, modules: tuple[int, ...] = (3, 5), *, open_money: bool = True,
                **placed: Unpack[Placement]) -> GameState:
    """A game with the Market and ``modules`` in ``phase`` of ``round_``, seat 0 to move, cards placed."""
    return build_game(module_rules(players, modules, open_money=open_money), **placed)


# --- Modules 4 (events) and 6 (obstacles) ----------------------------------------------------------
def mod_rules(modules: Sequence[int] = (6,), players: int = 2) -> Ruleset:
    return Ruleset(edition=2, players=players, expansions=("market",), modules=tuple(modules))


def mod_game(modules: Sequence[int] = (6,), players: int = 2, obstacles: Mapping[int, str] | None = None,
             vp: Sequence[int] | None = None, **placed: Unpack[Placement]) -> GameState:
    """A game with the Market and ``modules`` in ``phase`` (trading by default) of ``round_``, seat 0 to
    move, cards placed, the chosen obstacles (``LAYOUT`` by default) and the VP markers at ``vp``."""
    rs = mod_rules(modules, players)
    layout = dict(obstacles or LAYOUT)
    placed.setdefault("phase", "trading")
    placed["given"] = {"obstacles": layout} if 6 in modules else {}
    st = build_game(rs, **placed)
    if 4 in modules:  # the display laid out left to right
        from rules.expansions.module4 import assign, m4

        m4(st)["upper_slots"] = [-1] * rs.display_size
        m4(st)["lower_slots"] = [-1] * rs.display_size
        assign(st)
    for seat, v in enumerate(vp or ()):
        st.vp[seat] = v
        st.vp_by_source[seat] = {"start": v} if v else {}
        if 6 in modules:  # the obstacles below the marker are behind him
            st.ext["module6"]["passed"][seat] = [f for f in sorted(layout) if f <= v]
    return st
