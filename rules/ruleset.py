"""The ruleset: edition, player count and options, and the phase structure they select.

Everything edition- or option-dependent is looked up here as data (phases, display size, first
worker display, token passing, Observatory reset) so the engine has no edition switches. The Market
(an extra phase between workers and buildings, 10 display slots, the Sack token), 5 players and the
modules plug in by adding phases, tokens and card data.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .cards import BLUE, GREEN, RED, Catalogue, catalogue


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase (German "Runde") of a round (German "Durchgang"), seed 001 "Der Ablauf des Spiels"."""

    key: str  # workers, buildings, aristocrats, trading
    deck: str  # the stack that refills the display at its start
    scores: str | None  # colour scored after its actions (None: trading, no scoring)
    token: str  # start-player token: hammer, cathedral, bust, hand


BASE_PHASES: tuple[Phase, ...] = (
    Phase("workers", "workers", GREEN, "hammer"),
    Phase("buildings", "buildings", BLUE, "cathedral"),
    Phase("aristocrats", "aristocrats", RED, "bust"),
    Phase("trading", "trading", None, "hand"),
)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What a game is played with. Options follow rules-notes.md 2 and 15."""

    edition: int = 2
    players: int = 4
    mandatory_first_workers: bool = True  # rules-notes 2: each must buy a worker until all own two
    open_money: bool = True  # rules-notes 15: money shown by default
    open_hands: bool = False  # rules-notes 15: hands private by default
    expansions: tuple[str, ...] = field(default=())  # reserved: "new_society", "market"
    modules: tuple[int, ...] = field(default=())  # reserved: 2nd-edition modules 1-6

    def __post_init__(self) -> None:
        if self.edition not in (1, 2):
            raise ValueError("edition must be 1 or 2")
        if not 2 <= self.players <= 4:
            raise ValueError("the base game is for 2 to 4 players")
        if self.expansions or self.modules:
            raise ValueError("expansions and modules are not available yet")

    # --- derived data -------------------------------------------------------------------------
    @property
    def catalogue(self) -> Catalogue:
        return catalogue(self.edition)

    @property
    def phases(self) -> tuple[Phase, ...]:
        return BASE_PHASES

    @property
    def display_size(self) -> int:
        """Cards on display after each refill: always 8 in the base game (rules-notes 11)."""
        return 8

    @property
    def first_workers(self) -> int:
        """Workers dealt for the very first worker phase: 2 per player (rules-notes 1)."""
        return 2 * self.players

    @property
    def base_hand_limit(self) -> int:
        return 3

    @property
    def starting_rubles(self) -> int:
        return 25

    @property
    def token_step(self) -> int:
        """Seats each start-player token moves left at the end of a round (rules-notes 12)."""
        return 1

    @property
    def display_empty_ends_phase(self) -> bool:
        """rules-notes 3: actions end when the display is empty (2nd edition; Yucata for both)."""
        return True

    @property
    def observatory_reset(self) -> str:
        """'phase' (1st edition) or 'round' (2nd edition): when a used Observatory turns face up."""
        return self.catalogue.observatory_reset

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["expansions"] = list(self.expansions)
        d["modules"] = list(self.modules)
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Ruleset:
        known = {"edition", "players", "mandatory_first_workers", "open_money", "open_hands", "expansions", "modules"}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown ruleset fields: {', '.join(sorted(unknown))}")
        kw = dict(d)
        kw["expansions"] = tuple(kw.get("expansions", ()))
        kw["modules"] = tuple(kw.get("modules", ()))
        return cls(**kw)
