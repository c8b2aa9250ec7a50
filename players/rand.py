"""The searches' random draws, compiled: ``below`` and ``shuffle`` draw exactly what ``random.Random``'s
``randrange(n)`` and ``shuffle`` draw from the same generator (the same numbers in the same order, so a seeded
search chooses the same moves), without their pure-Python frames (``random.py``'s ``shuffle`` calls a
Python method for every card of a re-dealt stack).

They repeat CPython's ``Random._randbelow_with_getrandbits``: ``k = n.bit_length()`` bits at a time until the
number is below ``n``. A subclass of ``random.Random`` (which may draw otherwise) gets the library's own
methods. tests/rules/test_ai_rand.py checks the draws against the library's.
"""

from __future__ import annotations

import random
from typing import Any


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` > 0: the same draw."""
    if type(rng) is not random.Random:
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = _bits(n)
    r: int = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: the same order."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = _bits(n)
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _bits(n: int) -> int:
    """``n.bit_length()`` for ``n`` >= 0."""
    k = 0
    while n:
        n >>= 1
        k += 1
    return k
