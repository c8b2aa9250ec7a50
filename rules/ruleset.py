"""The ruleset: edition, player count and options, and the phase structure they select.

Everything edition- or option-dependent is looked up here as data (phases, display size, first
worker display, token passing, Observatory reset) so the engine has no edition switches. The Market
(an extra phase between workers and buildings, 10 display slots, the Sack token), 5 players and the
modules plug in by adding phases, tokens and card data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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

    # Derived data (computed once in __post_init__; not part of the value: not compared or serialized).
    catalogue: Catalogue = field(init=False, repr=False, compare=False)
    phases: tuple[Phase, ...] = field(init=False, repr=False, compare=False)
    display_size: int = field(init=False, repr=False, compare=False)  # rules-notes 11: 8 in the base game
    first_workers: int = field(init=False, repr=False, compare=False)  # rules-notes 1: 2 per player
    base_hand_limit: int = field(init=False, repr=False, compare=False)  # rules-notes 6
    starting_rubles: int = field(init=False, repr=False, compare=False)
    token_step: int = field(init=False, repr=False, compare=False)  # rules-notes 12: seats a token moves left
    # rules-notes 3: actions also end when the display is empty (2nd edition and Yucata; not seed 000).
    display_empty_ends_phase: bool = field(init=False, repr=False, compare=False)
    # 'phase' (1st edition) or 'round' (2nd edition): when a used Observatory turns face up.
    observatory_reset: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.edition not in (1, 2):
            raise ValueError("edition must be 1 or 2")
        if not 2 <= self.players <= 4:
            raise ValueError("the base game is for 2 to 4 players")
        if self.expansions or self.modules:
            raise ValueError("expansions and modules are not available yet")
        derive = object.__setattr__  # frozen: the derived fields are set once, here
        cat = catalogue(self.edition)
        derive(self, "catalogue", cat)
        derive(self, "phases", BASE_PHASES)
        derive(self, "display_size", 8)
        derive(self, "first_workers", 2 * self.players)
        derive(self, "base_hand_limit", 3)
        derive(self, "starting_rubles", 25)
        derive(self, "token_step", 1)
        derive(self, "display_empty_ends_phase", cat.display_empty_ends_phase)
        derive(self, "observatory_reset", cat.observatory_reset)

    def to_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "players": self.players,
            "mandatory_first_workers": self.mandatory_first_workers,
            "open_money": self.open_money,
            "open_hands": self.open_hands,
            "expansions": list(self.expansions),
            "modules": list(self.modules),
        }

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
