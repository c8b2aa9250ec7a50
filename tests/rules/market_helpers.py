"""Builders for Market tests: games with the Market and hand-made tableaux, specific roundels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules import GameState, Ruleset, new_game
from rules.expansions.market import positions

from .helpers import take_cards


def market_rules(players: int = 2) -> Ruleset:
    return Ruleset(edition=2, players=players, expansions=("market",))


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


def market_game(
    players: int = 2,
    tableaux: Mapping[int, Sequence[str]] | None = None,
    upper: Sequence[str] = (),
    lower: Sequence[str] = (),
    hand: Sequence[str] = (),
    rubles: int = 25,
    phase: str = "market",
    round_: int = 2,
    seed: int = 1,
) -> GameState:
    """A Market game in ``phase`` of ``round_`` (tile of that round), seat 0 to move, cards placed.
    With no display given, one Author lies in the upper row, so that the phase ends only when all
    have passed (an empty display ends it at once, rules-notes 3)."""
    if not upper and not lower:
        upper = ("Author",)
    rs = market_rules(players)
    st = new_game(rs, [f"P{i}" for i in range(players)], seed=seed)
    st.decks["workers"].extend(st.upper)
    st.upper = []
    for seat, names in (tableaux or {}).items():
        st.tableaux[seat] = take_cards(st, names)
    st.upper = take_cards(st, upper)
    st.lower = take_cards(st, lower)
    st.hands[0] = take_cards(st, hand)
    st.rubles = [rubles] * players
    st.round, st.to_move, st.passes = round_, 0, 0
    st.phase = [p.key for p in rs.phases].index(phase)
    st.ext["market"]["tile"] = min(round_ - 1, 5)
    return st


def pos(st: GameState, seat: int, good: str) -> int:
    return positions(st, seat)[good]


MARKET_KINDS = ("as", "confirm", "release")
MARKET_SCORE_EVENTS = ("crate_confirmed", "marketplace")  # rubles paid, VP gained


def fresh_positions(st: GameState, seat: int) -> dict[str, int]:
    """MK-21, independently of the engine: symbols per good on the seat's tableau."""
    cat = st.ruleset.catalogue
    out = dict.fromkeys(("chicken", "grain", "apple", "fish", "cabbage"), 0)
    for c in st.tableaux[seat]:
        roundel = cat.markets[c]
        if roundel == "?":
            owned = [g for g, card in st.ext["market"]["goods"].items() if card == c]
            for g in owned:
                out[g] += 1
        elif roundel is not None:
            out[roundel] += cat.cards[c].market_count
    return out


def assert_market_invariants(st: GameState) -> None:
    """X-10: positions equal a fresh count; each good token on at most one card, a "?" card in a
    tableau; crates never on the discard pile (AMB-03); the tile in range."""
    m = st.ext["market"]
    for s in range(st.n):
        assert positions(st, s) == fresh_positions(st, s)
    holders = list(m["goods"].values())
    assert len(holders) == len(set(holders)), m["goods"]
    in_tableaux = {c for t in st.tableaux for c in t}
    for c in holders:
        assert c in in_tableaux and st.ruleset.catalogue.markets[c] == "?", c
    assert not any(st.cards[c].ability == "crate" for c in st.discard)
    assert 0 <= m["tile"] < 6
