"""Modules 3 and 5 in the images (M3-08, M5-19, UI-13, X-12): the assistants and their holders on the
board for everyone; a player's assignments, with what each would score now, only in that player's
own hand image, never on the board and never in another player's hand."""

from __future__ import annotations

import random

import pytest

from render import draw_board, draw_hand, render_board, render_hand
from rules import GameState, Ruleset, apply, legal_moves, new_game, view
from rules.expansions.assignments import assignment_name, in_play, mstate

from .games import LONG_NAMES, sample


def played(players: int, seed: int, open_money: bool = True) -> list[GameState]:
    rs = Ruleset(edition=2, players=players, open_money=open_money, expansions=("market",), modules=(3, 5))
    st = new_game(rs, list(LONG_NAMES[:players]), seed=seed)
    rng = random.Random(seed)
    states = [st.copy()]
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
        states.append(st.copy())
    return states


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_M3_08_M5_19_boards_and_hands_along_a_random_game(players: int) -> None:
    states = played(players, 500 + players, open_money=players != 3)
    choosing = [s for s in states if s.pending is not None and s.pending.kind == "assignment"]
    for i, st in enumerate(sample(tuple(states), 8) + choosing[:1]):
        lang = ("en", "de")[i % 2]
        for seat in (*range(players), None):
            v = view(st, seat)
            board = draw_board(v, lang)
            assert board.problems() == [], (i, seat)
            tags = {t.tag for t in board.texts}
            assert {"assistants.title"} | {f"assistants.{e['assistant']}" for e in v["assistants"]} <= tags
            assert not any(t.startswith("assignments.") for t in tags)  # never on the board
            assert not [t.shown for t in board.texts if "render." in t.shown]
            hand = draw_hand(v, lang)
            assert hand.problems() == [], (i, seat)
            shown = {t.tag: t.shown for t in hand.texts}
            if seat is None:
                assert not any(t.startswith("assignments.") for t in shown)
                continue
            own = mstate(st)["dealt"][seat]
            assert [shown[f"assignments.{k}.name"] for k in range(3)] == [assignment_name(a, lang) for a in own]
            for k, e in enumerate(v["players"][seat]["assignments"]):
                assert str(e["vp"]) in shown[f"assignments.{k}.vp"]
            others = {a for s, ids in enumerate(mstate(st)["dealt"]) if s != seat for a in ids}
            names = {assignment_name(a, lang) for a in others}
            assert not names & set(shown.values())
    assert render_hand(view(states[-1], 0)).startswith(b"\x89PNG")


def test_UI_13_hidden_money_leaves_assignment_6_open_in_the_hand() -> None:
    st = played(3, 77, open_money=False)[40]
    m = mstate(st)
    m["dealt"] = [[1, 6, 12], [2, 3, 4], [5, 7, 8]]
    hand = draw_hand(view(st, 0), "en")
    assert hand.problems() == []
    vp = next(t.shown for t in hand.texts if t.tag == "assignments.1.vp")
    assert " ".join(vp.split()) == "now 10 VP (+10 with the most rubles)"


def test_M5_19_board_and_hand_images_do_not_change_with_others_assignments() -> None:
    st = played(4, 91)[120]
    rng = random.Random(4)
    for seat in range(4):
        other = st.copy()
        m = mstate(other)
        pool = [a for a in in_play(4) if a not in m["dealt"][seat]]
        rng.shuffle(pool)
        for s in range(4):
            if s != seat:
                m["dealt"][s] = sorted(pool[:3])
                del pool[:3]
        assert m["dealt"] != mstate(st)["dealt"]
        assert render_board(view(other, seat)) == render_board(view(st, seat))
        assert render_hand(view(other, seat)) == render_hand(view(st, seat))
