"""A tournament's standings picture (``render.standings``), drawn for real: every text inside its box and none
cut that must stay whole, a dropped player greyed and struck through, the podium's medal colours only when
the tournament is over, and the rows beyond the picture's limit counted in a last line."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import draw_standings, render_standings
from render import style as S
from render.standings import MAX_ROWS

NAMES = ["Anna", "Boris", "Katharina von Hohenzollern-Sigmaringen", "Dmitri", "Jelena", "Fjodor", "Galina",
         "Iwan", "🤖 Computer (normal)"]


def data(n: int, *, finished: bool = False, dropped: tuple[int, ...] = ()) -> dict[str, object]:
    rows = [{"rank": i + 1, "name": NAMES[i % len(NAMES)] + (f" {i}" if i >= len(NAMES) else ""),
             "points": ["12", "10.5", "9", "7.33", "6", "4.5", "3", "1.5", "0"][i % 9], "games": 3, "byes": i % 2,
             "buchholz": f"{20 - i}.5", "share": 40 - i, "dropped": i in dropped} for i in range(n)]
    return {"name": "Spring Cup", "round": 3, "finished": finished, "rows": rows, "more": 0}


def colours(png: bytes) -> set[object]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {c for _, c in image.getcolors(maxcolors=1 << 20) or []}


@pytest.mark.parametrize(("n", "lang", "finished"), [(9, "en", False), (9, "de", True), (3, "en", True),
                                                     (1, "de", False), (0, "en", False)])
def test_the_standings_are_laid_out_soundly(n: int, lang: str, finished: bool) -> None:
    cv = draw_standings(data(n, finished=finished, dropped=(4,)), lang)
    assert cv.problems() == []
    shown = [r.shown for r in cv.texts if r.tag == "standings.player"]
    assert len(shown) == n
    assert sum(1 for r in cv.texts if r.tag == "standings.podium_name") == (min(n, 3) if finished else 0)


def test_a_dropped_player_is_marked() -> None:
    cv = draw_standings(data(6, dropped=(2,)), "en")
    rows = [r for r in cv.texts if r.tag == "standings.player"]
    [mark] = [r for r in cv.texts if r.tag == "standings.dropped"]
    assert mark.shown == "dropped" and rows[2].box[1] == mark.box[1]  # on the dropped player's row, whole
    x0, _, x1, _ = rows[2].ink
    y = (rows[2].box[1] + rows[2].box[3]) // 2
    line = cv.rgb().crop((x0, y - 1, x1, y + 2))  # the strike through the name, in grey
    assert sum(1 for _, c in line.getcolors(maxcolors=1 << 16) or [] if c == S.GREY) > 0
    grey = [r for r in cv.texts if r.tag == "standings.points"]
    assert grey[2].shown == "9"


def test_the_podium_is_drawn_at_the_end_only() -> None:
    running = colours(render_standings(data(5), "en"))
    final = colours(render_standings(data(5, finished=True), "en"))
    assert S.GOLD in final and S.GOLD not in running
    image = Image.open(io.BytesIO(render_standings(data(5, finished=True), "en")))
    assert image.format == "PNG" and image.width == 800


def test_a_long_field_shows_its_top_and_counts_the_rest() -> None:
    cv = draw_standings(data(40), "en")
    assert cv.problems() == []
    assert sum(1 for r in cv.texts if r.tag == "standings.player") == MAX_ROWS
    [more] = [r for r in cv.texts if r.tag == "standings.more"]
    assert "15 more" in more.shown
