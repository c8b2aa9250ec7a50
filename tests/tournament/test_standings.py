"""Standings: points, byes, Buchholz, VP share, head to head; and heats to a final."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import Game, Seat, seed_round, standings
from tournament.heats import advancing, best_results, final_order, next_stage, semi_spots


def g(rnd: int, table: int, *seats: tuple[int, int, int], size: int | None = None, vp_total: int | None = None) -> Game:
    s = tuple(Seat(p, place, vp) for p, place, vp in seats)
    return Game(rnd, table, size or len(s), s, vp_total if vp_total is not None else sum(x.vp for x in s))


def test_points_games_byes_and_buchholz() -> None:
    games = [g(1, 1, (1, 1, 50), (2, 2, 40), (3, 3, 30)), g(1, 2, (4, 1, 60), (5, 2, 20), (6, 3, 10))]
    rows = standings([1, 2, 3, 4, 5, 6, 7], games, {7: 1}, "bga", 3)
    by = {r.player: r for r in rows}
    assert by[1].points == 6 and by[2].points == 3 and by[3].points == 0
    assert by[7].points == 3 and by[7].byes == 1 and by[7].games == 0
    assert by[1].buchholz == Fraction(3, 2)  # the mean of 3 and 0
    assert by[1].vp_share == Fraction(50, 120)
    # 1 and 4 both have 6 points and Buchholz 3/2: 4's VP share (60/90) is higher
    assert [r.player for r in rows][:2] == [4, 1]


def test_head_to_head_breaks_what_the_rest_leaves_level() -> None:
    # tables with a computer seat (not an entrant): 1 and 2 end level on points (6), Buchholz (6) and VP
    # share (1/2); 2 was placed ahead of 1 in their one game, so 2 ranks first though 1 is the higher seed
    games = [
        g(1, 1, (2, 2, 20), (1, 3, 20), size=3, vp_total=60),
        g(2, 1, (1, 1, 30), size=2, vp_total=40),
        g(2, 2, (2, 2, 30), size=3, vp_total=40),
    ]
    rows = standings([1, 2], games, {}, "bga", 3)
    assert [(r.points, r.buchholz, r.vp_share) for r in rows] == [(6, 6, Fraction(1, 2))] * 2
    assert [r.player for r in rows] == [2, 1]


def test_dropped_players_keep_their_results_and_a_mark() -> None:
    rows = standings([1, 2], [g(1, 1, (1, 1, 10), (2, 2, 5))], {}, "bga", 2, dropped={1})
    assert rows[0].player == 1 and rows[0].dropped and not rows[1].dropped


def random_games(rng: random.Random, players: list[int], rounds: int, size: int) -> list[Game]:
    games = []
    for rnd in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        for t, table in enumerate(seed_round(order, size).tables):
            vps = [rng.randint(0, 40) for _ in table]
            ranks = sorted(vps, reverse=True)
            seats = tuple(Seat(p, ranks.index(v) + 1, v) for p, v in zip(table, vps, strict=True))
            games.append(Game(rnd, t + 1, len(table), seats, sum(vps)))
    return games


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 14), st.integers(1, 5), st.integers(2, 5), st.integers(0, 2**32))
def test_standings_do_not_depend_on_the_order_of_the_results(n: int, rounds: int, size: int, seed: int) -> None:
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    games = random_games(rng, players, rounds, size)
    shuffled = games[:]
    rng.shuffle(shuffled)
    a = standings(players, games, {}, "bga", size)
    assert a == standings(players, shuffled, {}, "bga", size)
    assert sum(r.points for r in a) == sum(sum(x.points("bga").values()) for x in games)
    assert [r.rank for r in a] == list(range(1, n + 1))
    keys = [(-r.points, -r.buchholz, -r.vp_share) for r in a]
    assert keys == sorted(keys)


def test_heats_send_winners_then_the_best_runners_up() -> None:
    # 12 players, four heat tables of 3: more tables than seats at a table, so semi-finals of 3 x 3
    heats = [
        g(1, 1, (1, 1, 50), (2, 2, 49), (3, 3, 1)),  # a close second: share 49/100
        g(1, 2, (4, 1, 60), (5, 2, 20), (6, 3, 20)),
        g(1, 3, (7, 1, 40), (8, 2, 35), (9, 3, 25)),
        g(1, 4, (10, 1, 30), (11, 2, 29), (12, 3, 29)),
    ]
    seed = list(range(1, 13))
    assert next_stage(4, 3) == "semi" and semi_spots(3, 12) == 9
    up = advancing(seed, heats, 9, seed)
    assert set(up[:4]) == {1, 4, 7, 10}
    assert up[4:8] == [2, 8, 11, 5]  # the runners-up by VP share
    assert up[8] == 12  # the best third place fills the last seat
    semis = seed_round(up, 3)
    assert sorted(len(t) for t in semis.tables) == [3, 3, 3]
    semi_games = [g(2, i + 1, *((p, j + 1, 30 - j) for j, p in enumerate(t))) for i, t in enumerate(semis.tables)]
    finalists = advancing(seed, semi_games, 3, up)
    assert finalists == [t[0] for t in semis.tables]
    final = [g(3, 1, (finalists[2], 1, 70), (finalists[0], 2, 60), (finalists[1], 3, 50))]
    order = final_order(seed, heats, semi_games, final)
    assert order[:3] == [finalists[2], finalists[0], finalists[1]]
    assert sorted(order) == seed and len(set(order)) == 12


def test_several_heats_count_the_best() -> None:
    heats = [g(1, 1, (1, 2, 10), (2, 1, 20)), g(2, 1, (1, 1, 30), (3, 2, 10))]
    assert best_results(heats)[1] == (1, Fraction(-3, 4))
    assert next_stage(2, 3) == "final"
