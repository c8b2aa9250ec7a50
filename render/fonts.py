"""Bundled DejaVu fonts (loaded once) and text fitting: wrap, shrink, and only then ellipsize."""

from __future__ import annotations

import io
import threading
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from rules.cards import DATA_DIR

FONT_DIR = DATA_DIR / "fonts"  # package data: read through importlib.resources (rules.cards.data_dir)
FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "cond": "DejaVuSansCondensed.ttf",
    "condbold": "DejaVuSansCondensed-Bold.ttf",
}
ELLIPSIS = "…"
# FreeType faces are not safe to use from two threads at once; the bot may render in worker threads.
# Only cache misses reach FreeType (drawing pastes cached masks), so the lock is rarely taken.
_FT_LOCK = threading.RLock()


@cache
def font(style: str, size: int) -> ImageFont.FreeTypeFont:
    """The font ``style`` (regular, bold, cond, condbold) at ``size`` px, loaded once per size.

    The basic layout engine keeps output identical whether or not libraqm is installed.
    """
    with _FT_LOCK:
        return ImageFont.truetype(io.BytesIO(font_bytes(style)), size, layout_engine=ImageFont.Layout.BASIC)


@cache
def font_bytes(style: str) -> bytes:
    """The font file of ``style``, read once (from a wheel's or a zip's files too)."""
    return (FONT_DIR / FONT_FILES[style]).read_bytes()


@cache
def line_height(style: str, size: int) -> int:
    """Height of one line: ascent plus descent."""
    f = font(style, size)
    with _FT_LOCK:
        asc, desc = f.getmetrics()
    return int(asc + desc)


@lru_cache(maxsize=8192)
def text_width(text: str, style: str, size: int) -> int:
    """Horizontal extent of ``text`` drawn at x=0: the wider of its advance and its ink."""
    f = font(style, size)
    with _FT_LOCK:
        left, _, right, _ = f.getbbox(text, anchor="la")
        advance = f.getlength(text)
    return int(max(right, round(advance)) - min(left, 0))


@dataclass(frozen=True, slots=True)
class Fit:
    """A text fitted into a box: the size chosen, its lines, and whether anything was cut."""

    style: str
    size: int
    lines: tuple[str, ...]
    truncated: bool

    @property
    def line_height(self) -> int:
        return line_height(self.style, self.size)

    @property
    def height(self) -> int:
        return self.line_height * len(self.lines)

    @property
    def width(self) -> int:
        return max((text_width(line, self.style, self.size) for line in self.lines), default=0)


def _tokens(text: str) -> list[str]:
    """Words, each keeping the space or hyphen after it, so a line may break after either."""
    out: list[str] = []
    cur = ""
    for ch in text:
        cur += ch
        if ch == " " or (ch == "-" and len(cur) > 1):
            out.append(cur)
            cur = ""
    if cur:
        out.append(cur)
    return out


def _wrap(text: str, style: str, size: int, width: int) -> list[str] | None:
    """Greedy word wrap; None if some word alone is wider than ``width``."""
    lines: list[str] = []
    cur = ""
    for tok in _tokens(text):
        trial = cur + tok
        if text_width(trial.rstrip(), style, size) <= width:
            cur = trial
            continue
        if not cur:
            return None
        lines.append(cur.rstrip())
        cur = tok
        if text_width(cur.rstrip(), style, size) > width:
            return None
    if cur.strip() or not lines:
        lines.append(cur.rstrip())
    return lines


def ellipsize(text: str, style: str, size: int, width: int) -> str:
    """``text`` cut to fit ``width``, ending in an ellipsis (empty if not even that fits)."""
    if text_width(text, style, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, style, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0:
        return ELLIPSIS if text_width(ELLIPSIS, style, size) <= width else ""
    return text[:lo].rstrip() + ELLIPSIS


@lru_cache(maxsize=8192)
def fit_text(text: str, style: str, width: int, height: int, size: int, min_size: int, max_lines: int = 1) -> Fit:
    """The largest size from ``size`` down to ``min_size`` at which ``text`` fits the box in at most
    ``max_lines`` lines; failing that, the text at ``min_size`` with its last visible line ellipsized."""
    width = max(width, 0)
    for sz in range(size, min_size - 1, -1):
        lh = line_height(style, sz)
        lines_allowed = min(max_lines, height // lh)
        if lines_allowed < 1:
            continue
        if lines_allowed == 1:
            if text_width(text, style, sz) <= width:
                return Fit(style, sz, (text,), False)
            continue
        wrapped = _wrap(text, style, sz, width)
        if wrapped is not None and len(wrapped) <= lines_allowed:
            return Fit(style, sz, tuple(wrapped), False)
    # Nothing fits: the smallest size, as many lines as the box holds, each cut to the width.
    sz = min_size
    lines_allowed = min(max_lines, height // line_height(style, sz))
    if lines_allowed < 1:
        return Fit(style, sz, (), True)
    lines: list[str] = []
    cur = ""
    for tok in _tokens(text):
        trial = cur + tok
        if cur and text_width(trial.rstrip(), style, sz) > width:
            lines.append(cur.rstrip())
            cur = tok
        else:
            cur = trial
    lines.append(cur.rstrip())
    if len(lines) > lines_allowed:
        lines = lines[: lines_allowed - 1] + [" ".join(lines[lines_allowed - 1 :])]
    return Fit(style, sz, tuple(ellipsize(line, style, sz, width) for line in lines), True)


@lru_cache(maxsize=4096)
def text_mask(text: str, style: str, size: int) -> tuple[Image.Image, tuple[int, int, int, int]]:
    """The rendered ink of one line (an "L" mask, drawn once and reused) and its box relative to the
    top-left ("la") origin."""
    f = font(style, size)
    with _FT_LOCK:
        left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor="la"))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor="la")
    return mask, (left, top, right, bottom)


_NOTDEF = "\U0010fffd"  # a code point no bundled font has: its mask is the font's .notdef box


@lru_cache(maxsize=2048)
def has_glyph(ch: str, style: str = "regular") -> bool:
    """Whether the bundled font ``style`` draws ``ch`` (not as the empty box of a missing glyph)."""
    f = font(style, 24)
    with _FT_LOCK:
        m, nd = f.getmask(ch), f.getmask(_NOTDEF)
        return not (m.size == nd.size and bytes(m) == bytes(nd))


def drawable(text: str, style: str = "regular") -> str:
    """``text`` without the characters the bundled fonts cannot draw (emoji such as 🤖 in a computer
    player's name), so no empty box appears in a picture; the spaces they leave are merged."""
    if text.isascii():
        return text
    kept = "".join(ch for ch in text if ch.isascii() or has_glyph(ch, style))
    if kept == text:
        return text
    return " ".join(part for part in kept.split(" ") if part)
