"""One card face drawn from its data: colour band with the cost top-left (boxed for trading cards),
a shape badge for its colour, the market roundel (2nd edition), its name, worker symbols or a short
ability text, and its income (rubles on a coin, VP on a shield) at the bottom."""

from __future__ import annotations

from rules.cards import CardType

from . import icons
from . import style as S
from .canvas import Box, Canvas
from .fonts import fit_text
from .text import short_ability

CARD_RATIO = 1.42  # height / width


def market_symbol(ct: CardType) -> str | None:
    """The roundel to draw for a card type: only when every copy shows the same one (the view names
    card types, not the physical copies that carry different roundels)."""
    goods = set(ct.market)
    if len(goods) == 1 and len(ct.market) == ct.count:
        return next(iter(goods))
    return None


def face_colour(ct: CardType) -> str:
    """The colour a card is drawn in: its own, or orange for the Market's crates (MK-32)."""
    return "crate" if ct.ability == "crate" else ct.colour


def draw_roundel(cv: Canvas, cx: float, cy: float, size: float, good: str, tag: str) -> None:
    """A market roundel; the "?" (a good of the owner's choice) is a question mark on the disc."""
    icons.market_good(cv.draw, cx, cy, size, good)
    if good == "?":
        h = int(size * 0.42)
        cv.text((int(cx - h), int(cy - h), int(cx + h), int(cy + h)), "?", tag=tag, style="bold",
                size=max(8, int(size * 0.7)), min_size=6, fill=S.INK, align="center")


def draw_card(
    cv: Canvas,
    box: Box,
    ct: CardType,
    edition: int,
    lang: str,
    *,
    tag: str = "card",
    full_text: bool = False,
    market: str | None = None,
) -> None:
    """Draw ``ct`` filling ``box``. ``full_text`` prints the whole ability text (card lookups) instead
    of the short one; ``market`` names the roundel of this very copy (default: the type's, if unique).
    A face depends on nothing else: it is painted once a size (``Canvas.tile``)."""
    cv.tile(box, paint_card, (ct, edition, lang, full_text, market), tag)


