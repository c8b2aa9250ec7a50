"""Swiss pairing for tables of several players.

Round 1 (``seed_round``) deals the players, in the order of the server's rating (best first), over the
tables in a snake (table 1, 2 … T, then T … 1 and again), so every table has a mix of strengths. The
players the bye rule picks (``tables.table_sizes`` says how many) sit the round out first.

Later rounds (``pair_round``) take the players in standings order and fill the tables from the top table
down: the best player not yet seated heads the next table and is joined by the next best players who have
not met him or one another. When that leaves the lower tables unfillable, a depth-first search goes back
over the choices made (the lowest tables first), and tries the other orders of the table sizes too; it is
complete, so when any pairing without repeat opponents exists for these tables it finds one, within a
budget of steps (``BUDGET``; small fields never reach it). Past the budget the tables are filled top down
with, for each seat, the next player with the fewest earlier meetings with those already at the table.

The bye rule: a bye goes to the player with the fewest byes so far and, among those, the lowest in the
order (the lowest seed in round 1, the last in the standings later); so no player has a second bye while a
player who played every round has none. A bye scores the mean points of a table (``points.bye_points``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence, Set
from dataclasses import dataclass

from .tables import MAX_TABLE, MIN_TABLE, table_sizes

BUDGET = 200_000  # candidate steps of the search before it settles for the fewest repeats
_NONE: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's tables (each in seating-order-free form, best first) and its byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]

    def repeats(self, met: Mapping[int, Set[int]]) -> int:
        """Pairs of players at one table who met before."""
        return sum(1 for t in self.tables for i, a in enumerate(t) for b in t[i + 1 :] if b in met.get(a, _NONE))


class _OutOfBudget(Exception):
    pass


def choose_byes(order: Sequence[int], count: int, byes_had: Mapping[int, int]) -> tuple[int, ...]:
    """The ``count`` players who sit out: fewest byes so far, then lowest in ``order``."""
    if count <= 0:
        return ()
    rank = {p: i for i, p in enumerate(order)}
    return tuple(sorted(order, key=lambda p: (byes_had.get(p, 0), -rank[p]))[:count])


def seed_round(
    order: Sequence[int],
    size: int,
    byes_had: Mapping[int, int] | None = None,
    low: int = MIN_TABLE,
    high: int = MAX_TABLE,
) -> Pairing:
    """A round dealt in a snake over the tables from ``order`` (best first): round 1, and the semi-finals."""
    sizes, count = table_sizes(len(order), size, low, high)
    byes = choose_byes(order, count, byes_had or {})
    seated = [p for p in order if p not in set(byes)]
    tables: list[list[int]] = [[] for _ in sizes]
    i, step = 0, 1
    for p in seated:
        while len(tables[i]) >= sizes[i]:
            i, step = _snake(i, step, len(sizes))
        tables[i].append(p)
        i, step = _snake(i, step, len(sizes))
    return Pairing(tuple(tuple(t) for t in tables), byes)


def _snake(i: int, step: int, n: int) -> tuple[int, int]:
    if 0 <= i + step < n:
        return i + step, step
    return i, -step  # turn at the end: the same table takes the next player


def pair_round(
    order: Sequence[int],
    met: Mapping[int, Set[int]],
    size: int,
    byes_had: Mapping[int, int] | None = None,
    low: int = MIN_TABLE,
    high: int = MAX_TABLE,
    budget: int = BUDGET,
) -> Pairing:
    """A later round: ``order`` is the active players in standings order, ``met`` who met whom before."""
    sizes, count = table_sizes(len(order), size, low, high)
    byes = choose_byes(order, count, byes_had or {})
    bye_set = set(byes)
    seated = [p for p in order if p not in bye_set]
    if not sizes:
        return Pairing((), byes)
    steps = [budget]
    try:
        for arrangement in _arrangements(sizes):
            found = _search(seated, arrangement, met, steps)
            if found is not None:
                return Pairing(tuple(found), byes)
    except _OutOfBudget:
        pass
    return Pairing(tuple(_fewest_repeats(seated, sizes, met)), byes)


def _arrangements(sizes: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """The table sizes in the given order (larger tables on top) first, then every other distinct order."""
    a = sorted(sizes, reverse=True)  # the next permutation in this order, each distinct order once
    yield tuple(a)
    while True:
        i = len(a) - 2
        while i >= 0 and a[i] <= a[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(a) - 1
        while a[j] >= a[i]:
            j -= 1
        a[i], a[j] = a[j], a[i]
        a[i + 1 :] = reversed(a[i + 1 :])
        yield tuple(a)


def _search(
    order: list[int], sizes: tuple[int, ...], met: Mapping[int, Set[int]], steps: list[int]
) -> list[tuple[int, ...]] | None:
    """Depth-first over the tables, top down; each table headed by the best player left."""
    rems = [order]
    gens = [_groups(order, sizes[0], met, steps)]
    chosen: list[tuple[int, ...]] = []
    while gens:
        group = next(gens[-1], None)
        if group is None:
            gens.pop()
            rems.pop()
            if chosen:
                chosen.pop()
            continue
        if len(chosen) + 1 == len(sizes):
            return [*chosen, group]
        taken = set(group)
        rest = [p for p in rems[-1] if p not in taken]
        chosen.append(group)
        rems.append(rest)
        gens.append(_groups(rest, sizes[len(chosen)], met, steps))
    return None


def _groups(rem: list[int], k: int, met: Mapping[int, Set[int]], steps: list[int]) -> Iterator[tuple[int, ...]]:
    """Tables of ``k`` headed by ``rem[0]`` with no two players who met, best players first."""
    head = rem[0]
    bad = met.get(head, _NONE)
    cands = [p for p in rem[1:] if p not in bad]
    group = [head]

    def extend(start: int) -> Iterator[tuple[int, ...]]:
        if len(group) == k:
            yield tuple(group)
            return
        for i in range(start, len(cands) - (k - len(group)) + 1):
            steps[0] -= 1
            if steps[0] < 0:
                raise _OutOfBudget
            p = cands[i]
            seen = met.get(p, _NONE)
            if any(q in seen for q in group):
                continue
            group.append(p)
            yield from extend(i + 1)
            group.pop()

    yield from extend(0)


def _fewest_repeats(order: list[int], sizes: tuple[int, ...], met: Mapping[int, Set[int]]) -> list[tuple[int, ...]]:
    """Top down, each seat to the next player with the fewest earlier meetings with the table so far."""
    rem = list(order)
    tables: list[tuple[int, ...]] = []
    for k in sizes:
        group = [rem.pop(0)]
        while len(group) < k:
            best, fewest = 0, k
            for i, p in enumerate(rem):
                seen = met.get(p, _NONE)
                n = sum(1 for q in group if q in seen)
                if n < fewest:
                    best, fewest = i, n
                    if n == 0:
                        break
            group.append(rem.pop(best))
        tables.append(tuple(group))
    return tables
