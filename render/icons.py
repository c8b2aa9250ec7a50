"""Simple drawn symbols (no artwork): kind badges, coins, shields, worker symbols, market goods,
start-player tokens, player markers and card backs. Each takes a centre and a size in pixels."""

from __future__ import annotations

import math

from PIL import ImageDraw

from . import style as S
from .style import RGB

Draw = ImageDraw.ImageDraw


def _pts(cx: float, cy: float, s: float, pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Unit-square points (-0.5..0.5) scaled by ``s`` around the centre."""
    return [(cx + x * s, cy + y * s) for x, y in pts]


def shape(d: Draw, cx: float, cy: float, s: float, kind: str, fill: RGB | None, outline: RGB | None = None,
          width: int = 2) -> None:
    """A badge shape of size ``s``: circle, square, diamond, triangle, star or box (square in a square)."""
    h = s / 2
    if kind == "circle":
        d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=fill, outline=outline, width=width)
    elif kind == "square":
        k = h * 0.86
        d.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill, outline=outline, width=width)
    elif kind == "diamond":
        d.polygon(_pts(cx, cy, s, [(0, -0.5), (0.5, 0), (0, 0.5), (-0.5, 0)]), fill=fill, outline=outline, width=width)
    elif kind == "triangle":
        d.polygon(_pts(cx, cy, s, [(0, -0.5), (0.5, 0.42), (-0.5, 0.42)]), fill=fill, outline=outline, width=width)
    elif kind == "star":
        pts = []
        for i in range(10):
            r = 0.5 if i % 2 == 0 else 0.22
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((r * math.cos(a), r * math.sin(a)))
        d.polygon(_pts(cx, cy, s, pts), fill=fill, outline=outline, width=width)
    elif kind == "hexagon":  # the Market's yellow cards
        q = math.sqrt(3) / 4  # exact corners: no float noise that rounds differently at other offsets
        pts = [(0.5, 0.0), (0.25, q), (-0.25, q), (-0.5, 0.0), (-0.25, -q), (0.25, -q)]
        d.polygon(_pts(cx, cy, s, pts), fill=fill, outline=outline, width=width)
    else:  # box: the trading stack
        k = h * 0.86
        d.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill, outline=outline, width=width)
        j = k * 0.5
        d.rectangle((cx - j, cy - j, cx + j, cy + j), outline=outline or S.INK, width=max(1, width))


def coin(d: Draw, cx: float, cy: float, s: float) -> None:
    """A ruble coin (circle with a rim)."""
    h = s / 2
    d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=S.COIN, outline=S.COIN_EDGE, width=max(2, round(s / 14)))


def shield(d: Draw, cx: float, cy: float, s: float) -> None:
    """A victory-point shield (flat top, pointed bottom)."""
    pts = [(-0.45, -0.5), (0.45, -0.5), (0.45, 0.05), (0.0, 0.5), (-0.45, 0.05)]
    d.polygon(_pts(cx, cy, s, pts), fill=S.SHIELD, outline=S.INK, width=max(1, round(s / 20)))


def hand_cards(d: Draw, cx: float, cy: float, s: float) -> None:
    """Two overlapping cards: hand size."""
    w, h = s * 0.5, s * 0.72
    lw = max(1, round(s / 16))
    d.rectangle((cx - w * 0.85, cy - h / 2 + s * 0.06, cx - w * 0.85 + w, cy + h / 2 + s * 0.06), fill=S.PANEL_DIM,
                outline=S.INK, width=lw)
    d.rectangle((cx - w * 0.15, cy - h / 2 - s * 0.06, cx - w * 0.15 + w, cy + h / 2 - s * 0.06), fill=S.WHITE,
                outline=S.INK, width=lw)


def trade_arrows(d: Draw, cx: float, cy: float, s: float, fill: RGB) -> None:
    """Two opposite arrows: a trading card (it displaces a card)."""
    lw = max(2, round(s / 8))
    y1, y2 = cy - s * 0.18, cy + s * 0.18
    d.line((cx - s * 0.4, y1, cx + s * 0.3, y1), fill=fill, width=lw)
    d.polygon([(cx + s * 0.45, y1), (cx + s * 0.22, y1 - s * 0.16), (cx + s * 0.22, y1 + s * 0.16)], fill=fill)
    d.line((cx + s * 0.4, y2, cx - s * 0.3, y2), fill=fill, width=lw)
    d.polygon([(cx - s * 0.45, y2), (cx - s * 0.22, y2 - s * 0.16), (cx - s * 0.22, y2 + s * 0.16)], fill=fill)


# --- worker symbols ---------------------------------------------------------------------------
def worker_symbol(d: Draw, cx: float, cy: float, s: float, sym: str) -> None:
    """The worker symbol ``sym`` (wood, gold, cloth, fur, ship; In bester Gesellschaft's wheat, IBG-06)
    in a light disc of size ``s``."""
    h = s / 2
    lw = max(1, round(s / 22))
    d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=S.WHITE, outline=S.INK, width=lw)
    k = s * 0.7
    if sym == "wood":  # a log seen from the side, its cut end showing rings
        d.rounded_rectangle((cx - k * 0.5, cy - k * 0.2, cx + k * 0.3, cy + k * 0.2), radius=k * 0.1, fill=S.WOOD,
                            outline=S.INK, width=lw)
        d.ellipse((cx + k * 0.15, cy - k * 0.2, cx + k * 0.45, cy + k * 0.2), fill=S.WOOD_LIGHT, outline=S.INK,
                  width=lw)
        d.ellipse((cx + k * 0.25, cy - k * 0.07, cx + k * 0.35, cy + k * 0.07), outline=S.WOOD, width=lw)
    elif sym == "gold":  # a nugget
        pts = [(-0.42, 0.2), (-0.3, -0.15), (-0.05, -0.32), (0.25, -0.25), (0.42, 0.02), (0.3, 0.28), (-0.1, 0.33)]
        d.polygon(_pts(cx, cy, k, pts), fill=S.GOLD, outline=S.INK, width=lw)
        d.polygon(_pts(cx, cy, k, [(-0.1, -0.15), (0.1, -0.18), (0.0, 0.0)]), fill=S.WHITE)
    elif sym == "cloth":  # a woven square
        q = k * 0.38
        d.rectangle((cx - q, cy - q, cx + q, cy + q), fill=S.CLOTH, outline=S.INK, width=lw)
        for i in (-1, 0, 1):
            o = i * q * 0.5
            d.line((cx - q, cy + o, cx + q, cy + o), fill=S.WHITE, width=lw)
            d.line((cx + o, cy - q, cx + o, cy + q), fill=S.WHITE, width=lw)
    elif sym == "fur":  # a stretched pelt
        pts = [(-0.18, -0.38), (0.18, -0.38), (0.22, -0.2), (0.42, -0.3), (0.3, 0.0), (0.42, 0.3), (0.2, 0.2),
               (0.12, 0.4), (-0.12, 0.4), (-0.2, 0.2), (-0.42, 0.3), (-0.3, 0.0), (-0.42, -0.3), (-0.22, -0.2)]
        d.polygon(_pts(cx, cy, k, pts), fill=S.FUR, outline=S.INK, width=lw)
        d.ellipse((cx - k * 0.1, cy - k * 0.12, cx + k * 0.1, cy + k * 0.12), fill=S.FUR_LIGHT)
    elif sym == "ship":  # hull, mast and sail
        d.polygon(_pts(cx, cy, k, [(-0.45, 0.12), (0.45, 0.12), (0.3, 0.35), (-0.3, 0.35)]), fill=S.WOOD,
                  outline=S.INK, width=lw)
        d.line((cx, cy + k * 0.12, cx, cy - k * 0.42), fill=S.INK, width=lw + 1)
        d.polygon(_pts(cx, cy, k, [(0.03, -0.4), (0.35, 0.05), (0.03, 0.05)]), fill=S.WHITE, outline=S.INK, width=lw)
        d.polygon(_pts(cx, cy, k, [(-0.03, -0.3), (-0.3, 0.05), (-0.03, 0.05)]), fill=S.SEA, outline=S.INK, width=lw)
    elif sym == "wheat":  # an ear of wheat: a stalk with grains on both sides
        d.line((cx, cy + k * 0.45, cx, cy - k * 0.42), fill=S.INK, width=lw + 1)
        g = k * 0.13
        for i in range(3):
            gy = cy - k * 0.28 + i * k * 0.22
            for side in (-1, 1):
                gx = cx + side * k * 0.14
                d.ellipse((gx - g, gy - g * 1.5, gx + g, gy + g * 1.5), fill=S.GOLD, outline=S.INK, width=lw)
        d.ellipse((cx - g, cy - k * 0.5 - g, cx + g, cy - k * 0.5 + g * 1.6), fill=S.GOLD, outline=S.INK, width=lw)


# --- 2nd-edition market roundels --------------------------------------------------------------
def market_good(d: Draw, cx: float, cy: float, s: float, good: str) -> None:
    """A market roundel: a disc with the good (grain, chicken, apple, fish, cabbage; "?" is drawn by the
    caller as text on the empty disc)."""
    h = s / 2
    lw = max(1, round(s / 18))
    d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=S.HILITE_TINT, outline=S.INK, width=lw)
    k = s * 0.72
    if good == "grain":  # a tied sack
        d.polygon(_pts(cx, cy, k, [(-0.12, -0.22), (0.12, -0.22), (0.35, 0.35), (-0.35, 0.35)]), fill=S.WOOD_LIGHT,
                  outline=S.INK, width=lw)
        d.polygon(_pts(cx, cy, k, [(-0.2, -0.42), (0.2, -0.42), (0.08, -0.22), (-0.08, -0.22)]), fill=S.WOOD_LIGHT,
                  outline=S.INK, width=lw)
    elif good == "chicken":
        d.ellipse((cx - k * 0.35, cy - k * 0.15, cx + k * 0.3, cy + k * 0.38), fill=S.WHITE, outline=S.INK, width=lw)
        d.ellipse((cx + k * 0.05, cy - k * 0.38, cx + k * 0.35, cy - k * 0.08), fill=S.WHITE, outline=S.INK, width=lw)
        d.polygon(_pts(cx, cy, k, [(0.12, -0.38), (0.2, -0.5), (0.28, -0.38)]), fill=S.CLOTH)
        d.polygon(_pts(cx, cy, k, [(0.34, -0.26), (0.48, -0.22), (0.34, -0.16)]), fill=S.GOLD, outline=S.INK)
    elif good == "apple":
        d.ellipse((cx - k * 0.36, cy - k * 0.28, cx + k * 0.36, cy + k * 0.4), fill=S.CLOTH, outline=S.INK, width=lw)
        d.line((cx, cy - k * 0.28, cx + k * 0.05, cy - k * 0.45), fill=S.WOOD, width=lw + 1)
        d.ellipse((cx + k * 0.05, cy - k * 0.48, cx + k * 0.3, cy - k * 0.32), fill=S.LEAF)
    elif good == "fish":
        d.ellipse((cx - k * 0.42, cy - k * 0.2, cx + k * 0.22, cy + k * 0.2), fill=S.SEA, outline=S.INK, width=lw)
        d.polygon(_pts(cx, cy, k, [(0.15, 0.0), (0.45, -0.25), (0.45, 0.25)]), fill=S.SEA, outline=S.INK, width=lw)
        d.ellipse((cx - k * 0.3, cy - k * 0.07, cx - k * 0.2, cy + k * 0.03), fill=S.INK)
    elif good == "cabbage":
        d.ellipse((cx - k * 0.4, cy - k * 0.36, cx + k * 0.4, cy + k * 0.4), fill=S.LEAF, outline=S.INK, width=lw)
        d.line((cx, cy - k * 0.3, cx, cy + k * 0.35), fill=S.GREEN_TINT, width=lw)
        d.line((cx, cy + k * 0.1, cx - k * 0.25, cy - k * 0.15), fill=S.GREEN_TINT, width=lw)
        d.line((cx, cy + k * 0.1, cx + k * 0.25, cy - k * 0.15), fill=S.GREEN_TINT, width=lw)


# --- start-player tokens ----------------------------------------------------------------------
def token(d: Draw, cx: float, cy: float, s: float, tok: str, ring: RGB) -> None:
    """A start-player token (hammer, cathedral, bust, hand) on a disc ringed in its phase colour."""
    h = s / 2
    lw = max(2, round(s / 10))
    d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=S.WHITE, outline=ring, width=lw)
    k = s * 0.62
    ink = S.INK
    if tok == "hammer":
        d.rectangle((cx - k * 0.42, cy - k * 0.42, cx + k * 0.42, cy - k * 0.12), fill=ink)
        d.rectangle((cx - k * 0.09, cy - k * 0.12, cx + k * 0.09, cy + k * 0.48), fill=ink)
    elif tok == "cathedral":
        d.rectangle((cx - k * 0.38, cy, cx + k * 0.38, cy + k * 0.45), fill=ink)
        d.ellipse((cx - k * 0.28, cy - k * 0.3, cx + k * 0.28, cy + k * 0.18), fill=ink)
        d.polygon(_pts(cx, cy, k, [(-0.1, -0.22), (0.1, -0.22), (0.0, -0.5)]), fill=ink)
    elif tok == "bust":
        d.ellipse((cx - k * 0.2, cy - k * 0.48, cx + k * 0.2, cy - k * 0.06), fill=ink)
        d.pieslice((cx - k * 0.45, cy - k * 0.02, cx + k * 0.45, cy + k * 0.9), 180, 360, fill=ink)
    elif tok == "sack":  # the Market's start-player token: a tied sack
        d.polygon(_pts(cx, cy, k, [(-0.15, -0.2), (0.15, -0.2), (0.42, 0.48), (-0.42, 0.48)]), fill=ink)
        d.polygon(_pts(cx, cy, k, [(-0.28, -0.5), (0.28, -0.5), (0.1, -0.26), (-0.1, -0.26)]), fill=ink)
    else:  # hand: palm and four fingers and a thumb
        d.rectangle((cx - k * 0.3, cy - k * 0.05, cx + k * 0.22, cy + k * 0.45), fill=ink)
        for i in range(4):
            x = cx - k * 0.3 + i * k * 0.135
            d.rectangle((x, cy - k * 0.45 + (abs(i - 1.5) * k * 0.06), x + k * 0.1, cy), fill=ink)
        d.polygon(_pts(cx, cy, k, [(0.2, 0.05), (0.45, -0.15), (0.5, -0.05), (0.22, 0.3)]), fill=ink)


# --- misc -------------------------------------------------------------------------------------
def card_back(d: Draw, x: float, y: float, w: float, h: float, dark: RGB, tint: RGB, shape_kind: str) -> None:
    """A small face-down card: the stack of one deck."""
    lw = max(2, round(w / 20))
    off = max(2, round(w / 12))
    d.rounded_rectangle((x + off, y, x + w, y + h - off), radius=w / 8, fill=tint, outline=dark, width=lw)
    d.rounded_rectangle((x, y + off, x + w - off, y + h), radius=w / 8, fill=dark, outline=S.INK, width=lw)
    shape(d, x + (w - off) / 2, y + off + (h - off) / 2, (w - off) * 0.5, shape_kind, tint, S.INK, lw)


def hatch(d: Draw, box: tuple[float, float, float, float], colour: RGB, step: int = 10, width: int = 2) -> None:
    """Diagonal hatching inside ``box`` (a face-down card)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    k = -h
    while k < w:
        ax, ay = x0 + max(k, 0), y0 + max(-k, 0)
        bx = x0 + min(k + h, w)
        by = y0 + (bx - x0 - k)
        d.line((ax, ay, bx, by), fill=colour, width=width)
        k += step
