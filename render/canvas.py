"""A drawing surface that records every text it places, so tests can prove nothing overflows."""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from isal import isal_zlib
from PIL import Image, ImageChops, ImageDraw

from .fonts import ELLIPSIS, Fit, drawable, fit_text, text_mask, text_width
from .indexed import IndexDraw, index_of, palette_bytes, paste, paste_text, to_rgb
from .style import RGB, palette_image

Box = tuple[int, int, int, int]  # left, top, right, bottom (right/bottom exclusive)

# ISA-L's deflate, level 1: a 2-player board's 1.7 MB of pixels in 0.9 ms of CPU time and 78 KB, where zlib's
# level 1 (Pillow's PNG encoder) takes 5 ms for 86 KB (benchmarks/bench_render.py prints the split)
PNG_COMPRESS_LEVEL = 1
TILES = True  # False: ``Canvas.tile`` paints in place (the tests compare both)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True, slots=True)
class TextBox:
    """One text drawn: the box it was given, what was shown, and where its ink went."""

    tag: str
    text: str
    box: Box
    fit: Fit
    ink: Box  # union of the glyphs' ink boxes (measured from the rendered glyphs)
    may_cut: bool = False  # text chosen by people (names, the last action) may be ellipsized

    @property
    def shown(self) -> str:
        return "\n".join(self.fit.lines)

    @property
    def truncated(self) -> bool:
        return self.fit.truncated

    def overflow(self, tolerance: int = 0) -> int:
        """How many pixels the ink sticks out of the box (0: it fits)."""
        ink, b = self.ink, self.box
        if ink[0] >= ink[2]:
            return 0
        return max(0, b[0] - ink[0] - tolerance, b[1] - ink[1] - tolerance, ink[2] - b[2] - tolerance,
                   ink[3] - b[3] - tolerance)


