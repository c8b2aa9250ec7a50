"""Builders for the tests of Modules 3 and 5: Market games with the modules and hand-made positions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import GameState, Ruleset, new_game

from .helpers import take_cards


def module_rules(players: int = 4, modules: tuple[int, ...] = (3, 5), **options: Any) -> Ruleset:
    return Ruleset(edition=2, players=players, expansions=("market",), modules=modules, **options)


def module_game(
    players: int = 4,
    modules: tuple[int, ...] = (3, 5),
    tableaux: Mapping[int, Sequence[str]] | None = None,
    upper: Sequence[str] = (),
    lower: Sequence[str] = (),
    hand: Sequence[str] = (),
    rubles: int = 25,
    phase: str = "buildings",
    round_: int = 2,
    seed: int = 1,
    given: Mapping[str, Any] | None = None,
    tokens: dict[str, int] | None = None,
    **options: Any,
) -> GameState:
    """A game with the Market and ``modules`` in ``phase`` of ``round_``, seat 0 to move, cards placed
    (one Author in the upper row when no display is given, so the phase does not end at once)."""
    if not upper and not lower:
        upper = ("Author",)
    rs = module_rules(players, modules, **options)
    st = new_game(rs, [f"P{i}" for i in range(players)], seed=seed, given=given, tokens=tokens)
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


def seats(n: int) -> list[str]:
    return [f"P{i}" for i in range(n)]


def assert_module_invariants(st: GameState) -> None:
    """M3-03: one assistant per seat, those of the player count; M5-01: three different assignments
    per seat, none twice, all in play; one chosen only at the end, from the seat's three."""
    from rules.expansions import assignments, assistants

    if "module3" in st.ext:
        held = assistants.holders(st)
        assert set(held) == set(assistants.in_play(st.n)) and sorted(held.values()) == list(range(st.n))
    if "module5" in st.ext:
        m = assignments.mstate(st)
        flat = [a for ids in m["dealt"] for a in ids]
        assert len(flat) == len(set(flat)) == 3 * st.n and set(flat) <= set(assignments.in_play(st.n))
        for seat, chosen in enumerate(m["chosen"]):
            choosing = st.pending is not None and st.pending.kind == "assignment"
            assert chosen == 0 or (chosen in m["dealt"][seat] and (choosing or st.finished))
