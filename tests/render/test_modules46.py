"""Modules 4 and 6 on the board (M4-16, M6-21, UI-16, UI-17, X-08, X-12): the events and who used
them, the obstacles with each player's status and progress; a sound layout along random games with
2 to 5 players, in English and German."""

from __future__ import annotations

import random
from functools import cache

import pytest

from render import draw_board, draw_hand
from render import style as S
from render.common import MARGIN
from render.text import tr
from rules import GameState, Ruleset, apply, legal_moves, new_game, view

from .games import LONG_NAMES, NAMES, sample


@cache
def played46(players: int, seed: int, modules: tuple[int, ...] = (4, 6)) -> tuple[GameState, ...]:
    rng = random.Random(seed)
    names = list((LONG_NAMES if players % 2 else NAMES)[:players])
    st = new_game(Ruleset(edition=2, players=players, expansions=("market",), modules=modules), names, seed=seed)
    states = [st.copy()]
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
        states.append(st.copy())
    return tuple(states)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_X_12_boards_with_events_and_obstacles_along_a_random_game(players: int) -> None:
    states = played46(players, 60 + players)
    for i, st in enumerate(sample(states, 8)):
        lang = ("en", "de")[i % 2]
        seat = None if st.finished else st.decider
        v = view(st, seat)
        board = draw_board(v, lang)
        assert board.problems() == [], (i, lang)
        assert board.width == 1500
        shown = [t.shown for t in board.texts]
        assert not [s for s in shown if "render." in s]
        tags = {t.tag for t in board.texts}
        assert {"events.title"} | {f"event.{e['id']}{part}" for e in v["module4"]["events"]
                                   for part in ("", ".does", ".holder")} <= tags
        fields = [o["field"] for o in v["module6"]["obstacles"]]
        assert {f"obstacle.{f}.{s}" for f in fields for s in range(players)} <= tags
        assert draw_hand(v, lang).problems() == []


def test_UI_16_UI_17_status_and_progress_as_the_view_has_them() -> None:
    states = played46(4, 7)
    st = next(s for s in states if any(p["status"] == "blocked" for o in view(s, None)["module6"]["obstacles"]
                                       for p in o["players"]))
    v = view(st, None)
    board = draw_board(v, "en")
    texts = {t.tag: t.shown for t in board.texts}
    for o in v["module6"]["obstacles"]:
        for seat, p in enumerate(o["players"]):
            shown = texts[f"obstacle.{o['field']}.{seat}"]
            if p["status"] in ("open", "met", "blocked") and p["text"]:
                assert shown == p["text"]  # "1/2"
            elif p["status"] == "passed":
                assert shown.startswith("+") or shown == "passed"
    colours = {c for _, c in board.rgb().getcolors(maxcolors=1_000_000) or []}
    assert S.RED_DARK in colours  # the blocked bar


@pytest.mark.parametrize("lang", ["en", "de"])
def test_M4_02_M4_03_M4_16_the_events_row_says_what_they_are_who_may_take_them_and_who_took_them(lang: str) -> None:
    """Like the assistants' row: a title (what the events are, when and by whom they may be taken), and per
    event what it does and "free" or the marker and name of the player who took it."""
    states = played46(3, 11, (4,))
    st = next(s for s in states if any(e["used_by"] is not None for e in view(s, None)["module4"]["events"]))
    v = view(st, 1)
    board = draw_board(v, lang)
    assert board.problems() == []
    shown = {t.tag: t for t in board.texts}
    assert shown["events.title"].shown == tr("events", lang) and "4" in shown["events.title"].shown
    assert "event.twin" in shown and not any(t.startswith("obstacle") for t in shown)
    events = v["module4"]["events"]
    cell = (board.width - 2 * MARGIN + 8) / len(events)
    for i, e in enumerate(events):
        name = shown[f"event.{e['id']}"]
        assert name.box[0] - round(MARGIN + i * cell) == 10 and name.box[1] > shown["events.title"].box[3]
        assert shown[f"event.{e['id']}.does"].shown.replace("\n", " ") == tr(f"event_does_{e['id']}", lang)
        holder = shown[f"event.{e['id']}.holder"].text  # as given (a long name is shown cut)
        if e["used_by"] is None:
            assert holder == tr("event_free", lang)
        else:  # its player's name (the viewer's own with "(you)"), after his marker
            seat = e["used_by"]
            you = f" ({tr('you', lang)})" if seat == 1 else ""
            assert holder == v["players"][seat]["name"] + you
            assert shown[f"event.{e['id']}.holder"].box[0] - round(MARGIN + i * cell) == 34
    assert any(e["used_by"] is not None for e in events) and any(e["used_by"] is None for e in events)
    only6 = view(played46(2, 3, (6,))[-1], None)
    assert not any(t.tag.startswith("event.") for t in draw_board(only6, "en").texts)


@pytest.mark.parametrize("kind", ["twin", "order", "bonus"])
def test_X_07_the_header_names_the_modules_decisions(kind: str) -> None:
    st = next((s for players in (2, 3, 4, 5) for s in played46(players, 60 + players)
               if s.pending is not None and s.pending.kind == kind), None)
    if st is None:  # not in these games: any game with one (searched by seed)
        st = next(s for seed in range(40) for s in played46(3, seed)
                  if s.pending is not None and s.pending.kind == kind)
    for lang in ("en", "de"):
        board = draw_board(view(st, st.decider), lang)
        assert board.problems() == []
        header = next(t.shown for t in board.texts if t.tag == "header.status")
        assert header.split(": ", 1)[1] == tr(f"decides_{kind}", lang, name="x").split(": ", 1)[1], header
