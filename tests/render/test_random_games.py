"""Every image kind renders, with a sound layout, for states sampled along random games of both
editions and every player count."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import draw_board, draw_final, draw_hand, draw_lookup, render_board, render_card, render_final, render_hand
from rules import catalogue, view

from .games import played, sample

CONFIGS = [(edition, players) for edition in (1, 2) for players in (2, 3, 4)]
LAST = "Ekaterina Alexeyevna Romanova bought St Isaac's Cathedral (lower row) over Market for 12 rubles"


def _png_ok(data: bytes, width: int | None = None) -> None:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    im = Image.open(io.BytesIO(data))
    im.load()
    if width is not None:
        assert im.width == width


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_board_and_hand_along_a_random_game(edition: int, players: int) -> None:
    states = played(edition, players, 100 + 10 * edition + players, long_names=players == 3)
    for i, st in enumerate(sample(states, 14)):
        lang = ("en", "de")[i % 2]
        deciding = None if st.finished else st.decider
        for seat in dict.fromkeys([deciding, None, 0]):  # the one to decide, a spectator, seat 0
            v = view(st, seat)
            board = draw_board(v, lang, LAST if i % 3 else None)
            assert board.problems() == [], (i, seat)
            assert 1200 <= board.width <= 1600
            hand = draw_hand(v, lang)
            assert hand.problems() == [], (i, seat)
        png = render_board(view(st, 0), lang, "pass")
        _png_ok(png, board.width)
        _png_ok(render_hand(view(st, 0), lang))


@pytest.mark.parametrize(("edition", "players"), CONFIGS)
def test_final_scores_of_a_random_game(edition: int, players: int) -> None:
    states = played(edition, players, 200 + 10 * edition + players, long_names=players == 2)
    assert states[-1].finished
    for st in (states[-1], states[len(states) // 2], states[0]):  # the end, and "scores so far"
        for lang in ("en", "de"):
            cv = draw_final(view(st, 0), lang)
            assert cv.problems() == []
    _png_ok(render_final(view(states[-1], None), "de"))


@pytest.mark.parametrize("edition", [1, 2])
def test_every_card_lookup(edition: int) -> None:
    for ct in catalogue(edition).types:
        for lang in ("en", "de"):
            cv = draw_lookup(ct.id, edition, lang)
            assert cv.problems() == [], (ct.id, lang)
    _png_ok(render_card("czar_and_carpenter", edition, "de"))
