"""Pass modes, as Yucata offers them: pass this turn, pass until the display changes, pass for the
rest of this phase; and the forced pass when passing is a player's only legal action.

The bot stores a player's ``AutoPass`` and, whenever that player is to decide, asks ``due`` whether
to pass for them; ``expired`` says when to forget it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .actions import DISCARD, PASS, PUB, Action
from .engine import legal_moves
from .state import GameState

MODES = ("turn", "display", "phase")


@dataclass(frozen=True, slots=True)
class AutoPass:
    mode: str  # turn | display | phase
    round: int
    phase: int
    display: tuple[int, ...]  # the display (sorted physical ids) when the mode was set
    used: int = 0  # card actions used this phase when the mode was set (face-down cards: the Observatory)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["display"] = list(self.display)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> AutoPass:
        return cls(d["mode"], d["round"], d["phase"], tuple(d["display"]), int(d.get("used", 0)))


def _display(st: GameState) -> tuple[int, ...]:
    return tuple(sorted(st.upper + st.lower))


def arm(st: GameState, mode: str) -> AutoPass:
    """A pass mode set now."""
    if mode not in MODES:
        raise ValueError(f"pass mode must be one of {', '.join(MODES)}")
    return AutoPass(mode, st.round, st.phase, _display(st), _card_actions(st))


def _card_actions(st: GameState) -> int:
    """Card actions used so far: face-down cards (the Observatory this phase) and what the parts count
    in the players' ``card_actions`` statistic (the events but the Warehouse, UI-08)."""
    return len(st.face_down) + sum(s.get("card_actions", 0) for s in st.stats)


def expired(st: GameState, ap: AutoPass) -> bool:
    """The mode no longer applies: the phase is over, or (mode 'display') the display changed or somebody
    used a card action (UI-08, as on Yucata: the Observatory, which lies face down once used this phase,
    or an event; the Warehouse is no action)."""
    if st.finished or (st.round, st.phase) != (ap.round, ap.phase):
        return True
    return ap.mode == "display" and (_display(st) != ap.display or _card_actions(st) > ap.used)


def can_pass(st: GameState) -> bool:
    return any(m.action.kind == PASS for m in legal_moves(st))


def due(st: GameState, seat: int, ap: AutoPass) -> bool:
    """Pass for ``seat`` now? Only on its own normal turn, while the mode applies and passing is legal."""
    return st.pending is None and st.to_move == seat and not expired(st, ap) and can_pass(st)


def only_pass(st: GameState) -> bool:
    """Passing is the deciding player's only legal action (the bot passes for them at once)."""
    moves = legal_moves(st)
    return len(moves) == 1 and moves[0].action.kind == PASS


def default_action(st: GameState) -> Action:
    """What the game does for an absent player whose time ran out: the least committal legal action.

    Pass where passing is legal; for a pending decision its kind's default (X-07: no VP at the Pub,
    discard an Observatory's drawn card, ...); in the first worker phase (where a worker must be
    bought, BG-02) the cheapest worker.
    """
    moves = legal_moves(st)
    if not moves:
        raise ValueError("the game is over")
    p = st.pending
    if p is not None:  # each decision kind names its own default
        return st.ruleset.hooks.decisions[p.kind].default(st, p)
    for kind in (PASS, PUB, DISCARD):
        for m in moves:
            if m.action.kind == kind and (kind != PUB or m.action.amount == 0):
                return m.action
    return min(moves, key=lambda m: (m.price, m.action)).action
