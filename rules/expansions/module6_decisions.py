"""Module 6's decision (X-07, M6-06, M6-08, M6-14, M6-15) and its notation (X-09):

bonus rubles                     the Marketplace bonus: 1 ruble per chip
bonus vp                         ... or 1 VP per chip
bonus rubles Mistress of Ceremonies   the Card bonus: that card's rubles (or ``bonus vp ...``: its VP)
bonus vp Library                 the real Buildings obstacle: the VP of that blue card
bonus rubles Senator             the real Aristocrats obstacle: the rubles of that red card
"""

from __future__ import annotations

from ..actions import Action, Move
from ..cards import Catalogue
from ..errors import NotationError, RuleError
from ..hooks import Checked, Decision, Event, Notation
from ..state import GameState, Pending
from .module6 import BONUS, after_choice, best_option, bonus_parts, m6, take_option

SIDES = {"rubles": "rubles", "ruble": "rubles", "rubel": "rubles", "vp": "vp", "sp": "vp", "siegpunkte": "vp"}


def options(st: GameState, p: Pending) -> list[tuple[str, str, int]]:
    return bonus_parts(st, p.seat, m6(st)["obstacles"][str(p.card)])[2]


def as_action(option: tuple[str, str, int]) -> Action:
    side, cid, _ = option
    return Action(BONUS, side, -1, cid)


_MOVES: dict[tuple[str, str], Move] = {}  # each option's move, built once (an Action is costly to build)


def as_move(option: tuple[str, str, int]) -> Move:
    side, cid, _ = option
    found = _MOVES.get((side, cid))
    if found is None:
        found = _MOVES[side, cid] = Move(as_action(option), 0)
    return found


class BonusDecision(Decision):
    """The choice inside an obstacle's bonus: rubles or VP, and which card (printed values, AMB-18).
    Absent player: the best for him (M6-18, UI-26)."""

    kind = BONUS

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return [as_move(o) for o in options(st, p)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        if action not in {as_action(o) for o in options(st, p)}:
            raise RuleError("wrong_decision", pending=BONUS)
        return -1, -1, 0

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        chosen = next(o for o in options(st, p) if as_action(o) == action)
        events: list[Event] = []
        take_option(st, p.seat, p.card, chosen, events)
        after_choice(st)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return as_action(best_option(st, p.seat, options(st, p)))


def _parse(text: str, rest: str, cat: Catalogue) -> Action:
    word, _, name = rest.strip().partition(" ")
    side = SIDES.get(word.casefold())
    if side is None:
        raise NotationError(text, "'bonus' needs rubles or vp, e.g. 'bonus vp' or 'bonus rubles Senator'")
    cid = ""
    if name.strip():
        t = cat.lookup(name.strip())
        if t is None:
            raise NotationError(text, f"no card called {name.strip()!r}")
        cid = t.id
    return Action(BONUS, side, -1, cid)


def _format(a: Action, cat: Catalogue, lang: str) -> str:
    text = f"{BONUS} {a.card}"
    if a.target:
        text += f" {cat.by_id[a.target].name(lang)}"
    return text


def notation() -> Notation:
    return Notation(parsers={BONUS: _parse}, formatters={BONUS: _format})
