"""Images of the game, drawn with Pillow from a player's view (``rules.view``): pure functions that
return PNG bytes. No Discord, no database, no event loop here.

Each ``render_*`` has a ``draw_*`` twin that returns the :class:`Canvas` (the RGB image plus every
text box placed on it), which tests use to prove that no text overflows its box.
"""

from __future__ import annotations

from typing import Any

from .board import draw_board
from .canvas import Canvas, TextBox
from .final import draw_final
from .hand import draw_hand
from .lookup import draw_lookup
from .review import draw_review
from .standings import draw_standings

__all__ = [
    "Canvas", "TextBox", "draw_board", "draw_final", "draw_hand", "draw_lookup", "draw_review", "draw_standings",
    "render_board", "render_card", "render_final", "render_hand", "render_review", "render_standings",
]


def render_board(view: dict[str, Any], lang: str = "en", last_action: str | None = None) -> bytes:
    """The board as the view's viewer sees it: phase and round, who decides, the last action (already
    translated by the caller), stacks, start-player tokens, the display and every player's area."""
    return draw_board(view, lang, last_action).to_png()


def render_standings(data: dict[str, Any], lang: str = "en") -> bytes:
    """A tournament's standings table (dropped players marked), with a podium when it is over."""
    return draw_standings(data, lang).to_png()


def render_hand(view: dict[str, Any], lang: str = "en") -> bytes:
    """The viewer's hand with each card's current price and whether it can be played now."""
    return draw_hand(view, lang).to_png()


def render_final(view: dict[str, Any], lang: str = "en") -> bytes:
    """VP by source per player, and each player's VP and rubles over the rounds."""
    return draw_final(view, lang).to_png()


def render_card(card_id: str, edition: int, lang: str = "en") -> bytes:
    """One card, large, with its facts (for ``card NAME``). ValueError for an unknown card id."""
    return draw_lookup(card_id, edition, lang).to_png()


def render_review(data: dict[str, Any], lang: str = "en") -> bytes:
    """A game's review: each seat's chance to win after every action, its accuracy and its mistakes
    (``render.review``)."""
    return draw_review(data, lang).to_png()
