"""What several parts of the game share beyond the hooks."""

from __future__ import annotations

from ..hooks import Expansion


class MarketModule(Expansion):
    """A module of the 2nd edition that is played with the Market only: Modules 3 to 6 (X-02)."""

    editions: tuple[int, ...] = (2,)
    requires: tuple[str, ...] = ("market",)
