"""Colours, shapes and the fixed PNG palette shared by every image.

Every colour the renderer draws with is listed here, so the output can be mapped onto one fixed
palette (fast, deterministic, small PNGs) instead of being quantized adaptively per image.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PIL import Image

RGB = tuple[int, int, int]

# --- page -------------------------------------------------------------------------------------
BG: RGB = (244, 239, 228)  # page
PANEL: RGB = (252, 250, 245)  # boxes on the page
PANEL_DIM: RGB = (232, 226, 213)  # inactive boxes
LINE: RGB = (120, 110, 95)  # thin frames
INK: RGB = (28, 28, 30)  # text
INK_SOFT: RGB = (90, 86, 80)  # secondary text
WHITE: RGB = (255, 255, 255)
HILITE: RGB = (242, 176, 0)  # the player to decide
HILITE_TINT: RGB = (255, 236, 170)
GOOD: RGB = (30, 120, 60)  # "can play now"
BAD: RGB = (170, 40, 40)  # "cannot play now"
GREY: RGB = (150, 150, 150)
GREY_TINT: RGB = (214, 212, 208)

# --- card kinds -------------------------------------------------------------------------------
GREEN_DARK: RGB = (34, 110, 52)
GREEN_TINT: RGB = (218, 238, 212)
BLUE_DARK: RGB = (24, 92, 168)
BLUE_TINT: RGB = (212, 228, 246)
RED_DARK: RGB = (178, 34, 38)
RED_TINT: RGB = (246, 214, 212)
ORANGE_DARK: RGB = (204, 96, 0)  # aristocrats of the 1st edition
ORANGE_TINT: RGB = (250, 226, 196)
PURPLE_DARK: RGB = (108, 52, 150)  # the Banquet's special cards (BQ-03)
PURPLE_TINT: RGB = (232, 220, 244)
TRADING_DARK: RGB = (96, 72, 40)  # the trading stack's back
TRADING_TINT: RGB = (236, 222, 196)

# --- money, points, goods ---------------------------------------------------------------------
COIN: RGB = (246, 196, 40)
COIN_EDGE: RGB = (150, 104, 0)
SHIELD: RGB = (52, 58, 84)
WOOD: RGB = (140, 86, 40)
WOOD_LIGHT: RGB = (214, 168, 110)
GOLD: RGB = (238, 190, 20)
CLOTH: RGB = (200, 40, 60)
FUR: RGB = (120, 84, 60)
FUR_LIGHT: RGB = (186, 150, 118)
SEA: RGB = (70, 130, 190)
LEAF: RGB = (80, 160, 60)

# --- players (Okabe-Ito: distinguishable with colour-blindness; each also has a marker shape) --
# the fifth seat plays black (P5-03: „Er spielt die Farbe schwarz“)
PLAYER_COLOURS: tuple[RGB, ...] = ((0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167), (0, 0, 0))
PLAYER_MARKERS = ("circle", "square", "triangle", "diamond", "star")


@dataclass(frozen=True, slots=True)
class Kind:
    """How one card colour is drawn: dark and tint colour plus a shape badge (for colour-blind readers)."""

    colour: str
    dark: RGB
    tint: RGB
    shape: str  # circle, square, diamond


def kind(colour: str, edition: int) -> Kind:
    """The drawing style of a card colour; aristocrats are orange in the 1st edition."""
    if colour == "green":
        return Kind("green", GREEN_DARK, GREEN_TINT, "circle")
    if colour == "blue":
        return Kind("blue", BLUE_DARK, BLUE_TINT, "square")
    if colour == "yellow":  # the Market's cards (MK-29): existing palette colours, the palette is full
        return Kind("yellow", COIN_EDGE, HILITE_TINT, "hexagon")
    if colour == "purple":  # the Banquet's special cards (BQ-03): taken into hand, played as an action
        return Kind("purple", PURPLE_DARK, PURPLE_TINT, "star")
    if colour == "crate":  # the orange crates (MK-32)
        return Kind("crate", ORANGE_DARK, ORANGE_TINT, "hexagon")
    if edition == 1:
        return Kind("red", ORANGE_DARK, ORANGE_TINT, "diamond")
    return Kind("red", RED_DARK, RED_TINT, "diamond")


DECK_COLOUR = {"workers": "green", "buildings": "blue", "aristocrats": "red", "market": "yellow"}


def deck_style(deck: str, edition: int) -> Kind:
    """The style of a stack's back (the trading stack has its own)."""
    if deck in DECK_COLOUR:
        return kind(DECK_COLOUR[deck], edition)
    return Kind("trading", TRADING_DARK, TRADING_TINT, "box")


BASE_COLOURS: tuple[RGB, ...] = (
    BG, PANEL, PANEL_DIM, LINE, INK, INK_SOFT, WHITE, HILITE, HILITE_TINT, GOOD, BAD, GREY, GREY_TINT,
    GREEN_DARK, GREEN_TINT, BLUE_DARK, BLUE_TINT, RED_DARK, RED_TINT, ORANGE_DARK, ORANGE_TINT,
    TRADING_DARK, TRADING_TINT, COIN, COIN_EDGE, SHIELD, WOOD, WOOD_LIGHT, GOLD, CLOTH, FUR, FUR_LIGHT,
    SEA, LEAF, *PLAYER_COLOURS, (0, 0, 0), PURPLE_DARK, PURPLE_TINT,
)
# Text is drawn in ink on light colours and in white on dark ones: those blends get palette entries.
BLEND_STEPS = (0.2, 0.4, 0.6, 0.8)


def _blend(a: RGB, b: RGB, k: float) -> RGB:
    """The colour ``k`` of the way from ``a`` to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * k), round(a[1] + (b[1] - a[1]) * k), round(a[2] + (b[2] - a[2]) * k))


def is_light(c: RGB) -> bool:
    """Light colours carry dark text, dark ones white text."""
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 150


@cache
def palette_colours() -> tuple[RGB, ...]:
    """The fixed palette: base colours, text-over-colour blends, a grey ramp (at most 256 entries)."""
    out: list[RGB] = []
    seen: set[RGB] = set()

    def add(c: RGB) -> None:
        if c not in seen:
            seen.add(c)
            out.append(c)

    for c in BASE_COLOURS:
        add(c)
    for c in BASE_COLOURS:
        ink = INK if is_light(c) else WHITE
        for k in BLEND_STEPS:
            add(_blend(c, ink, k))
    for c in (BG, PANEL, PANEL_DIM, HILITE_TINT, GREY_TINT, WHITE):
        for ink in (INK_SOFT, GOOD, BAD, SHIELD):
            add(_blend(c, ink, 0.33))
            add(_blend(c, ink, 0.67))
    for g in range(0, 256, 32):
        add((g, g, g))
    if len(out) > 256:
        raise AssertionError(f"palette too large: {len(out)}")
    return tuple(out)


@cache
def palette_image() -> Image.Image:
    """A 1x1 "P" image carrying the fixed palette, for ``Image.quantize(palette=...)``."""
    cols = palette_colours()
    flat = [v for c in cols for v in c]
    flat += list(cols[0]) * (256 - len(cols))
    im = Image.new("P", (1, 1))
    im.putpalette(flat)
    return im
