"""The review's summary picture: each seat's chance to win after every action of the game, and each seat's
accuracy and counts of inaccuracies, mistakes and blunders.

Drawn from plain data (``bot.review_view.chart_data``: the review's figures and the public facts of the game,
the seats' names in the board's order and so in the board's colours), never from anything hidden:

``seats``: per seat ``name``, ``accuracy`` (0-100), ``inaccuracies``, ``mistakes``, ``blunders``;
``chances``: per point (0: the start, ``k``: after the ``k``-th action) each seat's chance to win (0..1);
``phases``: ``[point, round, phase]`` where each phase begins; ``swings``: ``[point, seat]`` the biggest
swings, marked on the seat's line.
"""

from __future__ import annotations

from typing import Any

from . import icons
from . import style as S
from .canvas import Canvas
from .common import MARGIN, phase_name, player_marker
from .text import tr

WIDTH = 1400
CHART_H = 560
ROW_H = 48
HEAD_H = 52
PHASE_DECK = {"workers": "workers", "buildings": "buildings", "aristocrats": "aristocrats", "market": "market"}
COLUMNS = ("accuracy", "inaccuracies", "mistakes", "blunders")


def _colour(seat: int) -> S.RGB:
    return S.PLAYER_COLOURS[seat % len(S.PLAYER_COLOURS)]


def _band(phase: str, edition: int) -> S.RGB:
    """A phase's band: its stack's tint (trading cards and the expansions' phases: the panel's grey)."""
    deck = PHASE_DECK.get(phase)
    return S.deck_style(deck, edition).tint if deck else S.PANEL_DIM


def _chart(cv: Canvas, box: tuple[int, int, int, int], data: dict[str, Any], lang: str) -> None:
    x0, y0, x1, y1 = box
    d = cv.draw
    d.rounded_rectangle(box, radius=14, fill=S.PANEL, outline=S.LINE, width=2)
    cv.text((x0 + 16, y0 + 8, x1 - 16, y0 + 48), tr("review_chart", lang), tag="review.chart.title", style="bold",
            size=26, min_size=15, fill=S.INK)
    chances: list[list[float]] = data["chances"]
    px0, py0, px1, py1 = x0 + 78, y0 + 64, x1 - 24, y1 - 76
    points = max(len(chances) - 1, 1)

    def xpos(k: float) -> float:
        return px0 + (px1 - px0) * k / points

    def ypos(v: float) -> float:
        return py1 - max(0.0, min(1.0, v)) * (py1 - py0)

    phases = [tuple(p) for p in data.get("phases", [])]
    edition = int(data.get("edition", 2))
    for i, (start, rnd, phase) in enumerate(phases):  # the phases as bands, the rounds named below
        end = phases[i + 1][0] if i + 1 < len(phases) else points
        d.rectangle((xpos(start), py0, xpos(end), py1), fill=_band(str(phase), edition))
        if i == 0 or phases[i - 1][1] != rnd:
            xx = xpos(start)
            d.line((xx, py0, xx, py1 + 8), fill=S.INK_SOFT, width=2)
            nxt = next((p[0] for p in phases[i + 1:] if p[1] != rnd), points)
            cv.text((int(xx) + 2, py1 + 8, int(xpos(nxt)) - 2, py1 + 36), tr("review_round", lang, round=rnd),
                    tag=f"review.round.{rnd}", size=18, min_size=9, fill=S.INK_SOFT, align="center", may_cut=True)
    for pct in range(0, 101, 25):
        yy = ypos(pct / 100)
        d.line((px0, yy, px1, yy), fill=S.LINE, width=1 if pct % 50 else 2)
        cv.text((x0 + 8, int(yy) - 14, px0 - 10, int(yy) + 14), f"{pct} %", tag=f"review.y{pct}", size=19,
                min_size=11, fill=S.INK_SOFT, align="right")
    used = sorted({str(p[2]) for p in phases}, key=lambda k: [str(p[2]) for p in phases].index(k))
    lx = px0
    for phase in used:  # the bands' key
        d.rectangle((lx, py1 + 44, lx + 22, py1 + 66), fill=_band(phase, edition), outline=S.LINE)
        placed = cv.text((lx + 28, py1 + 40, lx + 240, py1 + 70), phase_name(phase, lang),
                         tag=f"review.phase.{phase}", size=18, min_size=10, fill=S.INK_SOFT, may_cut=True)
        lx = max(placed.ink[2], lx + 60) + 24
    n = len(data["seats"])
    for seat in range(n):
        pts = [(xpos(k), ypos(c[seat])) for k, c in enumerate(chances) if seat < len(c)]
        if len(pts) > 1:
            d.line(pts, fill=_colour(seat), width=4, joint="curve")
    for point, seat in data.get("swings", []):
        if 0 <= point < len(chances) and seat < n:
            cx, cy = xpos(point), ypos(chances[point][seat])
            d.ellipse((cx - 15, cy - 15, cx + 15, cy + 15), outline=S.INK, width=3)
            icons.shape(d, cx, cy, 16, S.PLAYER_MARKERS[seat % len(S.PLAYER_MARKERS)], _colour(seat), S.INK, 1)


