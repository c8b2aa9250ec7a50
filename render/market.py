"""The Market's part of the board (2nd edition with the Market): the marketplace track with every
player's marker per good (ties side by side, the 10-markers as "+10"), the current and next value
tile, the tiles left and the Sack holder; and which good the token on a "?" card stands for."""

from __future__ import annotations

from functools import partial
from typing import Any

from . import style as S
from .canvas import Canvas
from .cardface import draw_roundel
from .common import MARGIN, player_marker, player_name, suffixed, token_icon, you
from .text import tr

TITLE_H = 50  # the title line: "Marketplace", the value tiles and the Sack holder
NUMBERS_H = 26  # the field numbers 1..10
LABEL_W = 190  # the good's roundel and name
MARKER = 34  # a player's marker on the track (the thin star a fifth larger)
PER_LINE = 3  # markers side by side in one field before a second line starts
LINE_H = MARKER + 8
ROW_PAD = 8
TENS_H = 16  # "+10" under a marker that went round


def _roundel(cv: Canvas, cx: float, cy: float, *, good: str) -> None:
    draw_roundel(cv, cx, cy, 42, good, "market.roundel")


def _marker(cv: Canvas, cx: float, cy: float, *, size: float, seat: int) -> None:
    player_marker(cv, cx, cy, size, seat)


def _field_seats(view: dict[str, Any], good: str) -> dict[int, list[int]]:
    """Field (1..10) -> the seats whose marker stands there for ``good``, by seat."""
    market = view["market"]
    out: dict[int, list[int]] = {}
    for seat, fields in enumerate(market["fields"]):
        f = int(fields.get(good, 0))
        if f:
            out.setdefault(f, []).append(seat)
    return out


def _has_tens(view: dict[str, Any], good: str) -> bool:
    return any(int(t.get(good, 0)) for t in view["market"].get("tens", []))


def _row_height(view: dict[str, Any], good: str) -> int:
    """One good's row: one or two lines of markers, and room for "+10" when someone went round."""
    most = max([len(s) for s in _field_seats(view, good).values()] + [1])
    lines = (most + PER_LINE - 1) // PER_LINE
    return lines * LINE_H + (TENS_H if _has_tens(view, good) else 0) + ROW_PAD


def height(view: dict[str, Any]) -> int:
    """Height of the marketplace panel (0 without the Market)."""
    if not view.get("market"):
        return 0
    goods = view["market"]["goods"]
    return TITLE_H + NUMBERS_H + sum(_row_height(view, g) for g in goods) + 12


def tableau_colours(view: dict[str, Any]) -> tuple[str, ...]:
    """A tableau's colour columns: the Market adds yellow (crates included)."""
    return ("green", "blue", "red", "yellow") if view.get("market") else ("green", "blue", "red")


def good_of_card(view: dict[str, Any], seat: int, card_id: str, printed: str | None, nth: int) -> str | None:
    """The good to show on a tableau card: the token's good on a "?" card holding one (the ``nth``
    such copy of ``card_id`` in the seat's tableau), else the printed roundel."""
    if printed != "?" or not view.get("market"):
        return printed
    held = [g for g, tok in view["market"].get("tokens", {}).items()
            if tok.get("card") == card_id and tok.get("seat") == seat]
    return held[nth] if nth < len(held) else printed


