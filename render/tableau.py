"""A player's area on the board: name, start-player tokens, VP, rubles and hand size, and the tableau by
colour as chips (cost, name, ×count, the good it counts for, face down, what lies on the card)."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any, NamedTuple

from rules.cards import CardType

from . import icons
from . import market as M
from . import style as S
from .canvas import Box, Canvas
from .cardface import draw_roundel, face_colour
from .common import (
    COLOUR_PHASE,
    acting_seat,
    card_type,
    extras,
    phase_name,
    player_marker,
    player_name,
    stat,
    suffixed,
    token_icon,
    you,
)
from .fonts import fit_text
from .text import tr

CHIP_H = 36  # one line
CHIP_LINE2 = 22  # a second line: a long name or "face down"
CHIP_COST = 26
CHIP_COUNT_W = 50
CHIP_GAP = 6
CHIP_ROUNDEL = 30  # a good's roundel on a chip (Market games)
PLAYER_HEADER_H = 62
COLUMN_HEADER_H = 34


# --- layout -----------------------------------------------------------------------------------
# type, count, face down, good shown (Market games), marks (the Banquet: what lies on the card)
Entry = tuple[CardType, int, bool, str | None, tuple[str, ...]]


def _marks(view: dict[str, Any], seat: int) -> dict[int, tuple[str, ...]]:
    """X-08: per tableau index, what lies on the card: the Jester or Banquet attached (their card ids)
    and "chip" for the Money Collector's chip (BQ-11, BQ-16, BQ-17)."""
    bq = view.get("banquet")
    if not bq:
        return {}
    out: dict[int, list[str]] = {}
    for a in bq.get("attachments", []):
        if a.get("seat") == seat:
            out.setdefault(int(a["index"]), []).append(str(a["attachment"]))
    chip = bq.get("chip")
    if chip and chip.get("seat") == seat:
        out.setdefault(int(chip["index"]), []).append("chip")
    return {i: tuple(m) for i, m in out.items()}


def _tableau_columns(view: dict[str, Any], seat: int) -> dict[str, list[Entry]]:
    """The tableau grouped by colour, identical cards counted: colour -> [(type, count, face_down, good,
    marks)]. In a Market game copies with different goods (per copy, or a "?" card's token) stay
    apart; so does a card with a Jester, a Banquet or the Money Collector's chip on it."""
    edition, extra = int(view["edition"]), extras(view)
    seen: Counter[str] = Counter()
    marks = _marks(view, seat)
    keys: list[tuple[str, bool, str | None, tuple[str, ...]]] = []
    for i, e in enumerate(view["players"][seat]["tableau"]):
        good = None
        if view.get("market"):
            good = M.good_of_card(view, seat, e["card"], e.get("market"), seen[e["card"]])
            if e.get("market") == "?":
                seen[e["card"]] += 1
        keys.append((e["card"], bool(e.get("face_down")), good, marks.get(i, ())))
    counts: Counter[tuple[str, bool, str | None, tuple[str, ...]]] = Counter(keys)
    cols: dict[str, list[Entry]] = {c: [] for c in M.tableau_colours(view)}
    for (cid, down, good, mk), n in counts.items():
        ct = card_type(cid, edition, extra)
        cols.setdefault(ct.colour, []).append((ct, n, down, good, mk))
    for entries in cols.values():
        entries.sort(key=lambda e: (e[0].trading, e[0].cost, e[0].id, e[2], e[3] or "", e[4]))
    return cols


def _marks_text(marks: tuple[str, ...], edition: int, lang: str) -> str:
    """"+ Jester · chip: no VP"."""
    parts = []
    attached = [card_type(m, edition, ("banquet",)).name(lang) for m in marks if m != "chip"]
    if attached:
        parts.append(tr("attached", lang, names=", ".join(attached)))
    if "chip" in marks:
        parts.append(tr("covered", lang))
    return " · ".join(parts)


