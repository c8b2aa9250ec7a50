"""Module 5 in the private hand image only (M5-19, UI-13): the viewer's three assignments, each with
its text and what it would score now. The view holds them for their owner only (``rules.view``), so
nothing here can show another player's."""

from __future__ import annotations

from typing import Any

from rules.expansions.assignments import assignment_name, assignment_short

from . import icons
from . import style as S
from .canvas import Canvas
from .text import tr

TITLE_H = 40
BOX_H = 170
GAP = 16


def own_assignments(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The viewer's assignments with their current values, or None (no Module 5, or a spectator)."""
    seat = view.get("viewer")
    if seat is None:
        return None
    found: list[dict[str, Any]] | None = view["players"][seat].get("assignments")
    return found


def height(view: dict[str, Any]) -> int:
    return TITLE_H + BOX_H + 12 if own_assignments(view) else 0


def _score_text(entry: dict[str, Any], lang: str) -> str:
    """"now 14 VP", or with hidden money "now 10 VP (+10 with the most rubles)"."""
    if entry.get("more"):
        return tr("assignment_now_more", lang, vp=entry["vp"], more=entry["more"])
    return tr("assignment_now", lang, vp=entry["vp"])


def draw_assignments(cv: Canvas, view: dict[str, Any], lang: str, x0: int, x1: int, y: int) -> int:
    """The panel between ``x0`` and ``x1`` from ``y``; returns its bottom."""
    entries = own_assignments(view) or []
    seat = view["viewer"]
    chosen = view["players"][seat].get("assignment_chosen")
    cv.text((x0, y, x1, y + TITLE_H - 4), tr("assignments_title", lang), tag="assignments.title", style="bold",
            size=26, min_size=14, fill=S.INK)
    top = y + TITLE_H
    n = max(1, len(entries))
    bw = (x1 - x0 - GAP * (n - 1)) // n
    for i, e in enumerate(entries):
        aid = int(e["id"])
        bx0 = x0 + i * (bw + GAP)
        mine = chosen == aid
        cv.draw.rounded_rectangle((bx0, top, bx0 + bw, top + BOX_H), radius=12, fill=S.HILITE_TINT if mine else S.PANEL,
                                  outline=S.HILITE if mine else S.LINE, width=5 if mine else 2)
        cv.text((bx0 + 12, top + 6, bx0 + bw - 12, top + 40), assignment_name(aid, lang), tag=f"assignments.{i}.name",
                style="bold", size=24, min_size=14, fill=S.INK)
        words = assignment_short(aid, len(view["players"]), lang)
        cv.text((bx0 + 12, top + 40, bx0 + bw - 12, top + BOX_H - 58), words,
                tag=f"assignments.{i}.text", size=19, min_size=11, lines=3, fill=S.INK_SOFT)
        icons.shield(cv.draw, bx0 + 28, top + BOX_H - 30, 30)
        cv.text((bx0 + 50, top + BOX_H - 56, bx0 + bw - 12, top + BOX_H - 6), _score_text(e, lang),
                tag=f"assignments.{i}.vp", style="bold", size=23, min_size=13, lines=2, fill=S.INK)
    return top + BOX_H
