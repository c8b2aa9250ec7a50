"""The final-scores image: VP by source for every player, and their VP and rubles over the rounds.

Discord shows an embed's picture about ``SHOWN_WIDTH`` pixels wide, whatever its size: the picture is drawn
800 pixels wide, so that its table (row labels, numbers) reads at 11 px or more there without opening it."""

from __future__ import annotations

import math
from typing import Any

from rules.i18n import source_order, t

from . import icons
from . import style as S
from .canvas import Box, Canvas
from .common import MARGIN, player_marker
from .fonts import drawable, fit_text
from .text import join_names, tr

WIDTH = 800
SHOWN_WIDTH = 400  # about how wide Discord shows the picture in the final scores message
LABEL_SIZE = 24  # the table's row labels: 12 px as shown (LABEL_MIN 22: 11 px)
LABEL_MIN = 22
LABEL_W = 270
COL_MAX = 150
HEAD_H = 84  # a player's marker and their name in up to two lines
NAME_SIZE, NAME_MIN = 22, 13  # the names in the table's head, all at one size
ROW_H = 34
CHART_H = 300
# shown for every game, with the rows of the expansions' sources the game has (all in the rulebook's order)
SOURCES = ("workers", "buildings", "pub", "aristocrats", "aristocrat_bonus", "rubles", "hand_penalty")


def _num(v: int) -> str:
    """A number with a real minus sign."""
    return f"−{-v}" if v < 0 else str(v)


def source_keys(view: dict[str, Any]) -> list[str]:
    """The rows of the table: the base game's sources and any others a player has, in the rulebook's scoring
    order (``rules.i18n.source_order``: the final scores' text lists them in the same order)."""
    keys = set(SOURCES)
    for p in view["players"]:
        keys.update(p.get("vp_by_source", {}))
    return source_order(keys)


def name_size(names: list[str], box: tuple[int, int], style: str, sizes: tuple[int, int], lines: int) -> int:
    """One size for every player's name (a computer player's long name is drawn like the others): the largest
    of ``sizes`` (from, down to) at which each fits ``box`` (width, height) in ``lines`` lines; else the
    smallest (a name too long even then is cut)."""
    top, least = sizes
    for size in range(top, least - 1, -1):
        if not any(fit_text(drawable(nm, style), style, *box, size, size, lines).truncated for nm in names):
            return size
    return least