@dataclass(slots=True)
class Canvas:
    """A picture plus the record of its texts. ``image`` is an "L" image of palette indices, drawn with RGB colours
    through ``draw`` (``render.indexed``); ``rgb()`` is the picture."""

    width: int
    height: int
    bg: RGB
    image: Image.Image = field(init=False)
    draw: ImageDraw.ImageDraw = field(init=False)
    texts: list[TextBox] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.image = Image.new("L", (self.width, self.height), index_of(self.bg))
        self.draw = IndexDraw(self.image)

    def text(
        self,
        box: Box,
        text: str,
        *,
        tag: str,
        style: str = "regular",
        size: int = 24,
        min_size: int | None = None,
        lines: int = 1,
        fill: RGB = (0, 0, 0),
        align: str = "left",
        valign: str = "middle",
        may_cut: bool = False,
    ) -> TextBox:
        """Draw ``text`` inside ``box``: shrunk (down to ``min_size``), wrapped (up to ``lines``), and
        ellipsized only as the last resort (``may_cut`` says that is acceptable for this text).
        Returns (and records) where it went. Characters the bundled fonts lack are left out (``drawable``)."""
        text = drawable(text, style)
        x0, y0, x1, y1 = box
        fit = fit_text(text, style, x1 - x0, y1 - y0, size, min_size if min_size is not None else size, lines)
        lh = fit.line_height
        total = lh * len(fit.lines)
        if valign == "top":
            y = y0
        elif valign == "bottom":
            y = y1 - total
        else:
            y = y0 + (y1 - y0 - total) // 2
        inks: list[Box] = []
        for line in fit.lines:
            w = text_width(line, style, fit.size)
            if align == "center":
                x = x0 + (x1 - x0 - w) // 2
            elif align == "right":
                x = x1 - w
            else:
                x = x0
            if line:
                mask, (left, top, right, bottom) = text_mask(line, style, fit.size)
                x -= min(left, 0)  # glyphs hanging left of the origin stay inside
                if right > left:
                    paste_text(self.image, line, style, fit.size, fill, (x + left, y + top))
                    inks.append((x + left, y + top, x + right, y + bottom))
            y += lh
        ink = (
            (min(b[0] for b in inks), min(b[1] for b in inks), max(b[2] for b in inks), max(b[3] for b in inks))
            if inks
            else (x0, y0, x0, y0)
        )
        rec = TextBox(tag, text, box, fit, ink, may_cut)
        self.texts.append(rec)
        return rec

    def text_named(self, box: Box, make: Callable[[str], str], name: str, **kw: Any) -> TextBox:
        """Like :meth:`text` for a sentence around a player's name: when it must be cut, the name is
        shortened (with an ellipsis) and the words around it stay whole."""
        x0, y0, x1, y1 = box
        style, size, lines = kw.get("style", "regular"), kw.get("size", 24), kw.get("lines", 1)
        min_size = kw.get("min_size") or size
        name = drawable(name, style)
        full = make(name)

        def fits(text: str) -> bool:
            return not fit_text(text, style, x1 - x0, y1 - y0, size, min_size, lines).truncated

        kw["may_cut"] = True
        if fits(full) or not name:
            return self.text(box, full, **kw)
        lo, hi = 0, len(name) - 1  # the longest prefix of the name that fits, plus the ellipsis
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if fits(make(name[:mid].rstrip() + ELLIPSIS)):
                lo = mid
            else:
                hi = mid - 1
        rec = self.text(box, make(name[:lo].rstrip() + ELLIPSIS), **kw)
        rec = replace(rec, text=full, fit=replace(rec.fit, truncated=True))
        self.texts[-1] = rec
        return rec

    def local(self, cx: float, cy: float, size: float, paint: Callable[[Canvas, float, float], None]) -> None:
        """Run ``paint(canvas, cx, cy)`` on a small copy of the area around (cx, cy) and paste it back: the
        same pixels, but Pillow's thick polygon outlines then mask a small area instead of the whole
        image (measured: a few ms on a five-player board). ``paint`` must not place texts."""
        r = int(size) + 4
        box = (max(0, int(cx) - r), max(0, int(cy) - r), min(self.width, int(cx) + r), min(self.height, int(cy) + r))
        part = Canvas(1, 1, self.bg)
        part.image = self.image.crop(box)
        part.draw = IndexDraw(part.image)
        part.width, part.height = part.image.size
        paint(part, cx - box[0], cy - box[1])
        paste(self.image, part.image, (box[0], box[1]))

    def tile(self, box: Box, paint: Painter, args: tuple[Any, ...], tag: str, page: RGB | None = None) -> None:
        """``paint(canvas, box, *args, tag=tag)`` for a part that depends on nothing but ``args`` and the box's
        size (a card face, a tableau's chip): drawn once per size and arguments (``painted``) and pasted here,
        the same pixels and text records as painting in place (``tests/render/test_layout.py`` compares them).
        ``paint`` must be a module-level function, ``args`` hashable, and what it paints must cover every pixel it
        changes (the page shows through where it paints nothing). ``page``: a part that leaves the page around
        it (a label and its icon), painted on a page of that colour: pasted where the box is all of it, else
        painted in place."""
        if not TILES or (page is not None and self.image.im.crop(box).getextrema() != (index_of(page),) * 2):
            paint(self, box, *args, tag=tag)
            return
        x0, y0, x1, y1 = box
        done = painted(paint, args, x1 - x0, y1 - y0, page)
        core = self.image.im  # pasted through Pillow's core (``render.indexed.paste``), its images kept in the tile
        for part, mask, (dx, dy, dx1, dy1) in done.cores:
            if mask is None:
                core.paste(part, (x0 + dx, y0 + dy, x0 + dx1, y0 + dy1))
            else:
                core.paste(part, (x0 + dx, y0 + dy, x0 + dx1, y0 + dy1), mask)
        self.texts.extend(TextBox(tag + r.tag, r.text, _moved(r.box, x0, y0), r.fit, _moved(r.ink, x0, y0), r.may_cut)
                          for r in done.texts)

    def problems(self) -> list[str]:
        """Layout faults, for tests: ink outside its box or the image, texts overlapping, or a text
        cut that must stay whole (card names, numbers, labels). Empty when the layout is sound."""
        out: list[str] = []
        boxes = []
        for r in self.texts:
            if r.overflow():
                out.append(f"{r.tag}: {r.shown!r} sticks {r.overflow()} px out of its box")
            x0, y0, x1, y1 = r.ink
            if x0 < x1 and (x0 < 0 or y0 < 0 or x1 > self.width or y1 > self.height):
                out.append(f"{r.tag}: {r.shown!r} is outside the image")
            if r.truncated and not r.may_cut:
                out.append(f"{r.tag}: {r.text!r} was cut to {r.shown!r}")
            if x0 < x1:
                boxes.append(r)
        boxes.sort(key=lambda r: r.ink[0])
        for i, a in enumerate(boxes):  # sweep along x: only neighbours can overlap
            for b in boxes[i + 1 :]:
                if b.ink[0] >= a.ink[2]:
                    break
                if a.ink[1] < b.ink[3] and b.ink[1] < a.ink[3]:
                    out.append(f"{a.tag}: {a.shown!r} overlaps {b.tag}: {b.shown!r}")
        return out

    def rgb(self) -> Image.Image:
        """The picture, in RGB."""
        return to_rgb(self.image)

    def to_png(self) -> bytes:
        """The picture as PNG bytes (on the fixed palette)."""
        return png_of_indices(self.image)


Painter = Callable[..., None]
Part = tuple[Image.Image, Image.Image | None, tuple[int, int]]  # pixels, mask (None: all of them), where


class Tile(NamedTuple):
    """A part painted once: its pixels, where they are the part's (not the page's), and its texts (boxes relative
    to the tile, tags after the caller's). ``parts`` are the pixels to paste: the rows where the part covers its
    whole width without a mask (a copy), the rows above and below them (round corners) with the mask."""

    texts: tuple[TextBox, ...]
    parts: tuple[Part, ...]
    bytes: int  # the memory its pixels and masks take
    cores: tuple[tuple[Any, Any, Box], ...]  # ``parts`` as Pillow's core images, and their boxes in the tile


