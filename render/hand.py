"""The private hand image: the viewer's hand cards, each with its current price and whether it can be
played right now (``view["hand_prices"]``); with Module 5 the viewer's own assignments below them."""

from __future__ import annotations

from typing import Any

from . import assignments as AS
from . import icons
from . import style as S
from .canvas import Box, Canvas
from .cardface import CARD_RATIO, draw_card
from .common import MARGIN, card_type, extras, player_marker, player_name, stat, you
from .text import tr

CARD_W = 250
CARD_GAP = 24
MIN_WIDTH = 900
TITLE_H = 60
PRICE_H = 50
STATUS_H = 64


def _price_text(price: int | None, lang: str) -> str:
    """"4 rubles", or why a trading card has no price."""
    if price is None:
        return tr("no_target", lang)
    return tr("price_one", lang) if price == 1 else tr("price", lang, price=price)


def _status(cv: Canvas, box: Box, playable: bool, lang: str, tag: str) -> None:
    """A tick on green or a cross on grey, with the words."""
    x0, y0, x1, y1 = box
    d = cv.draw
    d.rounded_rectangle(box, radius=10, fill=S.GREEN_TINT if playable else S.GREY_TINT,
                        outline=S.GOOD if playable else S.GREY, width=3)
    cx, cy, r = x0 + 26, (y0 + y1) / 2, 12
    if playable:
        d.line([(cx - r, cy), (cx - r / 3, cy + r * 0.8), (cx + r, cy - r * 0.8)], fill=S.GOOD, width=5, joint="curve")
    else:
        d.line([(cx - r * 0.8, cy - r * 0.8), (cx + r * 0.8, cy + r * 0.8)], fill=S.BAD, width=5)
        d.line([(cx - r * 0.8, cy + r * 0.8), (cx + r * 0.8, cy - r * 0.8)], fill=S.BAD, width=5)
    cv.text((x0 + 48, y0 + 4, x1 - 8, y1 - 4), tr("playable" if playable else "not_playable", lang), tag=tag,
            style="bold", size=22, min_size=14, lines=2, fill=S.GOOD if playable else S.INK)


def draw_hand(view: dict[str, Any], lang: str = "en") -> Canvas:
    """Lay out and draw the viewer's hand."""
    edition = int(view["edition"])
    seat = view.get("viewer")
    player = view["players"][seat] if seat is not None else None
    hand: list[str] | None = player.get("hand") if player is not None else None
    prices: list[dict[str, Any]] | None = view.get("hand_prices")
    n = len(hand) if hand else 0
    ch = round(CARD_W * CARD_RATIO)
    width = max(MIN_WIDTH, 2 * MARGIN + n * CARD_W + (n - 1) * CARD_GAP)
    body = ch + 10 + (PRICE_H + 8 + STATUS_H if prices is not None else 0) if n else 120
    tasks_h = AS.height(view)  # Module 5: the viewer's own assignments (M5-19, UI-13)
    cv = Canvas(width, MARGIN + TITLE_H + 16 + body + (16 + tasks_h if tasks_h else 0) + MARGIN, S.BG)
    y = MARGIN
    if player is None or hand is None or seat is None:
        cv.text((MARGIN, y, width - MARGIN, y + TITLE_H + body), tr("hand_hidden", lang), tag="hand.hidden",
                style="bold", size=30, min_size=16, lines=2, fill=S.INK, align="center")
        return cv

    # Title: the player, their rubles and hand size.
    stats_w = 300
    player_marker(cv, MARGIN + 18, y + TITLE_H / 2, 30, seat)
    suffix = you(view, seat, lang)
    cv.text_named((MARGIN + 42, y, width - MARGIN - stats_w - 10, y + TITLE_H),
                  lambda nm: tr("hand_title", lang, name=nm + suffix), player_name(view, seat), tag="hand.title",
                  style="bold", size=34, min_size=18, fill=S.INK)
    rub = player.get("rubles")
    sx = width - MARGIN - stats_w
    stat(cv, (sx, y + 8, sx + 140, y + TITLE_H - 8), "rubles", "?" if rub is None else str(rub), "hand.rubles")
    stat(cv, (sx + 150, y + 8, sx + stats_w, y + TITLE_H - 8), "hand", f"{player['hand_count']}/{player['hand_limit']}",
         "hand.count")
    y += TITLE_H + 16
    if tasks_h:
        AS.draw_assignments(cv, view, lang, MARGIN, width - MARGIN, y + body + 16)
    if not n:
        cv.draw.rounded_rectangle((MARGIN, y, width - MARGIN, y + body), radius=14, fill=S.PANEL, outline=S.LINE,
                                  width=2)
        cv.text((MARGIN + 20, y, width - MARGIN - 20, y + body), tr("hand_empty", lang), tag="hand.empty", size=28,
                min_size=16, fill=S.INK_SOFT, align="center")
        return cv

    x = MARGIN + (width - 2 * MARGIN - (n * CARD_W + (n - 1) * CARD_GAP)) // 2
    by_index = prices if prices is not None and len(prices) == n else None
    for i, cid in enumerate(hand):
        ct = card_type(cid, edition, extras(view))
        info = by_index[i] if by_index is not None else None
        if info is not None and info.get("card") != cid:
            info = next((p for p in prices or [] if p.get("card") == cid), None)
        draw_card(cv, (x, y, x + CARD_W, y + ch), ct, edition, lang, tag=f"hand.{i}")
        if prices is not None:
            py = y + ch + 10
            price = info.get("price") if info else None
            cv.draw.rounded_rectangle((x, py, x + CARD_W, py + PRICE_H), radius=10, fill=S.PANEL, outline=S.LINE,
                                      width=2)
            if price is not None:
                icons.coin(cv.draw, x + 26, py + PRICE_H / 2, 34)
            words = _price_text(price, lang)
            if ct.colour == "purple":  # BQ-03/04: free, played as the turn's action (the Pickpocket: BQ-21)
                words = tr("pickpocket_hint" if ct.ability == "pickpocket" else "purple_price", lang)
            cv.text((x + (50 if price is not None else 10), py + 4, x + CARD_W - 10, py + PRICE_H - 4),
                    words, tag=f"hand.{i}.price", style="bold", size=26, min_size=14, lines=2, fill=S.INK)
            _status(cv, (x, py + PRICE_H + 8, x + CARD_W, py + PRICE_H + 8 + STATUS_H),
                    bool(info and info.get("playable")), lang, f"hand.{i}.playable")
        x += CARD_W + CARD_GAP
    return cv