class ChipLayout(NamedTuple):
    """How a chip is laid out: its height, its name's lines, whether ×count sits on a line of its own
    and whether the good's roundel sits under the cost (the Market's narrow columns only)."""

    height: int
    lines: int
    count_below: bool = False
    good_left: bool = False
    narrow: bool = False


def _chip_name_box(x0: int, y0: int, x1: int, count: int, good: str | None = None) -> tuple[int, int, int]:
    """Left, top and right of a chip's name (a good's roundel takes room on the right)."""
    return x0 + 14 + CHIP_COST, y0 + 2, x1 - (CHIP_COUNT_W + 8 if count > 1 else 8) - (CHIP_ROUNDEL if good else 0)


def _name_lines(name: str, width: int, most: int) -> tuple[int, int]:
    """The fewest lines (up to ``most``) a narrow chip's name fits in, and the font size then;
    ``most + 1`` lines when none does."""
    for lines in range(1, most + 1):
        h = CHIP_H - 6 + (lines - 1) * CHIP_LINE2
        fit = fit_text(name, "condbold", width, h, 21, 16 if lines == 1 else 13, lines)
        if not fit.truncated:
            return lines, fit.size
    return most + 1, 0


def _chip_layout(ct: CardType, count: int, face_down: bool, width: int, lang: str, good: str | None = None,
                 narrow: bool = False, marks: tuple[str, ...] = ()) -> ChipLayout:
    """A chip's layout: two name lines when one would need a tiny font. ``narrow`` (the Market's four
    columns): up to three lines, the roundel moves under the cost and then ×count below the name when
    the name does not fit beside them."""
    down = (CHIP_LINE2 if face_down else 0) + (CHIP_LINE2 if marks else 0)  # "face down"; what lies on it
    if not narrow:
        nx0, _, nx1 = _chip_name_box(0, 0, width, count, good)
        one = fit_text(ct.name(lang), "condbold", nx1 - nx0, CHIP_H - 4, 21, 16, 1)
        lines = 1 if not one.truncated else 2
        return ChipLayout(CHIP_H + (CHIP_LINE2 if lines == 2 else 0) + down, lines)
    name = ct.name(lang)
    best: tuple[bool, int, int, ChipLayout] | None = None  # name cut, height, -font size: lowest, largest
    for left in (False, True) if good else (False,):
        for below in (False, True) if count > 1 else (False,):
            nx0, _, nx1 = _chip_name_box(0, 0, width, 1 if below else count, None if left else good)
            lines, size = _name_lines(name, nx1 - nx0, 3)
            fits = lines <= 3
            lines = max(min(lines, 3), 2 if left else 1)
            h = CHIP_H + (lines - 1) * CHIP_LINE2 + down + (CHIP_LINE2 if below else 0)
            option = (not fits, h, -size, ChipLayout(h, lines, below, left, True))
            if best is None or option[:3] < best[:3]:
                best = option
    assert best is not None
    return best[3]


def _column_width(area_w: int, n: int = 3) -> int:
    """Width of one of ``n`` colour columns in a player's area."""
    return (area_w - 2 * 12 - (n - 1) * 10) // n


def _column_height(entries: list[Entry], width: int, lang: str, narrow: bool) -> int:
    """Height of a colour column's chips."""
    return sum(
        _chip_layout(ct, n, down, width, lang, good, narrow, mk)[0] + CHIP_GAP for ct, n, down, good, mk in entries
    )


def player_height(view: dict[str, Any], seat: int, area_w: int, lang: str) -> int:
    """Height of a player's area: header, column headers and the longest column."""
    cols = _tableau_columns(view, seat)
    cw = _column_width(area_w, len(cols))
    body = max([_column_height(e, cw, lang, len(cols) > 3) for e in cols.values()] + [CHIP_H + CHIP_GAP])
    return PLAYER_HEADER_H + 10 + COLUMN_HEADER_H + 6 + body + 8


# --- drawing ----------------------------------------------------------------------------------
def _chip(cv: Canvas, box: Box, entry: Entry, layout: ChipLayout, edition: int, lang: str, tag: str) -> None:
    """One entry of a tableau: cost (boxed for trading cards), name, ×count, the good, "face down"; painted once
    a size and entry (``Canvas.tile``)."""
    cv.tile(box, _paint_chip, (entry, layout, edition, lang), tag)