def draw_review(data: dict[str, Any], lang: str = "en") -> Canvas:
    """The chart, then one row per seat: marker, name, accuracy and the counts."""
    seats = data["seats"]
    height = MARGIN + 56 + CHART_H + 20 + HEAD_H + ROW_H * len(seats) + MARGIN
    cv = Canvas(WIDTH, height, S.BG)
    y = MARGIN
    cv.text((MARGIN, y, WIDTH - MARGIN, y + 50), tr("review_title", lang, game=data.get("game", "")),
            tag="review.title", style="bold", size=38, min_size=20, fill=S.INK, align="center")
    y += 56
    _chart(cv, (MARGIN, y, WIDTH - MARGIN, y + CHART_H), data, lang)
    y += CHART_H + 20
    name_w = 420
    col_w = (WIDTH - 2 * MARGIN - name_w) // len(COLUMNS)
    cv.draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + HEAD_H + ROW_H * len(seats)), radius=14, fill=S.PANEL,
                              outline=S.LINE, width=2)
    for j, key in enumerate(COLUMNS):
        cx0 = MARGIN + name_w + j * col_w
        cv.text((cx0 + 6, y + 6, cx0 + col_w - 6, y + HEAD_H - 6), tr(f"review_{key}", lang),
                tag=f"review.head.{key}", style="bold", size=22, min_size=12, fill=S.INK, align="center")
    y += HEAD_H
    for seat, s in enumerate(seats):
        if seat % 2:
            cv.draw.rectangle((MARGIN + 2, y, WIDTH - MARGIN - 2, y + ROW_H), fill=S.BG)
        player_marker(cv, MARGIN + 28, y + ROW_H / 2, 24, seat)
        cv.draw.line((MARGIN + 48, y + ROW_H / 2, MARGIN + 78, y + ROW_H / 2), fill=_colour(seat), width=4)
        cv.text((MARGIN + 88, y + 4, MARGIN + name_w - 8, y + ROW_H - 4), str(s["name"]), tag=f"review.name.{seat}",
                style="bold", size=24, min_size=12, fill=S.INK, may_cut=True)
        for j, key in enumerate(COLUMNS):
            cx0 = MARGIN + name_w + j * col_w
            value = f"{float(s[key]):.0f}" if key == "accuracy" else str(int(s[key]))
            cv.text((cx0 + 6, y + 4, cx0 + col_w - 6, y + ROW_H - 4), value, tag=f"review.{key}.{seat}",
                    style="bold" if key == "accuracy" else "regular", size=26, min_size=12, fill=S.INK,
                    align="center")
        y += ROW_H
    return cv
