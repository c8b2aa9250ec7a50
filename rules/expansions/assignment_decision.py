"""Module 5's decision at the final scoring (M5-02, X-07) and its notation (X-09)::

    assignment 6        the assignment a player scores, one of his three

At the end of the game, before the final scoring, each player in turn from the Hammer holder chooses
one of his three assignments (M5-02: "Am Ende des Spiels sucht sich der Spieler 1 der 3
Auftragskarten aus"); a choice is logged without naming it (M5-19: hidden until the end). No
assignment's value depends on the aristocrats' VP of step 1, so the choice is the same as within
it. The chosen ones are scored as step 2 of the final scoring (X-06, M5-18), Assignment 6 first
(M5-08); all final VP are thus gained in the one action that ends the game.
"""

from __future__ import annotations

from typing import Any, Final

from ..actions import Action, Move
from ..cards import Catalogue
from ..errors import NotationError, RuleError
from ..hooks import Checked, Decision, Event, Events, Notation
from ..scoring import gain_vp, resume_final
from ..state import GameState, Pending
from .assignments import MOST_RUBLES, best, dealt, mstate, value

KIND: Final = "assignment"


class AssignmentDecision(Decision):
    """M5-02: one of the seat's three assignments; absent player: the highest value (X-07)."""

    kind = KIND

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return [Move(Action(KIND, amount=aid), 0) for aid in dealt(st, p.seat)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        if action.kind != KIND or action.card or action.row != -1 or action.target or action.good:
            raise RuleError("wrong_decision", pending=KIND)
        ids = dealt(st, p.seat)
        if action.amount not in ids:
            raise RuleError("not_your_assignment", assignment=action.amount, own=", ".join(map(str, ids)))
        return -1, -1, 0

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        mstate(st)["chosen"][p.seat] = action.amount
        events: list[Event] = [{"type": "assignment_chosen", "seat": p.seat}]
        if not open_next(st, list(p.queue)):
            resume_final(st, KIND, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(KIND, amount=best(st, p.seat))


def order(st: GameState) -> list[int]:
    """Seat order from the start player of the first phase (the Hammer holder), X-04."""
    start = st.tokens[st.ruleset.phases[0].token]
    return [(start + i) % st.n for i in range(st.n)]


def open_next(st: GameState, queue: list[int]) -> bool:
    """The next player's decision (True), or False when every player has chosen."""
    if not queue:
        return False
    st.pending = Pending(KIND, queue[0], queue=queue[1:])
    return True


def choices_step(st: GameState, events: Events) -> bool:
    """Before the final scoring: the choices, one player after another."""
    return open_next(st, order(st))


def score_step(st: GameState, final: list[dict[str, Any]], events: Events) -> None:
    """Final scoring step 2 (X-06; M5-02, M5-08, M5-18): only the chosen assignment scores;
    Assignment 6 before all others."""
    chosen = mstate(st)["chosen"]
    seats = order(st)
    for seat in [s for s in seats if chosen[s] == MOST_RUBLES] + [s for s in seats if chosen[s] != MOST_RUBLES]:
        aid = chosen[seat]
        vp = value(st, seat, aid)
        gain_vp(st, seat, vp, KIND, events)  # M6-19: through the obstacles, which tell
        final[seat]["assignment"] = aid
        final[seat]["assignment_vp"] = vp
        stats = st.stats[seat]
        stats["assignment_vp"] = vp
        if events is not None:
            events.append({"type": "assignment_scored", "seat": seat, "assignment": aid, "vp": vp})


def _parse(text: str, rest: str, cat: Catalogue) -> Action:
    word = rest.strip()
    if word[:1] in ("a", "A"):
        word = word[1:]
    if not word.isdigit():
        raise NotationError(text, "'assignment' needs the number of one of your assignments, e.g. 'assignment 6'")
    return Action(KIND, amount=int(word))


def _format(a: Action, cat: Catalogue, lang: str) -> str:
    return f"{KIND} {a.amount}"


def notation() -> Notation:
    return Notation(parsers={KIND: _parse}, formatters={KIND: _format})
