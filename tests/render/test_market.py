"""The board of a Market game (2nd edition, 2 to 5 players): a sound layout along random games, the
marketplace track showing every player's marker where the view puts it (ties side by side), the value
tiles and the Sack holder, a full display in two bands, yellow and crate faces, and the token's good on
a "?" card."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

from render import Canvas, draw_board, draw_hand, draw_lookup, render_board
from render import style as S
from render.cardface import CARD_RATIO, draw_card
from render.market import good_of_card
from rules import catalogue, view

from .games import late, played, sample

LAST = "Elisabeth Petrovna Romanova bought Crate of Cabbages (lower row) for 1 ruble"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_market_board_and_hand_along_a_random_game(players: int) -> None:
    states = played(2, players, 300 + players, long_names=players in (3, 5), market=True)
    assert states[-1].finished
    for i, st in enumerate(sample(states, 12)):
        lang = ("en", "de")[i % 2]
        deciding = None if st.finished else st.decider
        for seat in dict.fromkeys([deciding, None, 0]):
            v = view(st, seat)
            board = draw_board(v, lang, LAST if i % 3 else None)
            assert board.problems() == [], (i, seat)
            assert not [t.shown for t in board.texts if "render." in t.shown or "phase." in t.shown]
            assert board.width == 1500
            tags = {t.tag for t in board.texts}
            assert {"market.title", "market.tile", "market.next", "market.sack"} <= tags
            assert {f"market.{g}.name" for g in v["market"]["goods"]} <= tags
            assert draw_hand(v, lang).problems() == [], (i, seat)
    assert render_board(view(states[-1], None), "de").startswith(b"\x89PNG")


def _market_view(players: int = 5) -> dict[str, Any]:
    st = late(played(2, players, 42, market=True))
    return view(st, st.decider)


def _box(cv: Canvas, tag: str) -> tuple[int, int, int, int]:
    return next(t.box for t in cv.texts if t.tag == tag)


def _colours(im: Image.Image) -> list[tuple[int, tuple[int, int, int]]]:
    """(pixel count, RGB colour) of every colour in an RGB image."""
    return [(n, (int(c[0]), int(c[1]), int(c[2]))) for n, c in im.getcolors(maxcolors=1_000_000) or []
            if isinstance(c, tuple)]


def _cell_colours(cv: Canvas, good: str, field: int) -> set[tuple[int, int, int]]:
    """The colours inside one field of one good's row on the track."""
    fx0, _, fx1, _ = _box(cv, f"market.field.{field}")
    _, gy0, _, gy1 = _box(cv, f"market.{good}.name")
    return {c for _, c in _colours(cv.rgb().crop((fx0 + 2, gy0, fx1 - 2, gy1)))}


def test_marketplace_markers_stand_where_the_view_says_ties_side_by_side() -> None:
    v = _market_view()
    v = copy.deepcopy(v)
    goods = v["market"]["goods"]
    for seat in range(5):
        v["market"]["fields"][seat] = {g: 0 for g in goods}
        v["market"]["tens"][seat] = {g: 0 for g in goods}
    v["market"]["fields"][0][goods[0]] = 7
    for seat in range(5):  # all five tied on field 3 of the second good: two lines of markers
        v["market"]["fields"][seat][goods[1]] = 3
    v["market"]["fields"][4][goods[2]] = 10
    v["market"]["tens"][4][goods[2]] = 1
    cv = draw_board(v, "en")
    assert cv.problems() == []
    colour = S.PLAYER_COLOURS
    assert colour[0] in _cell_colours(cv, goods[0], 7)
    assert colour[0] not in _cell_colours(cv, goods[0], 6)
    tied = _cell_colours(cv, goods[1], 3)
    assert all(colour[s] in tied for s in range(5))
    assert not any(colour[s] in _cell_colours(cv, goods[1], 4) for s in range(5))
    assert colour[4] in _cell_colours(cv, goods[2], 10)
    assert any(t.tag == f"market.{goods[2]}.4.tens" and t.shown == "+10" for t in cv.texts)
    moved = copy.deepcopy(v)
    moved["market"]["fields"][0][goods[0]] = 8
    cv2 = draw_board(moved, "en")
    assert colour[0] not in _cell_colours(cv2, goods[0], 7) and colour[0] in _cell_colours(cv2, goods[0], 8)


def test_value_tiles_and_sack_holder_are_shown() -> None:
    v = copy.deepcopy(_market_view())
    v["market"]["tile"] = [3, 1]
    v["market"]["tiles_left"] = [[3, 1], [4, 2], [5, 2], [6, 3]]
    v["market"]["sack"] = 2
    cv = draw_board(v, "en")
    shown = {t.tag: t.shown for t in cv.texts}
    assert "3" in shown["market.tile"] and "1" in shown["market.tile"]
    assert shown["market.next"] == "next 4/2"
    assert v["players"][2]["name"] in shown["market.sack"]
    v["market"]["tiles_left"] = [[6, 3]]
    assert {t.tag: t.shown for t in draw_board(v, "de").texts}["market.next"] == "letztes Plättchen"


