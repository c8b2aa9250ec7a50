"""The searches' compiled random draws (``players.rand``) draw exactly what ``random.Random`` draws: a
seeded search chooses the same moves with them as with the library's methods."""

from __future__ import annotations

import random

from players.rand import below, shuffle


def test_below_draws_what_randrange_draws() -> None:
    for seed in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        for n in [1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 100, 255, 256, 257, 2**31, 10**12]:
            assert below(mine, n) == theirs.randrange(n)
        assert mine.random() == theirs.random()  # the generators are left in the same state


def test_shuffle_orders_as_random_shuffle() -> None:
    for seed in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        for size in [0, 1, 2, 3, 10, 40, 97]:
            a, b = list(range(size)), list(range(size))
            shuffle(mine, a)
            theirs.shuffle(b)
            assert a == b
        assert mine.random() == theirs.random()


class Biased(random.Random):
    """A generator of another draw: the searches must keep its own methods."""

    def getrandbits(self, k: int) -> int:
        return 0

    def randrange(self, *args: object, **kwargs: object) -> int:
        return 1

    def shuffle(self, x: list[object]) -> None:  # type: ignore[override]
        x.reverse()


def test_a_subclass_keeps_its_own_draws() -> None:
    assert below(Biased(0), 5) == 1
    x = [1, 2, 3]
    shuffle(Biased(0), x)
    assert x == [3, 2, 1]