def _paint_chip(cv: Canvas, box: Box, entry: Entry, layout: ChipLayout, edition: int, lang: str, *, tag: str) -> None:
    ct, count, face_down, good, marks = entry
    name_lines, below = layout.lines, layout.count_below
    x0, y0, x1, y1 = box
    d = cv.draw
    k = S.kind(face_colour(ct), edition)
    fill = S.GREY_TINT if face_down else k.tint
    d.rounded_rectangle(box, radius=8, fill=fill, outline=S.GREY if face_down else k.dark, width=2)
    if face_down:
        icons.hatch(d, (x0 + 3, y0 + 3, x1 - 3, y1 - 3), S.PANEL, step=12, width=3)
    cs = CHIP_COST
    cy0 = y0 + 5
    cbox = (x0 + 8, cy0 + 2, x0 + 6 + cs, cy0 + cs - 2)
    if ct.trading:
        d.rectangle((x0 + 5, cy0, x0 + 5 + cs, cy0 + cs), fill=S.WHITE, outline=S.INK, width=2)
        cv.text(cbox, str(ct.cost), tag=f"{tag}.cost", style="condbold", size=18, min_size=10, fill=S.INK,
                align="center")
    else:
        d.rectangle((x0 + 5, cy0, x0 + 5 + cs, cy0 + cs), fill=k.dark)
        cv.text(cbox, str(ct.cost), tag=f"{tag}.cost", style="condbold", size=18, min_size=10, fill=S.WHITE,
                align="center")
    nx0, ny0, nx1 = _chip_name_box(x0, y0, x1, 1 if below else count, None if layout.good_left else good)
    if good and layout.good_left:  # the good it counts for (a "?" card: its token's), under the cost
        draw_roundel(cv, x0 + 5 + cs / 2, cy0 + cs + 4 + CHIP_LINE2 / 2, CHIP_ROUNDEL - 6, good, f"{tag}.good")
    elif good:
        draw_roundel(cv, nx1 + 4 + (CHIP_ROUNDEL - 4) / 2, y0 + CHIP_H / 2, CHIP_ROUNDEL - 4, good, f"{tag}.good")
    if count > 1 and not below:
        cv.text((x1 - CHIP_COUNT_W - 6, y0 + 2, x1 - 8, y0 + CHIP_H - 2), f"×{count}", tag=f"{tag}.count",
                style="bold", size=22, min_size=14, fill=S.INK, align="right")
    name_h = CHIP_H - 4 + (name_lines - 1) * CHIP_LINE2
    top = 2 if layout.narrow else 0
    cv.text((nx0, ny0 + top, nx1, ny0 + name_h), ct.name(lang), tag=f"{tag}.name", style="condbold", size=21,
            min_size=16 if name_lines == 1 else 13, lines=name_lines, fill=S.INK,
            valign="middle" if name_lines == 1 or layout.narrow else "top")
    fy = ny0 + name_h
    if face_down:
        cv.text((nx0, fy, x1 - 8, fy + CHIP_LINE2), tr("face_down", lang), tag=f"{tag}.face_down",
                style="bold", size=18, min_size=12, fill=S.BAD)
        fy += CHIP_LINE2
    if marks:  # a Jester or Banquet on the card, the Money Collector's chip
        icons.shape(d, x0 + 5 + CHIP_COST / 2, fy + CHIP_LINE2 / 2, CHIP_LINE2 - 4, "star", S.PURPLE_DARK, S.INK, 1)
        cv.text((nx0, fy, x1 - 8, fy + CHIP_LINE2), _marks_text(marks, edition, lang), tag=f"{tag}.marks",
                style="bold", size=18, min_size=11, fill=S.PURPLE_DARK)
    if below:
        by = y1 - CHIP_LINE2 - 4
        cv.text((nx0, by, x1 - 8, by + CHIP_LINE2), f"×{count}", tag=f"{tag}.count", style="bold", size=20,
                min_size=14, fill=S.INK, align="right")


