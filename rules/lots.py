"""Shuffling by lot, as ``random.Random.shuffle`` does it, in code the compiled core runs natively.

Games rebuild from their seed (the stacks of BG-01 are shuffled from it), so the permutation must be
exactly the one ``random.Random(seed).shuffle`` makes: the same Fisher-Yates pass from the end, each
index drawn by rejection from ``getrandbits`` (CPython's ``_randbelow_with_getrandbits``).
``tests/rules/test_lots.py`` holds the two to agreement. Pinning the algorithm here also keeps
recorded games dealing the same should a later Python change its own.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def randbelow(rng: random.Random, n: int) -> int:
    """A random int in [0, n) for n ≥ 1, drawn as ``random.Random._randbelow`` draws it."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r: int = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[T]) -> None:
    """Shuffle ``x`` in place, the permutation ``rng.shuffle(x)`` would make with the same state."""
    getrandbits = rng.getrandbits
    i = len(x) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
        i -= 1
