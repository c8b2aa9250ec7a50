"""A tournament's standings picture: the table with rank, player, points, games, byes, Buchholz and VP share,
dropped players marked (greyed, struck through, "dropped"), and at the end a podium of the first three.

Drawn from plain data (``bot.tournament_text.standings_data``), already in words where people wrote them:
``name`` the tournament's, ``round``, ``finished``; ``rows``: per player ``rank``, ``name``, ``points`` and
``buchholz`` (as the embed writes them: ``4.5``), ``games``, ``byes``, ``share`` (VP share in per cent) and
``dropped``; ``more``: how many players the picture leaves out (the embed's limit).
"""

from __future__ import annotations

from typing import Any

from . import style as S
from .canvas import Canvas
from .common import MARGIN
from .text import tr

WIDTH = 800
TITLE_H = 48
HEAD_H = 36
ROW_H = 34
PODIUM_H = 190
FOOT_H = 30
MAX_ROWS = 25
MARK_W = 130  # the dropped mark at the right of the player's column
# the columns: key, width, alignment (the player's column takes what is left)
COLUMNS = (("rank", 48, "right"), ("player", 0, "left"), ("points", 86, "right"), ("games", 84, "right"),
           ("byes", 88, "right"), ("buchholz", 106, "right"), ("share", 104, "right"))
MEDALS = (S.GOLD, (192, 192, 200), (205, 127, 50))  # gold, silver, bronze


def _columns(x0: int, x1: int) -> list[tuple[str, int, int, str]]:
    """(key, left, right, alignment) of each column between x0 and x1."""
    fixed = sum(w for _, w, _ in COLUMNS)
    out, x = [], x0
    for key, w, align in COLUMNS:
        width = w or (x1 - x0 - fixed)
        out.append((key, x, x + width, align))
        x += width
    return out


def _cell(row: dict[str, Any], key: str, lang: str) -> str:
    if key == "player":
        return str(row["name"])
    if key == "share":
        return f"{row['share']} %"
    if key == "rank":
        return f"{row['rank']}."
    return str(row[key])


def _podium(cv: Canvas, rows: list[dict[str, Any]], y: int, lang: str) -> None:
    """Three steps, second · first · third, each with its medal colour, place and name."""
    heights = {1: 120, 2: 90, 3: 66}
    step_w = 200
    cx = WIDTH // 2
    spots = {2: cx - step_w - step_w // 2, 1: cx - step_w // 2, 3: cx + step_w // 2}
    base = y + PODIUM_H - 10
    for row in rows:
        place = int(row["rank"])
        if place not in spots or spots[place] is None:
            continue
        x0, h = spots[place], heights[place]
        spots[place] = None  # type: ignore[assignment]  # a shared place: the first of them stands on it
        cv.draw.rounded_rectangle((x0 + 6, base - h, x0 + step_w - 6, base), radius=10, fill=MEDALS[place - 1],
                                  outline=S.LINE, width=2)
        cv.text((x0 + 6, base - h + 4, x0 + step_w - 6, base - h + 58), str(place), tag="standings.place",
                style="bold", size=34, min_size=20, fill=S.INK, align="center")
        cv.text((x0, base - h - 56, x0 + step_w, base - h - 4), str(row["name"]), tag="standings.podium_name",
                style="bold", size=22, min_size=13, lines=2, fill=S.INK, align="center", valign="bottom",
                may_cut=True)


def draw_standings(data: dict[str, Any], lang: str = "en") -> Canvas:
    """Lay out and draw the standings (and the podium when the tournament is over)."""
    rows = list(data["rows"])[:MAX_ROWS]
    finished = bool(data.get("finished"))
    more = int(data.get("more", 0)) + max(0, len(data["rows"]) - MAX_ROWS)
    podium = finished and bool(rows)
    height = (MARGIN + TITLE_H + (PODIUM_H if podium else 0) + 8 + HEAD_H + ROW_H * max(len(rows), 1)
              + (FOOT_H if more else 0) + MARGIN)
    cv = Canvas(WIDTH, height, S.BG)
    d = cv.draw
    y = MARGIN
    key = "standings_final" if finished else "standings_title"
    cv.text((MARGIN, y, WIDTH - MARGIN, y + TITLE_H), tr(key, lang, name=data["name"], round=data["round"]),
            tag="standings.title", style="bold", size=30, min_size=16, fill=S.INK, align="center", may_cut=True)
    y += TITLE_H
    if podium:
        _podium(cv, rows, y, lang)
        y += PODIUM_H
    y += 8
    x0, x1 = MARGIN, WIDTH - MARGIN
    cols = _columns(x0 + 8, x1 - 8)
    d.rounded_rectangle((x0, y, x1, y + HEAD_H + ROW_H * max(len(rows), 1) + 6), radius=12, fill=S.PANEL,
                        outline=S.LINE, width=2)
    for name, left, right, align in cols:
        cv.text((left + 4, y, right - 4, y + HEAD_H), tr(f"standings_{name}", lang), tag=f"standings.head.{name}",
                style="bold", size=20, min_size=13, fill=S.INK_SOFT, align=align)
    y += HEAD_H
    d.line((x0 + 8, y - 1, x1 - 8, y - 1), fill=S.LINE, width=1)
    if not rows:
        cv.text((x0 + 12, y, x1 - 12, y + ROW_H), tr("standings_empty", lang), tag="standings.empty", size=20,
                fill=S.INK_SOFT, align="center")
    for i, row in enumerate(rows):
        ry = y + i * ROW_H
        if i % 2 == 1:
            d.rectangle((x0 + 4, ry, x1 - 4, ry + ROW_H), fill=S.BG)
        dropped = bool(row.get("dropped"))
        ink = S.GREY if dropped else S.INK
        for name, left, right, align in cols:
            text = _cell(row, name, lang)
            if name == "player" and dropped:  # the mark first, whole; the name in what is left
                mark = cv.text((right - MARK_W, ry, right - 4, ry + ROW_H), tr("standings_dropped", lang),
                               tag="standings.dropped", size=18, min_size=12, fill=S.BAD, align="right")
                right = right - MARK_W if mark.ink[0] >= mark.ink[2] else min(right - 4, mark.ink[0] - 6)
            box = cv.text((left + 4, ry, right - 4, ry + ROW_H), text, tag=f"standings.{name}",
                          style="bold" if name == "points" else "regular", size=22, min_size=12, fill=ink,
                          align=align, may_cut=name == "player")
            if name == "player" and dropped and box.ink[0] < box.ink[2]:  # struck through
                mid = ry + ROW_H // 2
                d.line((box.ink[0], mid, box.ink[2], mid), fill=S.GREY, width=2)
    y += ROW_H * max(len(rows), 1) + 6
    if more:
        cv.text((MARGIN, y, WIDTH - MARGIN, y + FOOT_H), tr("standings_more", lang, n=more), tag="standings.more",
                size=18, fill=S.INK_SOFT, align="center")
    return cv
