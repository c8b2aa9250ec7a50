"""Pure rules core of Sankt Petersburg (1st edition 2004, 2nd edition 2014). No I/O frameworks."""

from .actions import BUY, DISCARD, OBSERVE, PASS, PLAY, PUB, TAKE, Action, Move, format_action, parse_action
from .cards import CardType, Catalogue, catalogue
from .engine import (
    advance,
    apply,
    aristocrat_vp,
    can_displace,
    check,
    hand_limit,
    legal_moves,
    new_game,
    price,
    targets,
)
from .errors import NotationError, RuleError, RulesetError
from .record import GameRecord, ReplayError, parse_for, replay
from .ruleset import Phase, Ruleset
from .state import DRAWN, HAND, LOWER, UPPER, GameState, Pending
from .takeback import rebuilt, revealed
from .view import hand_prices, view

__all__ = [
    "BUY",
    "DISCARD",
    "DRAWN",
    "HAND",
    "LOWER",
    "OBSERVE",
    "PASS",
    "PLAY",
    "PUB",
    "TAKE",
    "UPPER",
    "Action",
    "CardType",
    "Catalogue",
    "GameRecord",
    "GameState",
    "Move",
    "NotationError",
    "Pending",
    "Phase",
    "ReplayError",
    "RuleError",
    "RulesetError",
    "Ruleset",
    "advance",
    "apply",
    "aristocrat_vp",
    "can_displace",
    "catalogue",
    "check",
    "format_action",
    "hand_limit",
    "hand_prices",
    "legal_moves",
    "new_game",
    "parse_action",
    "parse_for",
    "price",
    "rebuilt",
    "replay",
    "revealed",
    "targets",
    "view",
]
