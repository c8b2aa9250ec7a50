"""Module 3 on the board (M3-08, X-12): who holds which assistant, with its discount, in one band
under the phase track; nothing is drawn without the module (the view has no "assistants")."""

from __future__ import annotations

from typing import Any

from rules.expansions.assistants import assistant_name

from . import icons
from . import style as S
from .canvas import Canvas
from .common import MARGIN, player_marker, player_name, suffixed, you
from .text import tr

HEIGHT = 120  # the title line and one box per assistant: name, discount, holder


def height(view: dict[str, Any]) -> int:
    """Height of the assistants band (0 without Module 3)."""
    return HEIGHT if view.get("assistants") else 0


def _style(selector: str, edition: int) -> S.Kind:
    """The colour whose cards the assistant makes cheaper; the trading stack's for the Czar's Daughter."""
    return S.deck_style("trading", edition) if selector == "trading" else S.kind(selector, edition)


def draw_assistants(cv: Canvas, view: dict[str, Any], lang: str, y: int, width: int) -> int:
    """The band: per assistant its name, discount ("-1 on blue cards") and holder; returns its bottom."""
    edition = int(view["edition"])
    entries = view["assistants"]
    x0, x1 = MARGIN, width - MARGIN
    cv.text((x0, y, x1, y + 30), tr("assistants", lang), tag="assistants.title", style="bold", size=24, min_size=14,
            fill=S.INK)
    top = y + 32
    gap = 10
    n = len(entries)
    bw = (x1 - x0 - gap * (n - 1)) // n
    for i, e in enumerate(entries):
        a, seat = e["assistant"], int(e["seat"])
        selector, amount = e["discount"][0]
        k = _style(selector, edition)
        bx0 = x0 + i * (bw + gap)
        box = (bx0, top, bx0 + bw, top + HEIGHT - 32)
        cv.draw.rounded_rectangle(box, radius=10, fill=k.tint, outline=k.dark, width=3)
        icons.shape(cv.draw, bx0 + 20, top + 18, 22, k.shape, k.dark, S.INK, 2)
        cv.text((bx0 + 36, top + 2, bx0 + bw - 8, top + 32), assistant_name(a, lang), tag=f"assistants.{a}",
                style="bold", size=21, min_size=12, fill=S.INK)
        cv.text((bx0 + 12, top + 32, bx0 + bw - 8, top + 56), tr(f"assistant_discount.{selector}", lang, n=amount),
                tag=f"assistants.{a}.discount", size=19, min_size=11, fill=S.INK)
        player_marker(cv, bx0 + 20, top + 71, 16, seat)
        cv.text_named((bx0 + 36, top + 58, bx0 + bw - 8, top + HEIGHT - 36), suffixed(you(view, seat, lang)),
                      player_name(view, seat), tag=f"assistants.{a}.holder", style="bold", size=18, min_size=11,
                      fill=S.INK)
    return top + HEIGHT - 32
