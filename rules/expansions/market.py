"""The Market (2nd edition, seed 001 p. 15-19; expansions.md MK-01 ... MK-62, P5-01 ... P5-03)."""

from __future__ import annotations

from ..hooks import Expansion


class Market(Expansion):
    key = "market"
    editions = (2,)


MARKET = Market()
