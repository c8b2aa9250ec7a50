"""The card lookup image (``card NAME``): the card face, large, beside its facts in words."""

from __future__ import annotations

from rules.cards import CardType, any_type

from . import icons
from . import style as S
from .canvas import Canvas
from .cardface import CARD_RATIO, draw_card, draw_roundel
from .common import MARGIN, card_type
from .text import edition_name, tr

WIDTH = 1100
CARD_W = 420


def _kind_text(ct: CardType, lang: str) -> str:
    """"Worker · 6 in the game"."""
    if ct.colour == "purple":
        kind = tr("kind.purple", lang)
    else:
        kind = tr(f"kind.trading.{ct.colour}", lang) if ct.trading else tr(f"kind.{ct.deck}", lang)
    copies = tr("copy", lang) if ct.count == 1 else tr("copies", lang, n=ct.count)
    return f"{kind} · {copies}"


def _income_text(ct: CardType, lang: str) -> str:
    """What the card pays at its scoring, in words."""
    parts = []
    if ct.rubles:
        parts.append(tr("income_ruble", lang) if ct.rubles == 1 else tr("income_rubles", lang, n=ct.rubles))
    if ct.vp:
        parts.append(tr("income_vp", lang, n=ct.vp))
    if not parts:
        return tr("income_none", lang)
    return tr("income", lang, income=", ".join(parts))


def draw_lookup(card_id: str, edition: int, lang: str = "en") -> Canvas:
    """Lay out and draw one card with its facts."""
    ct = any_type(edition, card_id) or card_type(card_id, edition)  # the expansions' cards too
    ch = round(CARD_W * CARD_RATIO)
    height = 2 * MARGIN + ch
    cv = Canvas(WIDTH, height, S.BG)
    draw_card(cv, (MARGIN, MARGIN, MARGIN + CARD_W, MARGIN + ch), ct, edition, lang, tag="lookup.card", full_text=True)
    x0, x1 = MARGIN + CARD_W + 36, WIDTH - MARGIN
    y = MARGIN
    k = S.kind(ct.colour, edition)
    cv.text((x0, y, x1, y + 112), ct.name(lang), tag="lookup.name", style="bold", size=44, min_size=24, lines=2,
            fill=S.INK, valign="top")
    y += 116
    icons.shape(cv.draw, x0 + 16, y + 22, 28, k.shape, k.dark, S.INK, 2)
    cv.text((x0 + 40, y, x1, y + 44), _kind_text(ct, lang), tag="lookup.kind", style="bold", size=27, min_size=15,
            fill=S.INK)
    y += 48
    cv.text((x0, y, x1, y + 34), edition_name(edition, lang), tag="lookup.edition", size=23, min_size=14,
            fill=S.INK_SOFT)
    y += 50
    if ct.trading:
        icons.shape(cv.draw, x0 + 16, y + 20, 30, "box", S.WHITE, S.INK, 3)
    cv.text((x0 + (40 if ct.trading else 0), y, x1, y + 40), tr("cost", lang, n=ct.cost), tag="lookup.cost",
            size=27, min_size=15, fill=S.INK)
    y += 48
    cv.text((x0, y, x1, y + 40), _income_text(ct, lang), tag="lookup.income", size=27, min_size=15, fill=S.INK)
    y += 52
    if ct.trading:
        cv.text((x0, y, x1, y + 76), tr(f"displaces.{ct.colour}", lang), tag="lookup.displaces", size=25,
                min_size=14, lines=2, fill=S.INK, valign="top")
        y += 84
    if edition == 2 and ct.market:
        cap = tr("market_one", lang) if len(ct.market) == 1 else tr("market", lang)
        cv.text((x0, y, x1, y + 36), cap, tag="lookup.market", style="bold", size=24, min_size=14, fill=S.INK)
        y += 40
        goods = list(ct.market)
        size = 44
        for i, good in enumerate(goods):
            draw_roundel(cv, x0 + size / 2 + i * (size + 10), y + size / 2, size, good, f"lookup.market.{i}")
        y += size + 6
        names = ", ".join(tr(f"good.{g}", lang) for g in goods)
        cv.text((x0, y, x1, y + 66), names, tag="lookup.goods", size=22, min_size=13, lines=2, fill=S.INK_SOFT,
                valign="top")
    return cv
