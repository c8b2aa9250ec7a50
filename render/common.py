"""Pieces shared by the images: layout constants, player names and markers, stat badges, the legend."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.cards import CardType, any_type, catalogue
from rules.i18n import t

from . import icons
from . import style as S
from .canvas import Box, Canvas
from .text import tr

MARGIN = 24
# The base game's phases in order, with the stack that refills the display and their start-player token.
PHASES: tuple[tuple[str, str, str], ...] = (
    ("workers", "workers", "hammer"),
    ("buildings", "buildings", "cathedral"),
    ("aristocrats", "aristocrats", "bust"),
    ("trading", "trading", "hand"),
)
TOKEN_DECK = {tok: deck for _, deck, tok in PHASES} | {"sack": "market"}
COLOUR_PHASE = {"green": "workers", "blue": "buildings", "red": "aristocrats", "yellow": "market"}


def extras(view: dict[str, Any]) -> tuple[str, ...]:
    """The card files whose cards the view may name, in the catalogue's order (a Market game's view
    has a "market" field, a Banquet game's a "banquet" field)."""
    return tuple(key for key in ("market", "banquet") if view.get(key))


def phases(view: dict[str, Any]) -> tuple[tuple[str, str, str], ...]:
    """The round's phases as (phase, stack, token): the view's own list in a Market game, else the base's."""
    if not view.get("market") or not view.get("phases"):
        return PHASES
    return tuple((str(p["key"]), str(p["deck"]), str(p["token"])) for p in view["phases"])


def card_type(card_id: str, edition: int, extra: tuple[str, ...] = ()) -> CardType:
    """The catalogue entry of ``card_id`` (in ``extra``'s card files, else in any expansion's of the
    edition, e.g. In bester Gesellschaft's); ValueError if the edition has no such card."""
    ct = catalogue(edition, extra).by_id.get(card_id) or any_type(edition, card_id)
    if ct is None:
        raise ValueError(f"no card {card_id!r} in edition {edition}")
    return ct


def player_name(view: dict[str, Any], seat: int) -> str:
    """A player's name as chosen by them (it may be long: draw it with ``Canvas.text_named``)."""
    return str(view["players"][seat]["name"])


def you(view: dict[str, Any], seat: int, lang: str) -> str:
    """" (you)" after the viewer's own name, and " · away until 3 Dec" after a member away (public: the bot
    puts ``away`` into the spectator's view of a seat, the rules core knows nothing of it)."""
    mine = f" ({tr('you', lang)})" if view.get("viewer") == seat else ""
    away = view["players"][seat].get("away") if seat < len(view.get("players", ())) else None
    return mine + (f" · {tr('away', lang, date=away)}" if away else "")


def suffixed(suffix: str) -> Callable[[str], str]:
    """``name -> name + suffix`` (for ``Canvas.text_named``)."""

    def make(name: str) -> str:
        return name + suffix

    return make


def player_marker(cv: Canvas, cx: float, cy: float, size: float, seat: int) -> None:
    """The player's colour and shape (the same in the board, the table and the chart)."""
    col = S.PLAYER_COLOURS[seat % len(S.PLAYER_COLOURS)]
    icons.shape(cv.draw, cx, cy, size, S.PLAYER_MARKERS[seat % len(S.PLAYER_MARKERS)], col, S.INK, 2)


def token_icon(cv: Canvas, cx: float, cy: float, size: float, tok: str, edition: int) -> None:
    """A start-player token ringed in the colour of its phase's stack."""
    st = S.deck_style(TOKEN_DECK.get(tok, "trading"), edition)
    icons.token(cv.draw, cx, cy, size, tok, st.dark)


def stat(cv: Canvas, box: Box, icon: str, value: str, tag: str, size: int = 30) -> None:
    """An icon (vp, rubles, hand) followed by its value, inside ``box``."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    isz = round(h * 0.8)
    cx, cy = x0 + isz / 2, (y0 + y1) / 2
    if icon == "vp":
        icons.shield(cv.draw, cx, cy, isz)
    elif icon == "rubles":
        icons.coin(cv.draw, cx, cy, isz)
    else:
        icons.hand_cards(cv.draw, cx, cy, isz)
    cv.text((x0 + isz + 6, y0, x1, y1), value, tag=tag, style="bold", size=size, min_size=14, fill=S.INK)


def phase_name(phase: str, lang: str) -> str:
    """A phase's name in ``lang`` (the rules' own phase.* strings)."""
    return t(f"phase.{phase}", lang)


def legend(cv: Canvas, box: Box, edition: int, lang: str, market: bool = False, purple: bool = False) -> None:
    """One line explaining the shapes: colour badges (the Market's yellow with ``market``, the Banquet's
    special cards with ``purple``), boxed cost, coin and shield."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    items: list[tuple[str, str]] = [
        ("green", phase_name("workers", lang)),
        ("blue", phase_name("buildings", lang)),
        ("red", phase_name("aristocrats", lang)),
        *([("yellow", phase_name("market", lang))] if market else []),
        *([("purple", tr("legend_purple", lang))] if purple else []),
        ("trading", tr("legend_trading", lang)),
        ("rubles", t("word.rubles", lang)),
        ("vp", t("word.vp", lang)),
    ]
    slot = (x1 - x0) // len(items)
    widths = [slot] * len(items)
    widths[3 + market + purple] = slot * 2  # the trading explanation is the longest
    scale = (x1 - x0) / sum(widths)
    x = float(x0)
    isz = round(h * 0.7)
    for (key, label), wdt in zip(items, widths, strict=True):
        wdt_px = wdt * scale
        cx, cy = x + isz / 2, y0 + h / 2
        if key in ("green", "blue", "red", "yellow", "purple"):
            k = S.kind(key, edition)
            icons.shape(cv.draw, cx, cy, isz * 0.9, k.shape, k.dark, S.INK, 2)
        elif key == "trading":
            icons.shape(cv.draw, cx, cy, isz, "box", S.WHITE, S.INK, 3)
        elif key == "rubles":
            icons.coin(cv.draw, cx, cy, isz)
        else:
            icons.shield(cv.draw, cx, cy, isz)
        cv.text((int(x + isz + 8), y0, int(x + wdt_px - 10), y1), label, tag=f"legend.{key}", style="regular",
                size=20, min_size=13, fill=S.INK_SOFT)
        x += wdt_px


def acting_seat(view: dict[str, Any]) -> int | None:
    """The seat highlighted as the one to decide (None when the game is over)."""
    if view.get("finished"):
        return None
    seat = view.get("decider")
    return int(seat if seat is not None else view["to_move"])