def test_a_full_display_takes_two_bands_of_equal_cards() -> None:
    v = copy.deepcopy(_market_view())
    v["upper"] = ["chick", "hen", "crate_fish", "apple", "field", "lumberjack", "library", "author", "harbor"]
    v["upper_markets"] = [None] * 9
    v["lower"] = ["caviar", "cabbage"]
    v["lower_markets"] = [None] * 2
    cv = draw_board(v, "en")
    assert cv.problems() == []
    upper = _box(cv, "display.upper.0.name")
    lower = _box(cv, "display.lower.0.name")
    assert lower[1] > upper[3]  # the lower row is a band below the upper one
    assert upper[2] - upper[0] == lower[2] - lower[0]
    # The crate is orange, a market card yellow: their colour bands differ from each other.
    x0, y0, _, _ = _box(cv, "display.upper.2.name")
    crate_band = cv.rgb().getpixel((x0 + 2, y0 - 12))
    x0, y0, _, _ = _box(cv, "display.upper.0.name")
    chick_band = cv.rgb().getpixel((x0 + 2, y0 - 12))
    assert crate_band == S.ORANGE_DARK and chick_band == S.COIN_EDGE


def test_a_question_card_shows_its_token_good() -> None:
    v = {"market": {"tokens": {"fish": {"card": "ship_builder", "seat": 1}, "apple": {"card": "czar_and_carpenter",
                                                                                       "seat": 0}}}}
    assert good_of_card(v, 1, "ship_builder", "?", 0) == "fish"
    assert good_of_card(v, 0, "ship_builder", "?", 0) == "?"  # the token is another player's
    assert good_of_card(v, 1, "ship_builder", "grain", 0) == "grain"  # a printed good stays
    assert good_of_card(v, 0, "czar_and_carpenter", "?", 0) == "apple"
    assert good_of_card(v, 0, "czar_and_carpenter", "?", 1) == "?"


def test_a_question_chip_draws_the_good_not_the_question_mark() -> None:
    v = copy.deepcopy(_market_view())
    v["players"][1]["tableau"].append({"card": "ship_builder", "face_down": False, "market": "?"})
    marks = [t for t in draw_board(v, "en").texts if t.tag.startswith("player.1.") and t.tag.endswith(".good")]
    assert any(t.shown == "?" for t in marks)  # no token yet: the "?" roundel
    free = next(g for g in v["market"]["goods"] if g not in v["market"]["tokens"])
    v["market"]["tokens"][free] = {"card": "ship_builder", "seat": 1}
    marks = [t for t in draw_board(v, "en").texts if t.tag.startswith("player.1.") and t.tag.endswith(".good")]
    assert not any(t.shown == "?" for t in marks)


def test_market_board_shrunk_to_discord_width_keeps_its_markers() -> None:
    """At 550 px wide (Discord's preview) a player's marker on the track is still several pixels of
    its own colour."""
    v = copy.deepcopy(_market_view())
    goods = v["market"]["goods"]
    for seat in range(5):
        v["market"]["fields"][seat] = {g: (seat + 1 if g == goods[0] else 0) for g in goods}
    cv = draw_board(v, "en")
    scale = 550 / cv.width
    small = cv.rgb().resize((550, round(cv.height * scale)), Image.Resampling.LANCZOS)
    for seat in range(5):
        fx0, _, fx1, _ = _box(cv, f"market.field.{seat + 1}")
        _, gy0, _, gy1 = _box(cv, f"market.{goods[0]}.name")
        cell = small.crop((int(fx0 * scale), int(gy0 * scale), int(fx1 * scale), int(gy1 * scale)))
        want = S.PLAYER_COLOURS[seat]
        near = sum(n for n, c in _colours(cell) if sum(abs(a - b) for a, b in zip(c, want, strict=True)) < 40)
        assert near >= 20, (seat, near)


def test_market_card_faces_keep_whole_names_at_every_display_width() -> None:
    yellow = [ct for ct in catalogue(2, ("market",)).types if ct.colour == "yellow"]
    assert len(yellow) == 20 and sum(ct.ability == "crate" for ct in yellow) == 5
    for width in (120, 140, 150, 176, 250):
        h = round(width * CARD_RATIO)
        cv = Canvas(width + 10, h + 10, S.BG)
        for ct in yellow:
            for lang in ("en", "de"):
                cv.texts.clear()
                draw_card(cv, (5, 5, 5 + width, 5 + h), ct, 2, lang)
                assert cv.problems() == [], (width, ct.id, lang)


def test_late_five_player_market_board_is_small_and_on_the_palette() -> None:
    v = _market_view()
    cv = draw_board(v, "de", LAST)
    png = cv.to_png()
    assert len(png) < 400_000
    back = Image.open(io.BytesIO(png)).convert("RGB")
    assert back.tobytes() == cv.rgb().tobytes()


@pytest.mark.parametrize("kind", ["good", "crate"])
def test_the_markets_decisions_are_named_in_the_header(kind: str) -> None:
    for seed in range(1, 20):
        st = next((s for s in played(2, 5, 900 + seed, market=True)
                   if s.pending is not None and s.pending.kind == kind), None)
        if st is None or st.pending is None:
            continue
        seat = st.pending.seat
        words = {"en": "good", "de": "Ware"} if kind == "good" else {"en": "crate", "de": "Kiste"}
        for lang, word in words.items():
            cv = draw_board(view(st, None), lang)
            assert cv.problems() == []
            status = next(t.shown for t in cv.texts if t.tag == "header.status")
            assert word in status and st.seats[seat] in status
        return
    raise AssertionError(f"no {kind} decision in 19 games")


def test_every_market_card_lookup() -> None:
    for ct in catalogue(2, ("market",)).types:
        if ct.deck != "market":
            continue
        for lang in ("en", "de"):
            cv = draw_lookup(ct.id, 2, lang)
            assert cv.problems() == [], (ct.id, lang)
            assert not [t.shown for t in cv.texts if "render." in t.shown], (ct.id, lang)  # no missing string
    with pytest.raises(ValueError):
        draw_lookup("chick", 1)
