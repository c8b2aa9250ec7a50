"""The display on the board: the upper and lower rows (and a card drawn with the Observatory) as card
faces, in one band; a Market game's display of up to ten cards takes two bands (upper row, then the
lower row and a drawn card) so the cards stay large enough to read."""

from __future__ import annotations

from typing import Any

from . import style as S
from .canvas import Canvas
from .cardface import CARD_RATIO, draw_card
from .common import MARGIN, card_type, extras
from .text import tr

CARD_MAX_W = 176
CARD_GAP = 10
SEGMENT_GAP = 30
LABEL_H = 54
BAND_GAP = 10
ONE_BAND_SLOTS = 9  # a Market display wider than this takes two bands

Segment = tuple[str, list[str]]
DRAWN_KINDS = {"observatory": "drawn_card", "prison": "picked_card"}  # pending kind -> label


def display_segments(view: dict[str, Any]) -> list[Segment]:
    """The display's parts: upper row, lower row and, while one is pending, the Observatory's card (or
    the card picked from the discard pile with the Debtor's Prison, M2-04)."""
    segs: list[Segment] = [("upper", list(view["upper"])), ("lower", list(view["lower"]))]
    pending = view.get("pending")
    if pending and pending.get("kind") in DRAWN_KINDS and pending.get("card"):
        segs.append(("drawn", [pending["card"]]))
    return segs


def display_bands(view: dict[str, Any]) -> list[list[Segment]]:
    """The segments by band: one band, or (a full Market display) the upper row above the rest."""
    segs = display_segments(view)
    slots = sum(max(len(cards), 1) for _, cards in segs)
    if view.get("market") and slots > ONE_BAND_SLOTS:
        return [segs[:1], segs[1:]]
    return [segs]


def _segment_markets(view: dict[str, Any], name: str, n: int) -> list[str | None]:
    """Each displayed copy's own market roundel, where the view gives it (copies of a type differ)."""
    pending = view.get("pending") or {}
    found = [pending.get("market")] if name == "drawn" else list(view.get(f"{name}_markets") or [])
    return (found + [None] * n)[:n]


def card_width(bands: list[list[Segment]], inner: int) -> int:
    """The widest card that lets every band's segments fit in ``inner`` pixels (the same in all bands)."""
    widths = []
    for segs in bands:
        slots = sum(max(len(cards), 1) for _, cards in segs)
        card_gaps = sum(max(len(cards) - 1, 0) for _, cards in segs) * CARD_GAP
        avail = inner - SEGMENT_GAP * (len(segs) - 1) - card_gaps
        widths.append(avail / slots)
    return int(min([CARD_MAX_W, *widths]))


def display_height(bands: list[list[Segment]], inner: int) -> int:
    """Height of the display: each band's labels and cards."""
    ch = round(card_width(bands, inner) * CARD_RATIO)
    return len(bands) * (LABEL_H + ch) + (len(bands) - 1) * BAND_GAP


def draw_display(cv: Canvas, view: dict[str, Any], lang: str, y: int, inner: int) -> int:
    """The upper and lower rows (and a drawn card) as card faces, from ``y``; returns the bottom."""
    edition = int(view["edition"])
    extra = extras(view)
    bands = display_bands(view)
    cw = card_width(bands, inner)
    ch = round(cw * CARD_RATIO)
    label_h = LABEL_H
    kind = str((view.get("pending") or {}).get("kind"))
    drawn = tr(DRAWN_KINDS.get(kind, "drawn_card"), lang)
    labels = {"upper": tr("upper_row", lang), "lower": tr("lower_row", lang), "drawn": drawn}
    for bi, segs in enumerate(bands):
        if bi:
            y += label_h + ch + BAND_GAP
        x = MARGIN
        for name, cards in segs:
            n = len(cards)
            seg_w = n * cw + (n - 1) * CARD_GAP if n else cw
            cv.text((x, y, x + seg_w, y + label_h - 4), labels[name], tag=f"display.{name}.label", style="bold",
                    size=22, min_size=13, lines=2, fill=S.INK, valign="bottom")
            cy = y + label_h
            if n == 0:
                cv.draw.rounded_rectangle((x, cy, x + seg_w, cy + ch), radius=12, fill=S.PANEL_DIM, outline=S.LINE,
                                          width=2)
                cv.text((x + 6, cy + ch // 2 - 20, x + seg_w - 6, cy + ch // 2 + 20), tr("empty", lang),
                        tag=f"display.{name}.empty", size=20, min_size=11, fill=S.INK_SOFT, align="center")
            if name == "drawn":
                cv.draw.rounded_rectangle((x - 6, cy - 6, x + seg_w + 6, cy + ch + 6), radius=14, outline=S.HILITE,
                                          width=5)
            markets = _segment_markets(view, name, n)
            for i, cid in enumerate(cards):
                cx = x + i * (cw + CARD_GAP)
                draw_card(cv, (cx, cy, cx + cw, cy + ch), card_type(cid, edition, extra), edition, lang,
                          tag=f"display.{name}.{i}", market=markets[i] if edition == 2 else None)
            x += seg_w + SEGMENT_GAP
    return y + label_h + ch
