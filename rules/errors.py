"""Typed errors a player can cause. Each carries a stable ``code`` (for translation and tests),
an English message, and the parameters that fill it; the game state is never changed."""

from __future__ import annotations

from typing import Any

MESSAGES: dict[str, str] = {
    "game_over": "The game is over.",
    "not_your_turn": "It is not your turn: {to_move} is to decide.",
    "decision_pending": "{player} must first finish a decision.",
    "no_such_card": "{card} is not available for that.",
    "too_few_rubles": "You cannot afford {card}: it costs {price} rubles and you have {rubles}.",
    "hand_full": "Your hand is full ({limit} cards).",
    "needs_target": "{card} is a trading card: name the card it displaces.",
    "bad_target": "{card} cannot displace {target}.",
    "no_target": "{card} has no card in your tableau it could displace.",
    "not_trading": "{card} is not a trading card: it displaces nothing.",
    "must_buy_worker": "In the first worker phase you must buy a worker.",
    "observatory_unavailable": "You have no unused Observatory to use now.",
    "stack_too_small": "The {deck} stack has fewer than 2 cards: the Observatory cannot draw its last card.",
    "pub_amount": "You can buy between 0 and {max} VP at the Pub now.",
    "wrong_decision": "That is not an answer to the decision pending: {pending}.",
    "malformed_action": "That action is not well-formed.",
    "bad_notation": "Cannot read the action {text!r}: {why}",
}


class RuleError(Exception):
    """An action that the rules do not allow in this state."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        template = MESSAGES.get(code, code)
        try:
            self.message = template.format(**params)
        except (KeyError, IndexError):
            self.message = template
        super().__init__(self.message)


class NotationError(RuleError):
    """Text that does not read as an action."""

    def __init__(self, text: str, why: str) -> None:
        super().__init__("bad_notation", text=text, why=why)