def draw_marketplace(cv: Canvas, view: dict[str, Any], lang: str, y: int, width: int) -> int:
    """The marketplace panel from ``y``; returns its bottom."""
    market = view["market"]
    x0, x1 = MARGIN, width - MARGIN
    y1 = y + height(view)
    d = cv.draw
    d.rounded_rectangle((x0, y, x1, y1), radius=12, fill=S.PANEL, outline=S.LINE, width=2)
    # Title line: name, value tile now and next, the Sack holder.
    ty0, ty1 = y + 6, y + TITLE_H - 4
    cv.text((x0 + 14, ty0, x0 + 14 + 230, ty1), tr("marketplace", lang), tag="market.title", style="bold", size=30,
            min_size=18, fill=S.INK)
    first, second = (int(v) for v in market["tile"])
    left = [list(t) for t in market.get("tiles_left", [])]
    nxt = tr("tile_next", lang, first=left[1][0], second=left[1][1]) if len(left) > 1 else tr("tile_last", lang)
    tx = x0 + 260
    tile_w = 560
    d.rounded_rectangle((tx, ty0, tx + tile_w, ty1), radius=8, fill=S.HILITE_TINT, outline=S.COIN_EDGE, width=3)
    cv.text((tx + 10, ty0 + 2, tx + tile_w - 10, ty1 - 2), tr("tile_now", lang, first=first, second=second),
            tag="market.tile", style="bold", size=26, min_size=15, fill=S.INK)
    nx = tx + tile_w + 12
    sack_w = 330
    cv.text((nx, ty0, x1 - sack_w - 12, ty1), nxt, tag="market.next", size=24, min_size=14, fill=S.INK_SOFT)
    sx = x1 - sack_w
    token_icon(cv, sx + 18, (ty0 + ty1) / 2, 34, "sack", 2)
    holder = market.get("sack")
    if holder is not None:
        player_marker(cv, sx + 52, (ty0 + ty1) / 2, 24, int(holder))
        cv.text_named((sx + 70, ty0, x1 - 12, ty1), suffixed(you(view, int(holder), lang)),
                      player_name(view, int(holder)), tag="market.sack", style="bold", size=24, min_size=14,
                      fill=S.INK)
    # Field numbers.
    fx0 = x0 + LABEL_W
    cell = (x1 - 10 - fx0) / 10
    ny = y + TITLE_H
    for f in range(10):
        cx0 = round(fx0 + f * cell)
        cv.text((cx0, ny, round(cx0 + cell), ny + NUMBERS_H - 2), str(f + 1), tag=f"market.field.{f + 1}",
                style="bold", size=20, min_size=12, fill=S.INK_SOFT, align="center")
    # One row per good.
    ry = ny + NUMBERS_H
    tens = market.get("tens", [])
    for gi, good in enumerate(market["goods"]):
        rh = _row_height(view, good)
        if gi % 2 == 0:
            d.rectangle((x0 + 4, ry, x1 - 4, ry + rh), fill=S.PANEL_DIM)
        cv.local(x0 + 34, ry + rh / 2, 42, partial(_roundel, good=good))
        cv.text((x0 + 62, ry + 2, fx0 - 6, ry + rh - 2), tr(f"good.{good}", lang), tag=f"market.{good}.name",
                style="bold", size=24, min_size=14, fill=S.INK)
        for f in range(10):
            cx0 = round(fx0 + f * cell)
            d.line((cx0, ry + 3, cx0, ry + rh - 3), fill=S.LINE, width=1)
        for field, seats in _field_seats(view, good).items():
            fcx = fx0 + (field - 1) * cell
            for i, seat in enumerate(seats):
                line, col = divmod(i, PER_LINE)
                in_line = min(PER_LINE, len(seats) - line * PER_LINE)
                mx = fcx + cell / 2 + (col - (in_line - 1) / 2) * (MARKER + 7)
                my = ry + ROW_PAD / 2 + line * LINE_H + LINE_H / 2
                size = MARKER * (1.2 if S.PLAYER_MARKERS[seat % len(S.PLAYER_MARKERS)] == "star" else 1)
                cv.local(mx, my, size, partial(_marker, size=size, seat=seat))
                n = int(tens[seat].get(good, 0)) if seat < len(tens) else 0
                if n:
                    ny0 = round(my + MARKER / 2 + 1)
                    cv.text((round(mx - MARKER / 2 - 4), ny0, round(mx + MARKER / 2 + 4), ny0 + TENS_H),
                            tr("tens", lang, n=n), tag=f"market.{good}.{seat}.tens", style="bold", size=14,
                            min_size=9, fill=S.INK, align="center")
        ry += rh
    return y1
