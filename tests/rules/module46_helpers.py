"""Builders for the tests of Modules 4 (events) and 6 (obstacles): Market games with those modules,
hand-made tableaux, a chosen VP position and chosen obstacles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules import GameState, Ruleset, new_game

from .helpers import take_cards

# M6-01's layout with chosen obstacles: real ones at 20 and 35, bonus ones at 10, 50, 70
LAYOUT = {10: "bonus_aristocrats", 20: "real_workers", 35: "real_buildings", 50: "bonus_card", 70: "bonus_trading"}


def mod_rules(modules: Sequence[int] = (6,), players: int = 2) -> Ruleset:
    return Ruleset(edition=2, players=players, expansions=("market",), modules=tuple(modules))


def mod_game(
    modules: Sequence[int] = (6,),
    players: int = 2,
    tableaux: Mapping[int, Sequence[str]] | None = None,
    upper: Sequence[str] = (),
    lower: Sequence[str] = (),
    hand: Sequence[str] = (),
    rubles: int = 25,
    phase: str = "trading",
    round_: int = 2,
    seed: int = 1,
    obstacles: Mapping[int, str] | None = None,
    vp: Sequence[int] | None = None,
) -> GameState:
    """A game with the Market and ``modules`` in ``phase`` of ``round_``, seat 0 to move, cards placed,
    the VP markers at ``vp``. With no display given, one Author lies in the upper row."""
    rs = mod_rules(modules, players)
    given = {"obstacles": dict(obstacles or LAYOUT)} if 6 in modules else {}
    st = new_game(rs, [f"P{i}" for i in range(players)], seed=seed, given=given)
    st.decks["workers"].extend(st.upper)
    st.upper = []
    if not upper and not lower:
        upper = ("Author",)
    for seat, names in (tableaux or {}).items():
        st.tableaux[seat] = take_cards(st, names)
    st.upper = take_cards(st, upper)
    st.lower = take_cards(st, lower)
    st.hands[0] = take_cards(st, hand)
    st.rubles = [rubles] * players
    st.round, st.to_move, st.passes = round_, 0, 0
    st.phase = [p.key for p in rs.phases].index(phase)
    st.ext["market"]["tile"] = min(round_ - 1, 5)
    if 4 in modules:  # the display laid out left to right
        from rules.expansions.module4 import assign, m4

        m4(st)["upper_slots"] = [-1] * rs.display_size
        m4(st)["lower_slots"] = [-1] * rs.display_size
        assign(st)
    for s, v in enumerate(vp or ()):
        st.vp[s] = v
        st.vp_by_source[s] = {"start": v} if v else {}
        if 6 in modules:  # the obstacles below the marker are behind him
            st.ext["module6"]["passed"][s] = [f for f in sorted(given["obstacles"]) if f <= v]
    return st
