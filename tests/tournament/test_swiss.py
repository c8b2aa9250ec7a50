"""Swiss pairing properties: every active player at exactly one table or on a bye, sizes in the limits, no
repeat opponents whenever a pairing without them exists (brute force on small fields), byes spread fairly."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from tournament import Game, Seat, pair_round, seed_round, standings, table_sizes
from tournament.standings import met_pairs
from tournament.swiss import Pairing, choose_byes


def check_shape(p: Pairing, order: list[int], size: int, low: int, high: int) -> None:
    seated = [x for t in p.tables for x in t]
    assert sorted(seated + list(p.byes)) == sorted(order)  # each player exactly once
    assert all(low <= len(t) <= high and abs(len(t) - size) <= 1 for t in p.tables)
    assert (tuple(sorted((len(t) for t in p.tables), reverse=True)), len(p.byes)) == table_sizes(
        len(order), size, low, high
    )


def partitions(players: list[int], sizes: Counter[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every split of ``players`` into tables of the sizes in ``sizes`` (brute force)."""
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for k in list(sizes):
        if not sizes[k]:
            continue
        for others in _combos(rest, k - 1):
            sizes[k] -= 1
            left = [x for x in rest if x not in others]
            for tail in partitions(left, sizes):
                yield [(head, *others), *tail]
            sizes[k] += 1


def _combos(xs: list[int], k: int) -> Iterator[tuple[int, ...]]:
    if k == 0:
        yield ()
        return
    for i, x in enumerate(xs):
        for rest in _combos(xs[i + 1 :], k - 1):
            yield (x, *rest)



@st.composite
def fields(draw: st.DrawFn) -> tuple[list[int], dict[int, set[int]], int, int, int, dict[int, int]]:
    n = draw(st.integers(1, 9))
    low = draw(st.integers(2, 5))
    high = draw(st.integers(low, 5))
    size = draw(st.integers(low, high))
    order = draw(st.permutations(list(range(1, n + 1))))
    met: dict[int, set[int]] = {p: set() for p in order}
    density = draw(st.floats(0, 1))
    rng = random.Random(draw(st.integers(0, 2**32)))
    for a in order:
        for b in order:
            if a < b and rng.random() < density:
                met[a].add(b)
                met[b].add(a)
    byes_had = {p: draw(st.integers(0, 2)) for p in order}
    return list(order), met, size, low, high, byes_had


@settings(max_examples=300, deadline=None)
@given(fields())
def test_pairing_is_a_valid_round_with_no_avoidable_repeats(
    f: tuple[list[int], dict[int, set[int]], int, int, int, dict[int, int]],
) -> None:
    order, met, size, low, high, byes_had = f
    p = pair_round(order, met, size, byes_had, low, high)
    check_shape(p, order, size, low, high)
    assert p.byes == choose_byes(order, len(p.byes), byes_had)
    seated = [x for x in order if x not in p.byes]
    if p.repeats(met):
        sizes = tuple(len(t) for t in p.tables)
        free = any(Pairing(tuple(t), ()).repeats(met) == 0 for t in partitions(seated, Counter(sizes)))
        assert not free, f"{p} repeats opponents though a pairing without repeats exists"


def test_the_brute_force_finds_a_pairing_the_greedy_order_misses() -> None:
    # 1 met 2 and 3; the top-down greedy's first table (1, 4) leaves 2 and 3, who met: the search goes back
    met = {1: {2, 3}, 2: {1, 3}, 3: {1, 2}, 4: set()}
    p = pair_round([1, 2, 3, 4], {1: {2}, 2: {1, 3}, 3: {2}, 4: set()}, 2)
    assert p.repeats({1: {2}, 2: {1, 3}, 3: {2}, 4: set()}) == 0
    assert set(map(frozenset, p.tables)) == {frozenset({1, 3}), frozenset({2, 4})}
    # nobody can avoid meeting again: the fewest repeats (one pair)
    assert pair_round([1, 2, 3, 4], met, 2).repeats(met) == 1


@given(fields())
def test_seeding_is_a_snake(f: tuple[list[int], dict[int, set[int]], int, int, int, dict[int, int]]) -> None:
    order, _, size, low, high, byes_had = f
    p = seed_round(order, size, byes_had, low, high)
    check_shape(p, order, size, low, high)
    if len(p.tables) > 1:  # the best seeds head different tables
        seated = [x for x in order if x not in p.byes]
        assert [t[0] for t in p.tables] == seated[: len(p.tables)]


def test_seed_order_over_three_tables() -> None:
    p = seed_round(list(range(1, 10)), 3)
    assert p.tables == ((1, 6, 7), (2, 5, 8), (3, 4, 9))


def play(p: Pairing, rnd: int, rng: random.Random) -> list[Game]:
    games = []
    for t, table in enumerate(p.tables):
        order = list(table)
        rng.shuffle(order)
        vps = sorted((rng.randint(10, 60) for _ in order), reverse=True)
        games.append(Game(rnd, t + 1, len(order), tuple(Seat(x, i + 1, vps[i]) for i, x in enumerate(order)), sum(vps)))
    return games


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 23), st.integers(2, 5), st.integers(1, 9), st.integers(0, 2**32))
def test_byes_are_spread_fairly(n: int, size: int, rounds: int, seed: int) -> None:
    """Tables of exactly ``size`` (the limits force byes): nobody has a second bye before all have had one."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    games: list[Game] = []
    byes: dict[int, int] = {}
    for rnd in range(1, rounds + 1):
        if rnd == 1:
            p = seed_round(players, size, byes, size, size)
        else:
            order = [r.player for r in standings(players, games, byes, "bga", size)]
            p = pair_round(order, met_pairs(games), size, byes, size, size)
        check_shape(p, players, size, size, size)
        for x in p.byes:
            byes[x] = byes.get(x, 0) + 1
        games += play(p, rnd, rng)
        counts = [byes.get(x, 0) for x in players]
        assert max(counts) - min(counts) <= 1
