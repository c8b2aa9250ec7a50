"""Builders and invariants for Banquet tests (Module 1, the 1st-edition Banquet; expansions.md BQ)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules import GameState, Ruleset, new_game

from .helpers import take_cards


def banquet_rules(edition: int = 2, players: int = 2, market: bool = False) -> Ruleset:
    return Ruleset(edition=edition, players=players, expansions=("market",) if market else (), modules=(1,))


def bq_game(
    edition: int = 2,
    players: int = 2,
    market: bool = False,
    tableaux: Mapping[int, Sequence[str]] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    upper: Sequence[str] = (),
    lower: Sequence[str] = (),
    discard: Sequence[str] = (),
    rubles: int = 25,
    phase: str = "buildings",
    round_: int = 2,
    seed: int = 1,
) -> GameState:
    """A Banquet game in ``phase`` of ``round_``, seat 0 to move, the given cards placed (names are
    taken out of the stacks). With no display given, one Author lies in the upper row, so that the
    phase does not end at once."""
    if not upper and not lower:
        upper = ("Author",)
    st = new_game(banquet_rules(edition, players, market), [f"P{i}" for i in range(players)], seed=seed)
    st.decks["workers"].extend(st.upper)
    st.upper = []
    for seat, names in (tableaux or {}).items():
        st.tableaux[seat] = take_cards(st, names)
    for seat, names in (hands or {}).items():
        st.hands[seat] = take_cards(st, names)
    st.upper = take_cards(st, upper)
    st.lower = take_cards(st, lower)
    st.discard = take_cards(st, discard)
    st.rubles = [rubles] * players
    st.round, st.to_move, st.passes = round_, 0, 0
    st.phase = [p.key for p in st.ruleset.phases].index(phase)
    if market:
        st.ext["market"]["tile"] = min(round_ - 1, 5)
    return st


def names(st: GameState, cards: Sequence[int]) -> list[str]:
    return [st.cards[c].id for c in cards]


def assert_banquet_invariants(st: GameState) -> None:
    """BQ-03, BQ-06, BQ-16..18, BQ-11: purple cards are never laid out; the box holds only purple
    cards; attachments are a Jester or a Banquet; the chip lies on a card of its seat's tableau (or
    has just lost it to a released crate); a Double Turn in progress has a decision open."""
    b = st.ext["banquet"]
    cards = st.cards
    assert all(cards[c].colour != "purple" for t in st.tableaux for c in t), "a purple card was laid out"
    assert all(cards[c].colour == "purple" for c in b["box"])
    for a, c, seat in b["attached"]:
        assert cards[a].ability in ("jester", "banquet")
        assert cards[c].colour != "purple" and 0 <= seat < st.n
    if b["chip"] is not None:
        assert cards[b["chip"][0]].colour != "purple"
    assert b["double"] >= 0
    if b["double"]:
        assert st.pending is not None
