"""How many tables of which size a round has, and how many players sit out (a bye).

A round is played at tables of the chosen size ``size``; where the count of players does not divide, some
tables have one player more or one fewer (``size ± 1``, within the game's limits ``low``…``high``), as few
as possible, and a table one larger is preferred to one smaller at the same count (a fuller game). Only
when no such split exists (fewer players than the smallest table, or limits that leave no fit: tables of 4
with at most 4 players and 5 players) do the fewest players possible sit the round out with a bye.
"""

from __future__ import annotations

from functools import lru_cache

MIN_TABLE, MAX_TABLE = 2, 5  # the game's player counts (the parts may narrow them)


class TableError(ValueError):
    """A table size outside the game's limits."""


def allowed(size: int, low: int = MIN_TABLE, high: int = MAX_TABLE) -> tuple[int, ...]:
    """The table sizes a round of ``size`` may use: size, one fewer and one more, within low…high."""
    if not low <= size <= high:
        raise TableError(f"table size {size} is outside {low}..{high}")
    return tuple(s for s in (size, size + 1, size - 1) if low <= s <= high)


@lru_cache(maxsize=4096)
def _split(n: int, size: int, low: int, high: int) -> tuple[int, ...] | None:
    """The sizes (largest first) of the split of n with the fewest tables off ``size``, or None."""
    best: tuple[int, int, tuple[int, ...]] | None = None  # (tables off size, smaller tables, sizes)
    sizes = allowed(size, low, high)
    bigger = size + 1 if size + 1 in sizes else None
    smaller = size - 1 if size - 1 in sizes else None
    # n = a·size + b·(size+1) + c·(size-1); few (b + c), then few c
    for b in range(0, (n // bigger if bigger else 0) + 1):
        for c in range(0, (n // smaller if smaller else 0) + 1):
            rest = n - b * (bigger or 0) - c * (smaller or 0)
            if rest < 0:
                break
            if rest % size:
                continue
            key = (b + c, c, tuple([size + 1] * b + [size] * (rest // size) + [size - 1] * c))
            if key[2] and (best is None or key[:2] < best[:2]):
                best = key
    return best[2] if best else None


def table_sizes(n: int, size: int, low: int = MIN_TABLE, high: int = MAX_TABLE) -> tuple[tuple[int, ...], int]:
    """(the tables' sizes, largest first; the number of byes) for ``n`` players at tables of ``size``."""
    allowed(size, low, high)
    for byes in range(n + 1):
        split = _split(n - byes, size, low, high) if n - byes > 0 else None
        if split:
            return split, byes
    return (), n
