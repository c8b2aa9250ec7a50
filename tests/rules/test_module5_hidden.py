"""Module 5's assignments stay hidden until the end (M5-19, X-08): no seat's view and no computer
player's decision depends on the assignments of others (or on those left in the box)."""

from __future__ import annotations

import random

import pytest

from players.ai import SEARCHES, choose
from players.hidden import determinize
from players.search import search
from rules import GameState, apply, legal_moves, new_game, view
from rules.expansions.assignments import in_play, mstate

from .helpers import module_rules, seats


def others_redealt(st: GameState, seat: int | None, rng: random.Random) -> GameState:
    """The same game as ``seat`` sees it (None: a spectator), with every other seat's assignments (and
    a choice already made, hidden until the end) dealt again from those ``seat`` does not hold."""
    d = st.copy()
    m = mstate(d)
    own = m["dealt"][seat] if seat is not None else []
    pool = [a for a in in_play(d.n) if a not in own]
    rng.shuffle(pool)
    for s in range(d.n):
        if s != seat:
            m["dealt"][s] = sorted(pool[:3])
            del pool[:3]
            if m["chosen"][s]:
                m["chosen"][s] = rng.choice(m["dealt"][s])
    return d


def random_positions(players: int, seed: int, rate: float = 0.05) -> list[GameState]:
    """Copies of sampled positions of a random game with Modules 3 and 5, the final decisions included."""
    st = new_game(module_rules(players, (3, 5)), seats(players), seed=seed)
    rng = random.Random(seed)
    out = []
    while not st.finished:
        if rng.random() < rate or st.pending is not None and st.pending.kind == "assignment":
            out.append(st.copy())
        apply(st, rng.choice(legal_moves(st)).action)
    return out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_M5_19_X_08_a_view_does_not_change_with_others_assignments(players: int) -> None:
    rng = random.Random(players)
    positions = random_positions(players, seed=100 + players)
    assert any(p.pending is not None and p.pending.kind == "assignment" for p in positions)
    for st in positions:
        for seat in (*range(players), None):
            v = view(st, seat)
            for _ in range(2):
                changed = others_redealt(st, seat, rng)
                assert view(changed, seat) == v


def test_M5_19_finished_game_shows_everyone_everything() -> None:
    st = new_game(module_rules(3, (5,)), seats(3), seed=9)
    rng = random.Random(9)
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
    for seat in (0, 1, 2, None):
        shown = [p["assignments"] for p in view(st, seat)["players"]]
        assert [[e["id"] for e in ids] for ids in shown] == mstate(st)["dealt"]
        assert [p["assignment_chosen"] for p in view(st, seat)["players"]] == mstate(st)["chosen"]


def test_M5_19_determinizations_redeal_others_assignments_only() -> None:
    st = random_positions(4, seed=7, rate=0.02)[3]
    seat = st.decider
    rng = random.Random(1)
    deals = [determinize(st, seat, rng) for _ in range(20)]
    for d in deals:
        m = mstate(d)
        assert m["dealt"][seat] == mstate(st)["dealt"][seat]
        flat = [a for h in m["dealt"] for a in h]
        assert len(flat) == len(set(flat)) == 12 and set(flat) <= set(in_play(4))
        assert all(len(h) == 3 for h in m["dealt"])
    assert len({tuple(map(tuple, mstate(d)["dealt"])) for d in deals}) > 1


@pytest.mark.parametrize("players", [3, 4])
def test_M5_19_computer_players_decide_alike_whatever_others_hold(players: int) -> None:
    """rules.ai.choose (normal) and the strong search, with the same seed, make the same decision (the
    strong one with the same visit counts) when only others' assignments differ: mid-game and at the
    final choice of an assignment."""
    positions = random_positions(players, seed=20 + players, rate=0.15)
    mid = [p for p in positions if p.pending is None and len(legal_moves(p)) >= 3][:2]
    final = [p for p in positions if p.pending is not None and p.pending.kind == "assignment"][:2]
    assert mid and final
    for st in final:  # a close race, so that who wins turns on the assignments
        st.vp = [50] * st.n
    rng = random.Random(players)
    for st in mid + final:
        seat = st.decider
        changed = [others_redealt(st, seat, rng) for _ in range(2)]
        assert all(mstate(c)["dealt"] != mstate(st)["dealt"] for c in changed)
        expected = choose(st, seat, "normal", rng=9)
        assert all(choose(c, seat, "normal", rng=9) == expected for c in changed)
        result = search(st, seat, random.Random(3), SEARCHES["strong"], iterations=60)
        for c in changed:
            other = search(c, seat, random.Random(3), SEARCHES["strong"], iterations=60)
            assert (other.action, other.visits, other.win_chance) == (result.action, result.visits, result.win_chance)


@pytest.mark.parametrize(("level", "players", "iterations"), [("normal", 4, None), ("strong", 2, 4)])
def test_computer_players_play_whole_games_with_modules_3_and_5(
    level: str, players: int, iterations: int | None
) -> None:
    """The levels pick among legal_moves generically: whole games end, the final choices included."""
    st = new_game(module_rules(players, (3, 5)), seats(players), seed=61)
    while not st.finished:
        apply(st, choose(st, level=level, rng=st.action_count, iterations=iterations))
    assert all(c for c in mstate(st)["chosen"])