def _tile(texts: tuple[TextBox, ...], parts: tuple[Part, ...], size: int) -> Tile:
    return Tile(texts, parts, size, tuple((im.im, None if m is None else m.im, (dx, dy, dx + im.width, dy + im.height))
                                          for im, m, (dx, dy) in parts))


TILE_BYTES = 32 << 20  # the tiles a process keeps, at most (the least recently used go first)
_tiles: OrderedDict[tuple[Any, ...], Tile] = OrderedDict()
_tiles_bytes = [0]
_tiles_lock = threading.Lock()


def painted(paint: Painter, args: tuple[Any, ...], w: int, h: int, page: RGB | None = None) -> Tile:
    """``paint`` in the box (0, 0, w, h), kept for the next call (see ``TILE_BYTES``)."""
    key = (paint, args, w, h, page)
    with _tiles_lock:
        done = _tiles.get(key)
        if done is not None:
            _tiles.move_to_end(key)
            return done
    done = _paint_tile(paint, args, w, h) if page is None else _paint_on(paint, args, w, h, page)
    with _tiles_lock:
        if key not in _tiles:
            _tiles[key] = done
            _tiles_bytes[0] += done.bytes
            while _tiles_bytes[0] > TILE_BYTES and len(_tiles) > 1:
                _, old = _tiles.popitem(last=False)
                _tiles_bytes[0] -= old.bytes
    return done


def _paint_tile(paint: Painter, args: tuple[Any, ...], w: int, h: int) -> Tile:
    """``paint`` in the box (0, 0, w, h), on two pages of different colours: where they differ the page shows (e.g.
    round corners), and the mask leaves it out. The pages are a pixel wider and higher than the box: Pillow's
    shapes include their right and bottom coordinates."""
    a, b = Canvas(w + 1, h + 1, (0, 0, 0)), Canvas(w + 1, h + 1, (255, 255, 255))
    for c in (a, b):
        paint(c, (0, 0, w, h), *args, tag="")
    mask = ImageChops.difference(a.image, b.image).convert("L").point(lambda v: 255 if v == 0 else 0)
    parts = _parts(a.image, mask)
    size = sum(im.width * im.height * (1 if m is None else 2) for im, m, _ in parts)
    return _tile(tuple(a.texts), parts, size)


def _paint_on(paint: Painter, args: tuple[Any, ...], w: int, h: int, page: RGB) -> Tile:
    """``paint`` in the box (0, 0, w, h) on a page of colour ``page``, all of it pasted."""
    c = Canvas(w, h, page)
    paint(c, (0, 0, w, h), *args, tag="")
    return _tile(tuple(c.texts), ((c.image, None, (0, 0)),), w * h)


def _parts(image: Image.Image, mask: Image.Image) -> tuple[Part, ...]:
    """``image`` cut into bands to paste (see ``Tile``): a masked paste costs several times a copy."""
    box = mask.getbbox()
    if box is None:
        return ()
    x0, y0, x1, y1 = box

    def solid(y: int) -> bool:
        return mask.crop((x0, y, x1, y + 1)).getextrema() == (255, 255)

    top = y0
    while top < y1 and not solid(top):
        top += 1
    bottom = y1
    while bottom > top and not solid(bottom - 1):
        bottom -= 1
    if top >= bottom:
        return ((image.crop(box), mask.crop(box), (x0, y0)),)
    parts: list[Part] = []
    if top > y0:
        parts.append((image.crop((x0, y0, x1, top)), mask.crop((x0, y0, x1, top)), (x0, y0)))
    parts.append((image.crop((x0, top, x1, bottom)), None, (x0, top)))
    if bottom < y1:
        parts.append((image.crop((x0, bottom, x1, y1)), mask.crop((x0, bottom, x1, y1)), (x0, bottom)))
    return tuple(parts)


def _moved(b: Box, dx: int, dy: int) -> Box:
    return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)


def encode_png(image: Image.Image) -> bytes:
    """Map an RGB image onto the fixed palette (no dithering) and encode it as an 8-bit palette PNG."""
    pal = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    return png_of_indices(Image.frombytes("L", pal.size, pal.tobytes()))


def png_of_indices(indices: Image.Image) -> bytes:
    """An "L" image of palette indices as PNG bytes: the rows with filter type 0 (none), deflated by ISA-L in one
    IDAT chunk, and the fixed palette (``Image.save(..., "PNG")`` of the same "P" image gives the same pixels,
    slower)."""
    w, h = indices.size
    # each row after its filter byte (0): Pillow's raw encoder with a stride of w + 1 writes each row followed by
    # a 0, so a 0 in front and the last one left off are the rows each after its 0 (deflated as they are, where
    # a loop copying the rows took ten times as long)
    padded = indices.tobytes("raw", "L", w + 1)
    deflate = isal_zlib.compressobj(PNG_COMPRESS_LEVEL)
    idat = b"".join((deflate.compress(b"\0"), deflate.compress(memoryview(padded)[:-1]), deflate.flush()))
    palette = palette_bytes()
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)  # 8 bits, colour type 3 (palette), no interlace
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", ihdr), _chunk(b"PLTE", bytes(palette)),
                     _chunk(b"IDAT", idat), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join((struct.pack(">I", len(data)), kind, data, struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))))