def paint_card(cv: Canvas, box: Box, ct: CardType, edition: int, lang: str, full_text: bool = False,
               market: str | None = None, *, tag: str = "card") -> None:
    """Draw ``ct`` filling ``box`` on ``cv`` itself (``draw_card`` pastes a tile drawn by this: ``Canvas.tile``
    passes its arguments in this order)."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    s = w / 170
    d = cv.draw
    k = S.kind(face_colour(ct), edition)
    dark, tint = k.dark, k.tint
    bw = max(2, round(3 * s))
    r = round(12 * s)
    hb = round(50 * s)
    d.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=r, fill=tint, outline=dark, width=bw)
    d.rounded_rectangle((x0, y0, x1 - 1, y0 + hb), radius=r, fill=dark)
    d.rectangle((x0, y0 + hb - r, x1 - 1, y0 + hb), fill=dark)
    d.rectangle((x0, y0 + r, x0 + bw - 1, y1 - r), fill=dark)
    d.rectangle((x1 - bw, y0 + r, x1 - 1, y1 - r), fill=dark)

    # Cost top-left: plain on the band, or boxed on a trading card (as printed).
    cs = round(40 * s)
    cx0, cy0 = x0 + round(7 * s), y0 + (hb - cs) // 2
    if ct.trading:
        d.rectangle((cx0, cy0, cx0 + cs, cy0 + cs), fill=S.WHITE, outline=S.INK, width=max(2, round(3 * s)))
        inset = max(3, round(5 * s))
        inner = (cx0 + inset, cy0 + inset, cx0 + cs - inset, cy0 + cs - inset)
        d.rectangle(inner, outline=dark, width=max(1, round(s)))
        cv.text((cx0 + inset + 1, cy0 + inset, cx0 + cs - inset, cy0 + cs - inset), str(ct.cost), tag=f"{tag}.cost",
                style="condbold", size=round(24 * s), min_size=8, fill=S.INK, align="center")
        icons.trade_arrows(d, cx0 + cs + round(18 * s), y0 + hb / 2, round(26 * s), S.WHITE)
    elif ct.colour != "purple":  # the Banquet's special cards are free: no cost printed (BQ-03)
        cv.text((cx0, cy0, cx0 + cs + round(6 * s), cy0 + cs), str(ct.cost), tag=f"{tag}.cost", style="bold",
                size=round(32 * s), min_size=8, fill=S.WHITE, align="left")

    # Colour badge top-right (shape per colour), market roundel beside it.
    bs = round(28 * s)
    bx = x1 - round(8 * s) - bs / 2
    icons.shape(d, bx, y0 + hb / 2, bs, k.shape, S.WHITE, S.INK, max(1, round(2 * s)))
    good = market if market is not None else (market_symbol(ct) if edition == 2 else None)
    if good:
        draw_roundel(cv, bx - bs / 2 - round(20 * s), y0 + hb / 2, round(30 * s), good, f"{tag}.market")

    # Name: a fixed band on small cards (so a row lines up), only what it needs on a large one.
    pad = round(7 * s)
    name_lines = 3 if full_text else 2
    name_h = round(30 * s) * name_lines
    name_size, name_min = round(25 * s), max(9, round(13 * s))
    ny0 = y0 + hb + round(4 * s)
    if full_text:
        name_size = min(name_size, 40)
        fit = fit_text(ct.name(lang), "condbold", x1 - x0 - 2 * pad, name_h, name_size, min(name_min, 20), name_lines)
        name_h = fit.height + round(6 * s)
    cv.text((x0 + pad, ny0, x1 - pad, ny0 + name_h), ct.name(lang), tag=f"{tag}.name", style="condbold",
            size=name_size, min_size=min(name_min, 20) if full_text else name_min, lines=name_lines, fill=S.INK,
            align="center")

    # Income at the bottom: coin for rubles, shield for VP.
    ib = round(46 * s)
    iy = y1 - bw - ib
    items = [(kind_, n) for kind_, n in (("rubles", ct.rubles), ("vp", ct.vp)) if n]
    isz = round(36 * s)
    gap = round(14 * s)
    total = len(items) * isz + (len(items) - 1) * gap
    ix = x0 + (w - total) / 2
    for kind_, n in items:
        cx, cy = ix + isz / 2, iy + ib / 2
        if kind_ == "rubles":
            icons.coin(d, cx, cy, isz)
            fill = S.INK
        else:
            icons.shield(d, cx, cy, isz)
            fill = S.WHITE
        q = round(isz * 0.36)
        cv.text((int(cx - q), int(cy - q), int(cx + q), int(cy + q)), str(n), tag=f"{tag}.{kind_}", style="condbold",
                size=round(22 * s), min_size=7, fill=fill, align="center")
        ix += isz + gap

    # Middle: worker symbols and/or the ability text.
    ay0, ay1 = ny0 + name_h + round(2 * s), iy - round(2 * s)
    text = ct.text(lang) if full_text else short_ability(ct, lang)
    syms = [sym for sym in ("wood", "gold", "cloth", "fur", "ship", "wheat") if sym in ct.symbols]
    if syms:
        big = len(syms) == 1 and not text
        room = (w - 2 * pad - (len(syms) - 1) * round(2 * s)) // len(syms)  # six symbols (IBG-05) in a row
        ss = min(round((52 if big else 28) * s), (ay1 - ay0) if big else round(30 * s), room)
        step = ss + round(2 * s)
        sx = x0 + (w - (len(syms) * step - round(2 * s))) / 2 + ss / 2
        sy = (ay0 + ay1) / 2 if big else ay0 + ss / 2
        for sym in syms:
            icons.worker_symbol(d, sx, sy, ss, sym)
            sx += step
        if not big:
            ay0 += ss + round(4 * s)
    elif ct.colour == "yellow" and good:  # a market card: its symbols, large (MK-29)
        n = max(1, ct.market_count)
        ss = min(round(40 * s), (ay1 - ay0) if n <= 2 else (ay1 - ay0) // 2, (w - 2 * pad) // min(n, 2) - 4)
        for i in range(n):
            row, col = divmod(i, 2)
            in_row = min(2, n - row * 2)
            rows = (n + 1) // 2
            rx = x0 + w / 2 + (col - (in_row - 1) / 2) * (ss + 4)
            ry = (ay0 + ay1) / 2 + (row - (rows - 1) / 2) * (ss + 2)
            draw_roundel(cv, rx, ry, ss, good, f"{tag}.good.{i}")
        if text:
            ay0 = ay1
    elif not text:
        ps = min(round(46 * s), ay1 - ay0)
        icons.shape(d, x0 + w / 2, (ay0 + ay1) / 2, ps, k.shape, None, dark, max(1, round(2 * s)))
    if text and ay1 - ay0 > 8:
        if full_text:
            size, min_size, lines = 30, 14, 14
        else:
            size, min_size, lines = round(17 * s), max(8, round(12 * s)), 4
        cv.text((x0 + pad, ay0, x1 - pad, ay1), text, tag=f"{tag}.text", style="cond", size=size, min_size=min_size,
                lines=lines, fill=S.INK, align="center")
