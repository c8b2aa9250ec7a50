"""A drawing surface that records every text it places, so tests can prove nothing overflows."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from PIL import Image, ImageDraw

from .fonts import ELLIPSIS, Fit, drawable, fit_text, text_mask, text_width
from .style import RGB, palette_image

Box = tuple[int, int, int, int]  # left, top, right, bottom (right/bottom exclusive)

PNG_COMPRESS_LEVEL = 1  # measured: 3 takes 45 % longer for 10 % less size, 6 twice as long


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
    """An RGB image plus the record of its texts."""

    width: int
    height: int
    bg: RGB
    image: Image.Image = field(init=False)
    draw: ImageDraw.ImageDraw = field(init=False)
    texts: list[TextBox] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.image = Image.new("RGB", (self.width, self.height), self.bg)
        self.draw = ImageDraw.Draw(self.image)

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
                    self.image.paste(fill, (x + left, y + top), mask)
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
        part.draw = ImageDraw.Draw(part.image)
        part.width, part.height = part.image.size
        paint(part, cx - box[0], cy - box[1])
        self.image.paste(part.image, box[:2])

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

    def to_png(self) -> bytes:
        """The image on the fixed palette, as PNG bytes."""
        return encode_png(self.image)


def encode_png(image: Image.Image) -> bytes:
    """Map an RGB image onto the fixed palette (no dithering) and encode it as PNG."""
    pal = image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buf.getvalue()
