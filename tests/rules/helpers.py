"""Small builders for rules tests: games with stacked decks and hand-made tableaux."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict, Unpack

from rules import GameState, Ruleset, apply, catalogue, new_game, parse_for
from rules.state import LOWER, UPPER


class RulesetOptions(TypedDict, total=False):
    """The on/off options of a ``Ruleset`` that ``position`` passes through."""

    mandatory_first_workers: bool
    open_money: bool
    open_hands: bool


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
    st = new_game(Ruleset(edition=edition, players=players, **options), [f"P{i}" for i in range(players)], seed=seed)
    st.decks[st.ruleset.phases[0].deck].extend(st.upper)  # put the first workers back
    st.upper = []
    st.tableaux[0] = take_cards(st, tableau)
    st.upper = take_cards(st, upper)
    st.lower = take_cards(st, lower)
    st.hands[0] = take_cards(st, hand)
    st.rubles[0] = rubles
    st.round, st.phase, st.to_move, st.passes = round_, phase, 0, 0
    return st


def row(name: str) -> int:
    return LOWER if name == "lower" else UPPER


def cat2():  # type: ignore[no-untyped-def]
    return catalogue(2)
