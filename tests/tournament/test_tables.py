"""Table sizes, byes and points by place."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament import PRESETS, TableError, places, table_points, table_sizes
from tournament.points import bye_points


@pytest.mark.parametrize(
    ("n", "size", "sizes", "byes"),
    [
        (9, 3, (3, 3, 3), 0),
        (10, 3, (4, 3, 3), 0),  # one table larger
        (8, 3, (3, 3, 2), 0),  # one smaller rather than two larger
        (7, 3, (4, 3), 0),
        (12, 4, (4, 4, 4), 0),
        (5, 4, (5,), 0),
        (1, 2, (), 1),  # nobody to play: a bye
        (3, 4, (3,), 0),
    ],
)
def test_table_sizes(n: int, size: int, sizes: tuple[int, ...], byes: int) -> None:
    assert table_sizes(n, size) == (sizes, byes)


def test_a_bye_where_the_limits_leave_no_fit() -> None:
    # tables of 4 at a game of 3-4 players: 5 players fit no split, one sits out
    assert table_sizes(5, 4, low=3, high=4) == ((4,), 1)
    assert table_sizes(2, 4, low=3, high=4) == ((), 2)


def test_a_size_outside_the_limits_is_refused() -> None:
    with pytest.raises(TableError):
        table_sizes(10, 6)
    with pytest.raises(TableError):
        table_sizes(10, 5, high=4)


@given(st.integers(0, 300), st.integers(2, 5), st.integers(2, 5), st.integers(2, 5))
def test_sizes_sum_up_and_stay_in_the_limits(n: int, size: int, a: int, b: int) -> None:
    low, high = min(a, b), max(a, b)
    if not low <= size <= high:
        return
    sizes, byes = table_sizes(n, size, low, high)
    assert sum(sizes) + byes == n
    assert all(low <= s <= high and abs(s - size) <= 1 for s in sizes)
    if high > low and n >= 2 * high * high:  # two sizes to mix: a large field always fits, no byes at all
        assert byes == 0


def test_places_share_ties() -> None:
    assert places([(1, 50, 3), (0, 50, 3), (0, 50, 3), (0, 40, 9)]) == [1, 2, 2, 4]


def test_points_presets() -> None:
    assert table_points("bga", 4, [1, 2, 3, 4]) == [6, 4, 2, 0]
    assert table_points("bga", 3, [1, 2, 3]) == [6, 3, 0]
    assert table_points("bga", 5, [1, 2, 3, 4, 5]) == [6, Fraction(9, 2), 3, Fraction(3, 2), 0]
    assert table_points("beaten", 4, [1, 2, 3, 4]) == [3, 2, 1, 0]
    assert table_points("win", 3, [1, 2, 3]) == [1, 0, 0]


def test_ties_split_the_points_of_the_places_they_cover() -> None:
    assert table_points("bga", 4, [1, 1, 3, 4]) == [5, 5, 2, 0]
    assert table_points("bga", 4, [1, 2, 2, 2]) == [6, 2, 2, 2]
    assert table_points("win", 3, [1, 1, 1]) == [Fraction(1, 3)] * 3
    assert bye_points("bga", 4) == 3


@given(st.sampled_from(sorted(PRESETS)), st.lists(st.integers(0, 3), min_size=2, max_size=5))
def test_a_table_hands_out_the_same_points_tied_or_not(preset: str, keys: list[int]) -> None:
    size = len(keys)
    got = table_points(preset, size, places([(k,) for k in keys]))
    assert sum(got) == sum(PRESETS[preset](size))
