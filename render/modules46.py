"""Modules 4 and 6 on the board: the six events under a title that says what they are and who may take
them (M4-02, M4-03), each with what it does and whether it is free or who took it (M4-16, X-08); and the
obstacles on the VP track (fields 10, 20, 35, 50, 70) with each player's status (not reached,
reached and blocked, met but not reached, passed: UI-16) and progress toward the condition ("3/4",
UI-17), or once passed what the obstacle gave him. Drawn from the view's ``module4`` and ``module6``."""

from __future__ import annotations

from functools import partial
from typing import Any

from rules.expansions.module4 import event_name

from . import style as S
from .canvas import Canvas
from .common import MARGIN, player_marker, player_name, suffixed, you
from .text import tr

EVENTS_TITLE_H = 32  # the events' title line
EVENT_BOX_H = 108  # an event: its name, what it does (up to two lines), free or who took it
EVENTS_H = EVENTS_TITLE_H + EVENT_BOX_H
TITLE_H = 40
HEAD_H = 58  # an obstacle's field and name
LINE_H = 30  # one player's status at an obstacle
STATUS_FILL = {"open": S.PANEL, "blocked": S.RED_DARK, "met": S.GREEN_TINT, "passed": S.GREEN_DARK}


def height(view: dict[str, Any]) -> int:
    """Height of the panels (0 without Modules 4 and 6)."""
    h = 0
    if view.get("module4"):
        h += EVENTS_H
    if view.get("module6"):
        h += (12 if h else 0) + TITLE_H + HEAD_H + LINE_H * len(view["players"]) + 12
    return h


def _marker(cv: Canvas, cx: float, cy: float, *, size: float, seat: int) -> None:
    player_marker(cv, cx, cy, size, seat)


def _status(cv: Canvas, cx: float, cy: float, status: str) -> None:
    """UI-16's four states as shapes: an empty ring (not reached), a red bar (blocked), a green ring
    (met, not reached), a filled green disc (passed)."""
    d = cv.draw
    r = 9
    if status == "blocked":
        d.rounded_rectangle((cx - r, cy - 4, cx + r, cy + 4), radius=2, fill=S.RED_DARK)
        return
    fill = S.GREEN_DARK if status == "passed" else None
    edge = S.GREEN_DARK if status in ("met", "passed") else S.LINE
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=edge, width=3)


def draw_events(cv: Canvas, view: dict[str, Any], lang: str, y: int, width: int) -> int:
    """The title (what the events are, who may take them: M4-02, M4-03), then the six events in a row, each
    with its name, what it does and "free" or the marker and name of the player who took it (a taken one is
    dimmed, M4-16)."""
    events = view["module4"]["events"]
    x0, x1 = MARGIN, width - MARGIN
    cv.text((x0, y, x1, y + EVENTS_TITLE_H - 2), tr("events", lang), tag="events.title", style="bold", size=24,
            min_size=14, fill=S.INK)
    top = y + EVENTS_TITLE_H
    cell = (x1 - x0 + 8) / len(events)
    for i, ev in enumerate(events):
        key = ev["id"]
        bx0, bx1 = round(x0 + i * cell), round(x0 + (i + 1) * cell - 8)
        used = ev.get("used_by")
        cv.draw.rounded_rectangle((bx0, top, bx1, top + EVENT_BOX_H - 8), radius=10,
                                  fill=S.PANEL_DIM if used is not None else S.PANEL, outline=S.LINE, width=2)
        ink = S.INK_SOFT if used is not None else S.INK
        cv.text((bx0 + 10, top + 2, bx1 - 8, top + 32), event_name(key, lang), tag=f"event.{key}",
                style="bold", size=23, min_size=13, fill=ink)
        cv.text((bx0 + 10, top + 30, bx1 - 8, top + 74), tr(f"event_does_{key}", lang), tag=f"event.{key}.does",
                size=18, min_size=12, lines=2, fill=ink)
        hbox = (bx0 + 34, top + 74, bx1 - 8, top + EVENT_BOX_H - 10)
        if used is None:
            cv.text((bx0 + 10, *hbox[1:]), tr("event_free", lang), tag=f"event.{key}.holder", style="bold",
                    size=18, min_size=11, fill=S.GREEN_DARK)
            continue
        seat = int(used)
        cv.local(bx0 + 20, (hbox[1] + hbox[3]) / 2, 20, partial(_marker, size=20, seat=seat))
        cv.text_named(hbox, suffixed(you(view, seat, lang)), player_name(view, seat), tag=f"event.{key}.holder",
                      style="bold", size=18, min_size=11, fill=S.INK)
    return top + EVENT_BOX_H


