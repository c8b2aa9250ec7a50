"""A player's statistics, the figures of the statistics table (Yucata's, UI-15): counters by name that
are read and written like a dict of ints. The core's own counters are kept in a list by slot, so that
counting a purchase or a scoring costs no dict update; the parts' counters go to a dict of their own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

# The core's counters: a take, a card placed by purchase or from the hand, by trading, the rubles spent,
# and each scoring phase's rubles and VP (``rules.scoring.score_colour``; the Market's phase, MK-10).
NAMES: Final = (
    "taken", "bought", "traded", "spent",
    "workers_rubles", "workers_vp", "market_rubles", "market_vp",
    "buildings_rubles", "buildings_vp", "aristocrats_rubles", "aristocrats_vp",
)  # fmt: skip
SLOTS: Final[dict[str, int]] = {name: i for i, name in enumerate(NAMES)}
TAKEN: Final = 0
BOUGHT: Final = 1
TRADED: Final = 2
SPENT: Final = 3


class SeatStats:
    """One seat's counters. A counter never set is absent, as a key never set in a dict (``seen`` marks the
    core's counters that were set, by bit); ``as_dict`` gives them all as the game's JSON holds them."""

    counts: list[int]
    seen: int
    extra: dict[str, int]

    def __init__(self, counts: list[int] | None = None, seen: int = 0, extra: dict[str, int] | None = None) -> None:
        self.counts = [0] * len(NAMES) if counts is None else counts
        self.seen = seen
        self.extra = {} if extra is None else extra

    def add(self, slot: int, n: int) -> None:
        """Count ``n`` more on the core's counter ``slot`` (TAKEN, BOUGHT, ...)."""
        counts = self.counts
        counts[slot] = counts[slot] + n
        self.seen |= 1 << slot

    def bump(self, key: str, n: int) -> None:
        """Count ``n`` more on counter ``key``, whichever it is."""
        slot = SLOTS.get(key, -1)
        if slot >= 0:
            self.add(slot, n)
        else:
            extra = self.extra
            extra[key] = extra.get(key, 0) + n

    def get(self, key: str, default: int = 0) -> int:
        slot = SLOTS.get(key, -1)
        if slot >= 0:
            return self.counts[slot] if self.seen >> slot & 1 else default
        return self.extra.get(key, default)

    def __getitem__(self, key: str) -> int:
        slot = SLOTS.get(key, -1)
        if slot >= 0:
            if self.seen >> slot & 1:
                return self.counts[slot]
            raise KeyError(key)
        return self.extra[key]

    def __setitem__(self, key: str, value: int) -> None:
        slot = SLOTS.get(key, -1)
        if slot >= 0:
            self.counts[slot] = value
            self.seen |= 1 << slot
        else:
            self.extra[key] = value

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            slot = SLOTS.get(key, -1)
            if slot >= 0:
                return bool(self.seen >> slot & 1)
        return key in self.extra

    def __iter__(self) -> Iterator[str]:
        return iter(self.as_dict())

    def __len__(self) -> int:
        return self.seen.bit_count() + len(self.extra)

    def items(self) -> list[tuple[str, int]]:
        return list(self.as_dict().items())

    def as_dict(self) -> dict[str, int]:
        """Every counter set, the core's in the order of NAMES, then the parts'."""
        d: dict[str, int] = {}
        seen = self.seen
        if seen:
            counts = self.counts
            for i in range(len(NAMES)):
                if seen >> i & 1:
                    d[NAMES[i]] = counts[i]
        if self.extra:
            d.update(self.extra)
        return d

    def copy(self) -> SeatStats:
        return SeatStats(list(self.counts), self.seen, dict(self.extra) if self.extra else None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeatStats):
            return self.seen == other.seen and self.counts == other.counts and self.extra == other.extra
        if isinstance(other, dict):
            return self.as_dict() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dict it stands for

    def __repr__(self) -> str:
        return f"SeatStats({self.as_dict()!r})"

    @staticmethod
    def from_dict(d: dict[str, int]) -> SeatStats:
        s = SeatStats()
        for key, value in d.items():
            s[key] = value
        return s
