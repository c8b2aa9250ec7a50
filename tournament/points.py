"""Places at a table and the tournament points they bring.

A table's places come from its players' results as the game orders them (the winners first: the game's own
tie-break already decided who wins, then VP, then rubles); players the game cannot separate share a place
(1, 1, 3 …) and split the points of the places they cover. The presets, each for a table of n players:

- ``bga`` (the default): 6 points for the first place, 0 for the last, the others evenly between
  (6/4/2/0 at 4 players, 6/3/0 at 3, 6/0 at 2, 6/4.5/3/1.5/0 at 5), so tables of different sizes in one
  round are worth the same;
- ``beaten``: one point for each player finished ahead of (n − place);
- ``win``: 1 point for the winner, 0 for the others.

Points are exact fractions (``Fraction``): a three-way split of a win is 1/3, and standings summed in any order agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction


def _bga(n: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(6 * (n - 1 - p), n - 1) for p in range(n))


def _beaten(n: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(n - 1 - p) for p in range(n))


def _win(n: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(1 if p == 0 else 0) for p in range(n))


PRESETS: dict[str, Callable[[int], tuple[Fraction, ...]]] = {"bga": _bga, "beaten": _beaten, "win": _win}
DEFAULT_PRESET = "bga"


@dataclass(frozen=True, slots=True)
class Seat:
    """One entrant's result at a table: their place (1 best; shared places repeat) and their VP."""

    player: int
    place: int
    vp: int


def places(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """Competition places (1, 1, 3 …) of results whose keys compare higher for better (winner, VP, rubles)."""
    order = sorted(keys, reverse=True)
    return [order.index(k) + 1 for k in keys]


def table_points(preset: str, size: int, place_of: Sequence[int]) -> list[Fraction]:
    """Each seat's points at a table of ``size`` seats, tied places splitting the points of the places they cover."""
    scale = PRESETS[preset](size)
    out: list[Fraction] = []
    for place in place_of:
        shared = sum(1 for p in place_of if p == place)
        out.append(sum(scale[place - 1 : place - 1 + shared], Fraction(0)) / shared)
    return out


def bye_points(preset: str, size: int) -> Fraction:
    """A bye's points: the mean points of a table of the round's size (3 of 6/4/2/0), what an average game brings."""
    scale = PRESETS[preset](size)
    return sum(scale, Fraction(0)) / len(scale)
