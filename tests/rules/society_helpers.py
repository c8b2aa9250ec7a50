"""Builders for the tests of In bester Gesellschaft, SP+, Module 2 and five players without the Market."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules import GameState, Ruleset, apply, new_game, parse_for

from .helpers import take_cards

IBG = ("new_society",)
SP_PLUS = ("new_society_replacements_only",)


def ibg(players: int = 2) -> Ruleset:
    return Ruleset(edition=1, players=players, expansions=IBG)


def sp_plus(players: int = 2) -> Ruleset:
    return Ruleset(edition=1, players=players, expansions=SP_PLUS)


def module2(players: int = 2, market: bool = False) -> Ruleset:
    return Ruleset(edition=2, players=players, expansions=("market",) if market else (), modules=(2,))


def society_game(
    rs: Ruleset,
    tableaux: Mapping[int, Sequence[str]] | None = None,
    upper: Sequence[str] = ("Author",),
    lower: Sequence[str] = (),
    hand: Sequence[str] = (),
    discard: Sequence[str] = (),
    rubles: int | Sequence[int] = 25,
    phase: str = "buildings",
    round_: int = 2,
    seed: int = 1,
    start: int = 0,
) -> GameState:
    """A game of ``rs`` in ``phase`` of ``round_``, seat ``start`` holding the phase's token and to
    move, with the given cards placed (taken out of the stacks; ``discard``: bottom first). The
    default display of one Author keeps an empty display from ending the phase at once (rules-notes 3)."""
    st = new_game(rs, [f"P{i}" for i in range(rs.players)], seed=seed)
    st.decks[rs.phases[0].deck].extend(st.upper)
    st.upper = []
    for seat, names in (tableaux or {}).items():
        st.tableaux[seat] = take_cards(st, names)
    st.upper = take_cards(st, upper)
    st.lower = take_cards(st, lower)
    st.hands[0] = take_cards(st, hand)
    st.discard = take_cards(st, discard)
    st.rubles = list(rubles) if not isinstance(rubles, int) else [rubles] * rs.players
    st.vp = [0] * rs.players
    st.vp_by_source = [{} for _ in range(rs.players)]
    st.round, st.passes = round_, 0
    st.phase = [p.key for p in rs.phases].index(phase)
    st.tokens[rs.phases[st.phase].token] = start
    st.to_move = start
    return st


def end_phase(st: GameState) -> list[dict]:
    """Everybody passes: the phase's scoring runs (and may stop at a pending decision)."""
    events: list[dict] = []
    st.passes = st.n - 1
    events += apply(st, parse_for(st, "pass"))
    return events
