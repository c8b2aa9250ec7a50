"""Whether an action brought hidden information to light (Board Game Arena's take-back policy).

A player may take back their own last action only while nothing hidden came to light by it or after it:
what was hidden stays known to everyone once seen, so such an action stands. The base game knows two
kinds: a card drawn from a stack (a phase's deal at its start, the Observatory's card, any card an
expansion turns up from a stack) and the end of the game (the final scoring shows every seat's money and
hand). Expansions that turn up more say so through ``Hooks.reveals``; the core names none of them.

Every random draw of a game happens at its setup (``rules.flow.new_game``), so the state before an action
is rebuilt exactly from the ruleset, the seed and the actions that stand (``rules.record``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .engine import apply
from .errors import RuleError
from .record import GameRecord, ReplayError, parse_for
from .state import GameState

Event = dict[str, Any]


def drawn(before: GameState, after: GameState) -> bool:
    """A card left a stack (dealt to the display, drawn with the Observatory, turned up by an expansion)."""
    return any(len(after.decks.get(deck, ())) < len(cards) for deck, cards in before.decks.items())


def revealed(before: GameState, after: GameState, events: list[Event]) -> bool:
    """Whether anything hidden came to light between ``before`` and ``after`` (one action with what it set
    off: scoring, a phase's end and the next phase's deal), ``events`` being what it caused."""
    if drawn(before, after):
        return True
    if after.finished and not before.finished:
        return True
    return any(reveals(before, after, events) for reveals in after.ruleset.hooks.reveals)


class Rebuilt(NamedTuple):
    """``rebuilt``'s answer: the state before the action, whether it or any after it brought something hidden
    to light, and the state after all of them (None when something came to light: the replay stops there)."""

    before: GameState
    revealed: bool
    after: GameState | None


def rebuilt(record: GameRecord, start: int) -> Rebuilt:
    """The state before the record's action ``start`` (rebuilt from the ruleset, the seed and the actions
    before it), and whether that action or any after it in the record brought something hidden to light.
    Raises ``rules.ReplayError`` when an action does not apply (a record that is not the game's)."""
    st = record.start()
    texts = record.actions
    for i, text in enumerate(texts[:start]):
        _apply(st, i, text)
    before = st.copy()
    for i in range(start, len(texts)):
        prior = st.copy()
        events = _apply(st, i, texts[i])
        if revealed(prior, st, events):
            return Rebuilt(before, True, None)
    return Rebuilt(before, False, st)


def _apply(st: GameState, index: int, text: str) -> list[Event]:
    try:
        return apply(st, parse_for(st, text))
    except RuleError as e:
        raise ReplayError(index, text, e, st) from None