def draw_obstacles(cv: Canvas, view: dict[str, Any], lang: str, y: int, width: int) -> int:
    obstacles = view["module6"]["obstacles"]
    n = len(view["players"])
    x0, x1 = MARGIN, width - MARGIN
    y1 = y + TITLE_H + HEAD_H + LINE_H * n + 12
    d = cv.draw
    d.rounded_rectangle((x0, y, x1, y1), radius=12, fill=S.PANEL, outline=S.LINE, width=2)
    cv.text((x0 + 14, y + 4, x1 - 14, y + TITLE_H), tr("obstacles", lang), tag="obstacles.title", style="bold",
            size=28, min_size=16, fill=S.INK)
    cell = (x1 - x0 - 16) / len(obstacles)
    for i, ob in enumerate(obstacles):
        cx0 = round(x0 + 8 + i * cell)
        cx1 = round(x0 + 8 + (i + 1) * cell) - 6
        hy = y + TITLE_H
        tint = S.RED_TINT if ob["real"] else S.GREEN_TINT
        d.rounded_rectangle((cx0, hy, cx1, hy + HEAD_H - 6), radius=8, fill=tint, outline=S.LINE, width=1)
        field = ob["field"]
        cv.text((cx0 + 6, hy + 2, cx0 + 50, hy + HEAD_H - 8), str(field), tag=f"obstacle.{field}.field",
                style="bold", size=28, min_size=16, fill=S.INK)
        kind = tr("obstacle_real" if ob["real"] else "obstacle_bonus", lang)
        name = tr("obstacle_" + ob["id"], lang)
        cv.text((cx0 + 54, hy + 2, cx1 - 4, hy + HEAD_H - 8), f"{name} ({kind})",
                tag=f"obstacle.{field}.name", size=20, min_size=11, lines=2, fill=S.INK)
        for seat, p in enumerate(ob["players"]):
            ly = hy + HEAD_H + seat * LINE_H
            mid = ly + LINE_H / 2
            cv.local(cx0 + 16, mid, 22, partial(_marker, size=22, seat=seat))
            cv.local(cx0 + 42, mid, 22, partial(_status, status=p["status"]))
            got = p.get("received")
            if p["status"] == "passed" and got and (got.get("rubles") or got.get("vp")):
                text = tr("obstacle_got", lang, rubles=got.get("rubles", 0), vp=got.get("vp", 0))
            elif p["status"] == "passed":
                text = tr("obstacle_passed", lang)
            else:
                text = p["text"] or tr(f"obstacle_{p['status']}", lang)
            cv.text((cx0 + 58, ly + 2, cx1 - 4, ly + LINE_H - 2), text, tag=f"obstacle.{field}.{seat}",
                    size=20, min_size=12, fill=S.INK)
    return y1


def draw(cv: Canvas, view: dict[str, Any], lang: str, y: int, width: int) -> int:
    """Both panels from ``y`` (whichever modules are on); returns their bottom."""
    if view.get("module4"):
        y = draw_events(cv, view, lang, y, width)
    if view.get("module6"):
        y = draw_obstacles(cv, view, lang, y + (12 if view.get("module4") else 0), width)
    return y
