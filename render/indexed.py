"""Pictures drawn straight onto the fixed palette: a canvas is an "L" image whose values are palette indices.

Every colour the renderer draws with is on the palette (``render.style``), and only text is anti-aliased, so
drawing indices gives the pixels that drawing in RGB and mapping the picture onto the palette afterwards gives,
without the mapping of every pixel (2-3 ms a board) and with a quarter of the memory to fill and copy:
- a flat colour becomes the index Pillow's mapping gives it (``index_of``);
- a text line over one colour becomes, pixel by pixel, the index of that colour blended with the text's as
  Pillow blends them (``glyph``: the line's mask through a table of the 256 blends, kept);
- a text line over several colours (rare) is blended in RGB and mapped, over its own box only.
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from .fonts import text_mask
from .style import RGB, palette_image

_lock = threading.Lock()
_index: dict[RGB, int] = {}


def _mapped(image: Image.Image) -> Image.Image:
    """An RGB image mapped onto the palette, as an "L" image of indices."""
    pal = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    return Image.frombytes("L", pal.size, pal.tobytes())


def index_of(colour: Any) -> int:
    """The palette index of an RGB colour (an int is an index already)."""
    if isinstance(colour, int):
        return colour
    rgb: RGB = (int(colour[0]), int(colour[1]), int(colour[2]))
    found = _index.get(rgb)
    if found is None:
        found = _mapped(Image.new("RGB", (1, 1), rgb)).tobytes()[0]
        with _lock:
            _index[rgb] = found
    return found


@cache
def palette_bytes() -> bytes:
    return bytes(palette_image().getpalette() or [])


def to_rgb(image: Image.Image) -> Image.Image:
    """An "L" image of indices as the RGB picture it stands for."""
    pal = Image.frombytes("P", image.size, image.tobytes())
    pal.putpalette(palette_bytes())
    return pal.convert("RGB")


class IndexDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` on an "L" image of indices that takes RGB colours (as the renderer writes them)."""

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        return super()._getink(None if ink is None else index_of(ink), None if fill is None else index_of(fill))


@lru_cache(maxsize=4096)
def _blends(under: int, over: int) -> tuple[int, ...]:
    """For each opacity 0-255 of a text pixel, the index of colour ``over`` pasted on colour ``under``."""
    rgb = to_rgb(Image.new("L", (256, 1), under))
    rgb.paste(to_rgb(Image.new("L", (1, 1), over)).getpixel((0, 0)), (0, 0),  # type: ignore[arg-type]
              Image.frombytes("L", (256, 1), bytes(range(256))))
    return tuple(_mapped(rgb).tobytes())


@lru_cache(maxsize=8192)
def glyph(line: str, style: str, size: int, under: int, over: int) -> Image.Image:
    """A text line in colour ``over`` on colour ``under``, as indices (the box of its ink)."""
    mask, _ = text_mask(line, style, size)
    return mask.point(list(_blends(under, over)))


def paste(image: Image.Image, part: Image.Image, at: tuple[int, int], mask: Image.Image | None = None) -> None:
    """``image.paste(part, at, mask)`` for images of the same mode made in memory, straight through Pillow's core:
    the same pixels without ``Image.paste``'s checks and conversions, which cost ten times the copy of a small
    part (a board pastes about a hundred)."""
    x, y = at
    box = (x, y, x + part.width, y + part.height)
    if mask is None:
        image.im.paste(part.im, box)
    else:
        image.im.paste(part.im, box, mask.im)


def paste_text(image: Image.Image, line: str, style: str, size: int, colour: RGB, at: tuple[int, int]) -> None:
    """Draw a text line (its ink box's top left at ``at``) on an "L" image of indices."""
    mask, _ = text_mask(line, style, size)
    box = (at[0], at[1], at[0] + mask.width, at[1] + mask.height)
    under = image.crop(box)
    lo, hi = under.getextrema()
    over = index_of(colour)
    if lo == hi and box[0] >= 0 and box[1] >= 0 and box[2] <= image.width and box[3] <= image.height:
        paste(image, glyph(line, style, size, lo, over), at)
        return
    rgb = to_rgb(under)
    rgb.paste(colour, (0, 0), mask)
    paste(image, _mapped(rgb), at)
