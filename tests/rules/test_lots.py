"""rules.lots deals exactly as random.Random does (games rebuild from their seed)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from rules.lots import randbelow, shuffle


@settings(max_examples=300)
@given(seed=hs.integers(min_value=0, max_value=2**64), length=hs.integers(min_value=0, max_value=140))
def test_shuffle_makes_the_permutation_of_random_shuffle(seed: int, length: int) -> None:
    ours, theirs = list(range(length)), list(range(length))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(a, ours)
    b.shuffle(theirs)
    assert ours == theirs
    assert a.getstate() == b.getstate()  # the same draws consumed: later lots agree too


@settings(max_examples=300)
@given(seed=hs.integers(min_value=0, max_value=2**64), n=hs.integers(min_value=1, max_value=10**6))
def test_randbelow_draws_as_randrange(seed: int, n: int) -> None:
    a, b = random.Random(seed), random.Random(seed)
    assert randbelow(a, n) == b.randrange(n)
    assert a.getstate() == b.getstate()
