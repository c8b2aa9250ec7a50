"""The final-scores image: VP by source for every player, and their VP and rubles over the rounds."""

from __future__ import annotations

import math
from typing import Any

from rules.i18n import t

from . import icons
from . import style as S
from .canvas import Box, Canvas
from .common import MARGIN, player_marker
from .text import join_names, tr

WIDTH = 1400
LABEL_W = 330
COL_MAX = 250
HEAD_H = 78
ROW_H = 46
CHART_H = 420
SOURCES = ("workers", "buildings", "aristocrats", "pub", "aristocrat_bonus", "rubles", "hand_penalty")


def _num(v: int) -> str:
    """A number with a real minus sign."""
    return f"−{-v}" if v < 0 else str(v)


def source_keys(view: dict[str, Any]) -> list[str]:
    """The scoring sources in the rulebook's order, then any others the view names."""
    extra: set[str] = set()
    for p in view["players"]:
        extra.update(k for k in p.get("vp_by_source", {}) if k not in SOURCES)
    return list(SOURCES) + sorted(extra)


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
    cv.text((x0 + 16, y0 + 8, x1 - 16, y0 + 48), title, tag=f"chart.{key}.title", style="bold", size=26, min_size=15,
            fill=S.INK)
    labels, series = _series(view, key, lang)
    values = [v for s in series for v in s if v is not None]
    if not labels or not values:
        cv.text((x0 + 16, y0 + 60, x1 - 16, y1 - 16), tr("chart_empty", lang), tag=f"chart.{key}.empty", size=24,
                min_size=14, fill=S.INK_SOFT, align="center")
        return
    lo = min(0, min(values))
    hi = max(values + [1])
    step = _nice_step(hi - lo)
    lo = step * math.floor(lo / step)
    hi = step * math.ceil(hi / step)
    px0, py0, px1, py1 = x0 + 70, y0 + 64, x1 - 28, y1 - 50

    def ypos(v: float) -> float:
        return py1 - (v - lo) / (hi - lo) * (py1 - py0)

    v = lo
    while v <= hi:
        yy = ypos(v)
        d.line((px0, yy, px1, yy), fill=S.PANEL_DIM if v else S.LINE, width=2)
        cv.text((x0 + 8, int(yy) - 14, px0 - 10, int(yy) + 14), _num(int(v)), tag=f"chart.{key}.y{v}", size=19,
                min_size=11, fill=S.INK_SOFT, align="right")
        v += step
    n = len(labels)
    slot = (px1 - px0) / max(n, 1)

    def xpos(i: int) -> float:
        return px0 + slot * (i + 0.5)

    for i, lab in enumerate(labels):
        xx = xpos(i)
        cv.text((int(xx - slot / 2) + 1, py1 + 8, int(xx + slot / 2) - 1, py1 + 40), lab, tag=f"chart.{key}.x{i}",
                size=20, min_size=10, fill=S.INK_SOFT, align="center")
    for seat, s in enumerate(series):
        col = S.PLAYER_COLOURS[seat % len(S.PLAYER_COLOURS)]
        pts = [(xpos(i), ypos(val)) for i, val in enumerate(s) if val is not None]
        if len(pts) > 1:
            d.line(pts, fill=col, width=4, joint="curve")
        for px, py in pts:
            icons.shape(d, px, py, 16, S.PLAYER_MARKERS[seat % len(S.PLAYER_MARKERS)], col, S.INK, 1)


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
    title_h = 60 + (40 if winners else 0)
    height = MARGIN + title_h + 14 + table_h + 24 + CHART_H + 14 + 40 + MARGIN
    cv = Canvas(WIDTH, height, S.BG)
    d = cv.draw
    y = MARGIN
    title = tr("final_title" if view.get("finished") else "interim_title", lang)
    cv.text((MARGIN, y, WIDTH - MARGIN, y + 60), title, tag="final.title", style="bold", size=42, min_size=22,
            fill=S.INK, align="center")
    y += 60
    if winners:
        names = [str(players[s]["name"]) for s in sorted(winners)]
        key = "winner" if len(names) == 1 else "winners"
        cv.text_named((MARGIN, y, WIDTH - MARGIN, y + 40), lambda nm: tr(key, lang, names=nm), join_names(names, lang),
                      tag="final.winners", style="bold", size=30, min_size=16, fill=S.GOOD, align="center")
        y += 40
    y += 14

    # The table.
    d.rounded_rectangle((tx0 - 8, y - 8, tx0 + table_w + 8, y + table_h + 8), radius=14, fill=S.PANEL, outline=S.LINE,
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
    for j, p in enumerate(players):
        cx0 = tx0 + LABEL_W + j * col_w
        player_marker(cv, cx0 + col_w / 2 - (14 if j in winners else 0), y + 18, 24, j)
        if j in winners:
            icons.shape(d, cx0 + col_w / 2 + 16, y + 18, 28, "star", S.HILITE, S.INK, 1)
        cv.text((cx0 + 6, y + 34, cx0 + col_w - 6, y + HEAD_H - 2), str(p["name"]), tag=f"final.name.{j}", may_cut=True,
                style="bold", size=24, min_size=13, lines=1, fill=S.INK, align="center")
    ry = y + HEAD_H
    for key in rows:
        is_total = key == "total"
        if key == "total":
            label = tr("total", lang)
        elif key == "rubles_left":
            label = tr("rubles_left", lang)
        else:
            label = t(f"source.{key}", lang)
        cv.text((tx0 + 12, ry + 2, tx0 + LABEL_W - 10, ry + ROW_H - 2), label, tag=f"final.label.{key}",
                style="bold" if is_total else "regular", size=26 if is_total else 23, min_size=13, fill=S.INK)
        for j, p in enumerate(players):
            cx0 = tx0 + LABEL_W + j * col_w
            if key == "total":
                val = _num(int(p["vp"]))
            elif key == "rubles_left":
                val = "?" if p.get("rubles") is None else str(p["rubles"])
            else:
                val = _num(int(p.get("vp_by_source", {}).get(key, 0)))
            cv.text((cx0 + 8, ry + 2, cx0 + col_w - 24, ry + ROW_H - 2), val, tag=f"final.{key}.{j}",
                    style="bold" if is_total else "regular", size=30 if is_total else 25, min_size=12, fill=S.INK,
                    align="right")
        ry += ROW_H
    y += table_h + 24

    # The charts.
    cw = (WIDTH - 2 * MARGIN - 20) // 2
    _chart(cv, (MARGIN, y, MARGIN + cw, y + CHART_H), view, "vp", tr("chart_vp", lang), lang)
    _chart(cv, (WIDTH - MARGIN - cw, y, WIDTH - MARGIN, y + CHART_H), view, "rubles", tr("chart_rubles", lang), lang)
    y += CHART_H + 14
    # Legend: who is which line.
    slot = (WIDTH - 2 * MARGIN) // max(n, 1)
    for j, p in enumerate(players):
        lx = MARGIN + j * slot
        player_marker(cv, lx + 16, y + 20, 22, j)
        cv.draw.line((lx + 34, y + 20, lx + 64, y + 20), fill=S.PLAYER_COLOURS[j % len(S.PLAYER_COLOURS)], width=4)
        cv.text((lx + 72, y, lx + slot - 10, y + 40), str(p["name"]), tag=f"final.legend.{j}", may_cut=True, size=22,
                min_size=12, fill=S.INK)
    return cv
