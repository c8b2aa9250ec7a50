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
TAKEN_BIT: Final = 1 << 0  # bit 1 << slot of ``SeatStats.seen``: the counter NAMES[slot] was set
BOUGHT_BIT: Final = 1 << 1
TRADED_BIT: Final = 1 << 2
SPENT_BIT: Final = 1 << 3
WORKERS_BITS: Final = 3 << 4  # a phase's rubles and VP
MARKET_BITS: Final = 3 << 6
BUILDINGS_BITS: Final = 3 << 8
ARISTOCRATS_BITS: Final = 3 << 10


class SeatStats:
    """One seat's counters. A counter never set is absent, as a key never set in a dict (``seen`` marks the
    core's counters that were set, bit ``1 << slot``); ``as_dict`` gives them all as the game's JSON holds
    them. The core's counters are native ints named as in NAMES (no dict update, no int object made)."""

    taken: int
    bought: int
    traded: int
    spent: int
    workers_rubles: int
    workers_vp: int
    market_rubles: int
    market_vp: int
    buildings_rubles: int
    buildings_vp: int
    aristocrats_rubles: int
    aristocrats_vp: int
    seen: int
    extra: dict[str, int]

    def __init__(self) -> None:
        self.taken = self.bought = self.traded = self.spent = 0
        self.workers_rubles = self.workers_vp = self.market_rubles = self.market_vp = 0
        self.buildings_rubles = self.buildings_vp = self.aristocrats_rubles = self.aristocrats_vp = 0
        self.seen = 0
        self.extra = {}

    def took(self) -> None:
        """A card taken into the hand (BG-02)."""
        self.taken += 1
        self.seen |= TAKEN_BIT

    def placed(self, price: int, traded: bool) -> None:
        """A card bought or played, or a trading card placed over another (BG-04, BG-05)."""
        self.spent += price
        if traded:
            self.traded += 1
            self.seen |= SPENT_BIT | TRADED_BIT
        else:
            self.bought += 1
            self.seen |= SPENT_BIT | BOUGHT_BIT

    def paid(self, price: int) -> None:
        """Rubles spent on something other than a card (the Pub's VP, BG-09)."""
        self.spent += price
        self.seen |= SPENT_BIT

    def scored(self, phase: str, rubles: int, vp: int) -> None:
        """A scoring's income (BG-07, BG-10), under its phase's key; a part's own phase as ``bump``."""
        if phase == "workers":
            self.workers_rubles += rubles
            self.workers_vp += vp
            self.seen |= WORKERS_BITS
        elif phase == "buildings":
            self.buildings_rubles += rubles
            self.buildings_vp += vp
            self.seen |= BUILDINGS_BITS
        elif phase == "aristocrats":
            self.aristocrats_rubles += rubles
            self.aristocrats_vp += vp
            self.seen |= ARISTOCRATS_BITS
        elif phase == "market":
            self.market_rubles += rubles
            self.market_vp += vp
            self.seen |= MARKET_BITS
        else:
            self.bump(f"{phase}_rubles", rubles)
            self.bump(f"{phase}_vp", vp)

    def bump(self, key: str, n: int) -> None:
        """Count ``n`` more on counter ``key``, whichever it is."""
        if key in SLOTS:
            self[key] = self.get(key, 0) + n
        else:
            extra = self.extra
            extra[key] = extra.get(key, 0) + n

    def get(self, key: str, default: int = 0) -> int:
        slot = SLOTS.get(key, -1)
        if slot >= 0:
            return self.counts()[slot] if self.seen >> slot & 1 else default
        return self.extra.get(key, default)

    def __getitem__(self, key: str) -> int:
        slot = SLOTS.get(key, -1)
        if slot >= 0:
            if self.seen >> slot & 1:
                return self.counts()[slot]
            raise KeyError(key)
        return self.extra[key]

    def __setitem__(self, key: str, value: int) -> None:
        slot = SLOTS.get(key, -1)
        if slot >= 0:
            counts = self.counts()
            counts[slot] = value
            self.load(counts)
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

    def counts(self) -> list[int]:
        """The core's counters in the order of NAMES (0 where never set)."""
        return [
            self.taken, self.bought, self.traded, self.spent,
            self.workers_rubles, self.workers_vp, self.market_rubles, self.market_vp,
            self.buildings_rubles, self.buildings_vp, self.aristocrats_rubles, self.aristocrats_vp,
        ]  # fmt: skip

    def load(self, counts: list[int]) -> None:
        """Set the core's counters from a list in the order of NAMES (``seen`` is the caller's)."""
        (
            self.taken, self.bought, self.traded, self.spent,
            self.workers_rubles, self.workers_vp, self.market_rubles, self.market_vp,
            self.buildings_rubles, self.buildings_vp, self.aristocrats_rubles, self.aristocrats_vp,
        ) = counts  # fmt: skip

    def as_dict(self) -> dict[str, int]:
        """Every counter set, the core's in the order of NAMES, then the parts'."""
        d: dict[str, int] = {}
        seen = self.seen
        if seen:
            counts = self.counts()
            for i in range(len(NAMES)):
                if seen >> i & 1:
                    d[NAMES[i]] = counts[i]
        if self.extra:
            d.update(self.extra)
        return d

    def copy(self) -> SeatStats:
        c = SeatStats()
        if self.seen:
            c.load(self.counts())
            c.seen = self.seen
        if self.extra:
            c.extra = dict(self.extra)
        return c

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SeatStats):
            return self.seen == other.seen and self.counts() == other.counts() and self.extra == other.extra
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