def _nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2, 5 × 10^k) giving about ``ticks`` intervals."""
    raw = max(span / ticks, 1)
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return int(m * mag)
    return int(10 * mag)


def _series(view: dict[str, Any], key: str, lang: str) -> tuple[list[str], list[list[int | None]]]:
    """X labels and one series per player: ``key`` (vp or rubles) after each round, then at the end.

    Rubles are plotted only for players whose money the viewer may see now."""
    hist = view.get("history", [])
    labels = [str(h["round"]) for h in hist]
    players = view["players"]
    series: list[list[int | None]] = []
    for i, p in enumerate(players):
        visible = key == "vp" or p.get("rubles") is not None
        series.append([h[key][i] if visible and i < len(h[key]) else None for h in hist])
    if view.get("finished") and hist:
        labels.append(tr("chart_end", lang))
        for i, p in enumerate(players):
            series[i].append(p["vp"] if key == "vp" else p.get("rubles"))
    return labels, series


def _chart(cv: Canvas, box: Box, view: dict[str, Any], key: str, title: str, lang: str) -> None:
    """A line chart with one line (colour and marker shape) per player."""
    x0, y0, x1, y1 = box
    d = cv.draw
    d.rounded_rectangle(box, radius=14, fill=S.PANEL, outline=S.LINE, width=2)
    cv.text((x0 + 12, y0 + 6, x1 - 12, y0 + 38), title, tag=f"chart.{key}.title", style="bold", size=22, min_size=14,
            fill=S.INK)
    labels, series = _series(view, key, lang)
    values = [v for s in series for v in s if v is not None]
    if not labels or not values:
        cv.text((x0 + 12, y0 + 48, x1 - 12, y1 - 12), tr("chart_empty", lang), tag=f"chart.{key}.empty", size=22,
                min_size=14, fill=S.INK_SOFT, align="center")
        return
    lo = min(0, min(values))
    hi = max(values + [1])
    step = _nice_step(hi - lo)
    lo = step * math.floor(lo / step)
    hi = step * math.ceil(hi / step)
    px0, py0, px1, py1 = x0 + 50, y0 + 50, x1 - 16, y1 - 36

    def ypos(v: float) -> float:
        return py1 - (v - lo) / (hi - lo) * (py1 - py0)

    v = lo
    while v <= hi:
        yy = ypos(v)
        d.line((px0, yy, px1, yy), fill=S.PANEL_DIM if v else S.LINE, width=2)
        cv.text((x0 + 4, int(yy) - 12, px0 - 6, int(yy) + 12), _num(int(v)), tag=f"chart.{key}.y{v}", size=18,
                min_size=11, fill=S.INK_SOFT, align="right")
        v += step
    n = len(labels)
    slot = (px1 - px0) / max(n, 1)

    def xpos(i: int) -> float:
        return px0 + slot * (i + 0.5)

    for i, lab in enumerate(labels):
        xx = xpos(i)
        cv.text((int(xx - slot / 2) + 1, py1 + 4, int(xx + slot / 2) - 1, py1 + 32), lab, tag=f"chart.{key}.x{i}",
                size=18, min_size=10, fill=S.INK_SOFT, align="center")
    for seat, s in enumerate(series):
        col = S.PLAYER_COLOURS[seat % len(S.PLAYER_COLOURS)]
        pts = [(xpos(i), ypos(val)) for i, val in enumerate(s) if val is not None]
        if len(pts) > 1:
            d.line(pts, fill=col, width=3, joint="curve")
        for px, py in pts:
            icons.shape(d, px, py, 12, S.PLAYER_MARKERS[seat % len(S.PLAYER_MARKERS)], col, S.INK, 1)


def _legend_per_row(n: int) -> int:
    """Players a row of the legend names: up to three in one row, four as two and two, five as three and two."""
    return max(1, n if n <= 3 else (n + 1) // 2)


def draw_final(view: dict[str, Any], lang: str = "en") -> Canvas:
    """Lay out and draw the scores table and the charts."""
    players = view["players"]
    n = len(players)
    keys = source_keys(view)
    winners = set(view.get("winners", [])) if view.get("finished") else set()
    col_w = min(COL_MAX, (WIDTH - 2 * MARGIN - LABEL_W) // max(n, 1))
    table_w = LABEL_W + n * col_w
    tx0 = MARGIN + (WIDTH - 2 * MARGIN - table_w) // 2
    rows = [*keys, "total", "rubles_left"]
    table_h = HEAD_H + ROW_H * len(rows)
    title_h = 44 + (34 if winners else 0)
    legend_h = 32 * math.ceil(n / _legend_per_row(n))
    height = MARGIN + title_h + 12 + table_h + 20 + CHART_H + 10 + legend_h + MARGIN
    cv = Canvas(WIDTH, height, S.BG)
    d = cv.draw
    y = MARGIN
    title = tr("final_title" if view.get("finished") else "interim_title", lang)
    cv.text((MARGIN, y, WIDTH - MARGIN, y + 44), title, tag="final.title", style="bold", size=32, min_size=22,
            fill=S.INK, align="center")
    y += 44
    if winners:
        names = [str(players[s]["name"]) for s in sorted(winners)]
        key = "winner" if len(names) == 1 else "winners"
        cv.text_named((MARGIN, y, WIDTH - MARGIN, y + 34), lambda nm: tr(key, lang, names=nm), join_names(names, lang),
                      tag="final.winners", style="bold", size=24, min_size=16, fill=S.GOOD, align="center")
        y += 34
    y += 12

    # The table.
    d.rounded_rectangle((tx0 - 6, y - 6, tx0 + table_w + 6, y + table_h + 6), radius=12, fill=S.PANEL, outline=S.LINE,
                        width=2)
    for i, key in enumerate(rows):  # row stripes, then the winners' columns over them
        ry = y + HEAD_H + i * ROW_H
        if key == "total":
            d.rectangle((tx0, ry, tx0 + table_w, ry + ROW_H), fill=S.PANEL_DIM)
        elif i % 2 == 1:
            d.rectangle((tx0, ry, tx0 + table_w, ry + ROW_H), fill=S.BG)
    for j in range(n):
        if j in winners:
            cx0 = tx0 + LABEL_W + j * col_w
            d.rectangle((cx0 + 2, y, cx0 + col_w - 2, y + table_h), fill=S.HILITE_TINT)
    total_y = y + HEAD_H + rows.index("total") * ROW_H
    d.line((tx0, total_y, tx0 + table_w, total_y), fill=S.INK, width=2)
    name_box = (col_w - 8, HEAD_H - 34)
    same = name_size([str(p["name"]) for p in players], name_box, "bold", (NAME_SIZE, NAME_MIN), 2)
    for j, p in enumerate(players):
        cx0 = tx0 + LABEL_W + j * col_w
        player_marker(cv, cx0 + col_w / 2 - (12 if j in winners else 0), y + 16, 20, j)
        if j in winners:
            icons.shape(d, cx0 + col_w / 2 + 14, y + 16, 24, "star", S.HILITE, S.INK, 1)
        cv.text((cx0 + 4, y + 30, cx0 + 4 + name_box[0], y + 30 + name_box[1]), str(p["name"]), tag=f"final.name.{j}",
                may_cut=True, style="bold", size=same, min_size=same, lines=2, fill=S.INK, align="center")
    ry = y + HEAD_H
    for key in rows:
        is_total = key == "total"
        if key == "total":
            label = tr("total", lang)
        elif key == "rubles_left":
            label = tr("rubles_left", lang)
        else:
            label = t(f"source.{key}", lang)
        cv.text((tx0 + 8, ry + 1, tx0 + LABEL_W - 6, ry + ROW_H - 1), label, tag=f"final.label.{key}",
                style="bold" if is_total else "regular", size=LABEL_SIZE, min_size=LABEL_MIN, fill=S.INK)
        for j, p in enumerate(players):
            cx0 = tx0 + LABEL_W + j * col_w
            if key == "total":
                val = _num(int(p["vp"]))
            elif key == "rubles_left":
                val = "?" if p.get("rubles") is None else str(p["rubles"])
            else:
                val = _num(int(p.get("vp_by_source", {}).get(key, 0)))
            cv.text((cx0 + 6, ry + 1, cx0 + col_w - 14, ry + ROW_H - 1), val, tag=f"final.{key}.{j}",
                    style="bold" if is_total else "regular", size=26 if is_total else 24, min_size=LABEL_MIN,
                    fill=S.INK, align="right")
        ry += ROW_H
    y += table_h + 20

    # The charts.
    cw = (WIDTH - 2 * MARGIN - 16) // 2
    _chart(cv, (MARGIN, y, MARGIN + cw, y + CHART_H), view, "vp", tr("chart_vp", lang), lang)
    _chart(cv, (WIDTH - MARGIN - cw, y, WIDTH - MARGIN, y + CHART_H), view, "rubles", tr("chart_rubles", lang), lang)
    y += CHART_H + 10
    # Legend: who is which line.
    per_row = _legend_per_row(n)
    slot = (WIDTH - 2 * MARGIN) // per_row
    same = name_size([str(p["name"]) for p in players], (slot - 60, 32), "regular", (18, 12), 1)
    for j, p in enumerate(players):
        lx, ly = MARGIN + (j % per_row) * slot, y + (j // per_row) * 32
        player_marker(cv, lx + 12, ly + 16, 18, j)
        cv.draw.line((lx + 26, ly + 16, lx + 48, ly + 16), fill=S.PLAYER_COLOURS[j % len(S.PLAYER_COLOURS)], width=3)
        cv.text((lx + 54, ly, lx + slot - 6, ly + 32), str(p["name"]), tag=f"final.legend.{j}", may_cut=True,
                size=same, min_size=same, fill=S.INK)
    return cv