def _badge(cv: Canvas, cx: float, cy: float, *, kind: S.Kind) -> None:
    icons.shape(cv.draw, cx, cy, 20, kind.shape, kind.dark, S.INK, 2)


def draw_player(cv: Canvas, view: dict[str, Any], seat: int, box: Box, lang: str) -> None:
    """A player's area: name, tokens, VP, rubles, hand size, and the tableau by colour."""
    edition = int(view["edition"])
    p = view["players"][seat]
    x0, y0, x1, y1 = box
    d = cv.draw
    active = acting_seat(view) == seat
    d.rounded_rectangle(box, radius=14, fill=S.PANEL, outline=S.HILITE if active else S.LINE, width=7 if active else 2)
    if active:
        d.rounded_rectangle((x0 + 7, y0 + 7, x1 - 7, y0 + PLAYER_HEADER_H), radius=10, fill=S.HILITE_TINT)
    hy0, hy1 = y0 + 8, y0 + PLAYER_HEADER_H
    # Right side of the header: VP, rubles, hand size.
    rubles = p.get("rubles")
    stats = [
        ("vp", str(p["vp"]), 96),
        ("rubles", "?" if rubles is None else str(rubles), 96),
        ("hand", f"{p['hand_count']}/{p['hand_limit']}", 100),
    ]
    sx = x1 - 12 - sum(w for _, _, w in stats)
    for icon, value, w in stats:
        stat(cv, (sx, hy0 + 6, sx + w - 6, hy1 - 6), icon, value, f"player.{seat}.{icon}", size=28,
             page=S.HILITE_TINT if active else S.PANEL)
        sx += w
    tx1 = x1 - 12 - sum(w for _, _, w in stats) - 8
    toks = list(p.get("tokens", []))
    for tok in reversed(toks):
        token_icon(cv, tx1 - 19, (hy0 + hy1) / 2, 36, tok, edition)
        tx1 -= 42
    cv.local(x0 + 30, (hy0 + hy1) / 2, 28, lambda c, x, y: player_marker(c, x, y, 28, seat))
    cv.text_named((x0 + 52, hy0, tx1 - 6, hy1), suffixed(you(view, seat, lang)), player_name(view, seat),
                  tag=f"player.{seat}.name", style="bold", size=30, min_size=17, fill=S.INK)

    # Tableau by colour.
    cols = _tableau_columns(view, seat)
    by = y0 + PLAYER_HEADER_H + 10
    pad = 12
    cgap = 10
    cw = _column_width(x1 - x0, len(cols))
    if not p["tableau"]:
        cv.text((x0 + pad, by, x1 - pad, by + COLUMN_HEADER_H + CHIP_H), tr("no_cards", lang),
                tag=f"player.{seat}.empty", size=22, min_size=14, fill=S.INK_SOFT, align="center")
        return
    for i, colour in enumerate(M.tableau_colours(view)):
        cx0 = x0 + pad + i * (cw + cgap)
        k = S.kind(colour, edition)
        entries = cols.get(colour, [])
        cv.local(cx0 + 12, by + COLUMN_HEADER_H / 2, 20, partial(_badge, kind=k))
        total = sum(e[1] for e in entries)
        label = f"{phase_name(COLOUR_PHASE[colour], lang)} ({total})"
        cv.text((cx0 + 28, by, cx0 + cw, by + COLUMN_HEADER_H), label, tag=f"player.{seat}.{colour}", style="bold",
                size=21, min_size=13, fill=k.dark if colour != "red" else S.INK)
        cy = by + COLUMN_HEADER_H + 6
        for j, entry in enumerate(entries):
            layout = _chip_layout(entry[0], entry[1], entry[2], cw, lang, entry[3], len(cols) > 3, entry[4])
            h = layout.height
            _chip(cv, (cx0, cy, cx0 + cw, cy + h), entry, layout, edition, lang, f"player.{seat}.{colour}.{j}")
            cy += h + CHIP_GAP
