"""The ruleset: edition, player count, options, expansions and modules, and the game shape they select.

Everything edition- or option-dependent is looked up here as data (phases, display size, first
worker display, token passing, Observatory reset) so the engine has no edition switches. Expansions
and modules (``rules/expansions/``) change that data and add hooks (``rules/hooks.py``); the
combinations the rulebooks do not allow are refused here (X-02).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .cards import BLUE, DECKS, GREEN, RED, Catalogue, catalogue
from .errors import RulesetError
from .hooks import Hooks, Phase, Shape

__all__ = ["BASE_PHASES", "Phase", "Ruleset"]

BASE_PHASES: tuple[Phase, ...] = (
    Phase("workers", "workers", GREEN, "hammer", ("income",)),
    Phase("buildings", "buildings", BLUE, "cathedral", ("income", "pub")),
    Phase("aristocrats", "aristocrats", RED, "bust", ("income",)),
    Phase("trading", "trading", None, "hand"),
)
BASE_TOKENS = ("hammer", "cathedral", "bust", "hand")


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What a game is played with. Options follow BG-02 and BG-15."""

    edition: int = 2
    players: int = 4
    mandatory_first_workers: bool = True  # BG-02: each must buy a worker until all own two
    open_money: bool = True  # BG-15: money shown by default
    open_hands: bool = False  # BG-15: hands private by default
    expansions: tuple[str, ...] = field(default=())  # keys of rules/expansions' registry, e.g. "market"
    modules: tuple[int, ...] = field(default=())  # the modules 1-6, e.g. (1, 2)

    # Derived data (computed once in __post_init__; not part of the value: not compared or serialized).
    catalogue: Catalogue = field(init=False, repr=False, compare=False)
    phases: tuple[Phase, ...] = field(init=False, repr=False, compare=False)
    decks: tuple[str, ...] = field(init=False, repr=False, compare=False)  # stacks, in table order
    tokens: tuple[str, ...] = field(init=False, repr=False, compare=False)  # start-player tokens
    display_size: int = field(init=False, repr=False, compare=False)  # BG-11: 8 in the base game
    first_workers: int = field(init=False, repr=False, compare=False)  # BG-01: 2 per player
    base_hand_limit: int = field(init=False, repr=False, compare=False)  # BG-06
    starting_rubles: int = field(init=False, repr=False, compare=False)
    token_step: int = field(init=False, repr=False, compare=False)  # BG-12: seats a token moves left
    # BG-03: actions also end when the display is empty (2nd edition and Yucata; not seed 000).
    display_empty_ends_phase: bool = field(init=False, repr=False, compare=False)
    # 'phase' (1st edition) or 'round' (2nd edition): when a used Observatory turns face up.
    observatory_reset: str = field(init=False, repr=False, compare=False)
    hooks: Hooks = field(init=False, repr=False, compare=False)
    roundels: bool = field(init=False, repr=False, compare=False)  # Action.good tells copies apart

    def __post_init__(self) -> None:
        if self.edition not in (1, 2):
            raise RulesetError("ruleset_edition", given=self.edition)
        modules = tuple(sorted(int(m) for m in self.modules))
        derive = object.__setattr__  # frozen: the derived fields are set once, here
        derive(self, "modules", modules)
        shape, hooks = _shape(self.edition, self.players, tuple(self.expansions), modules)
        cat = shape.catalogue
        derive(self, "expansions", tuple(self.expansions))
        derive(self, "catalogue", cat)
        derive(self, "phases", tuple(shape.phases))
        derive(self, "decks", tuple(shape.decks))
        derive(self, "tokens", tuple(shape.tokens))
        derive(self, "display_size", shape.display_size)
        derive(self, "first_workers", 2 * self.players)
        derive(self, "base_hand_limit", 3)
        derive(self, "starting_rubles", 25)
        derive(self, "token_step", shape.token_step)
        derive(self, "display_empty_ends_phase", cat.display_empty_ends_phase)
        derive(self, "observatory_reset", cat.observatory_reset)
        derive(self, "hooks", hooks)
        derive(self, "roundels", shape.roundels)

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


def module_key(module: int) -> str:
    """The registry key of a module (X-01): 1 -> ``module1``."""
    return f"module{module}"


@cache
def _shape(
    edition: int, players: int, expansions: tuple[str, ...], modules: tuple[int, ...] = ()
) -> tuple[Shape, Hooks]:
    """The derived data and hooks of a combination, refused (ValueError) where the rulebooks do not
    allow it (X-02). Built once per combination."""
    from .actions import register_notation, register_play_notation
    from .base import base_hooks  # the base game's own decisions and steps
    from .expansions import select

    for m in modules:
        if not 1 <= m <= 6:
            raise RulesetError("ruleset_no_module", module=m)
    keys = expansions + tuple(module_key(m) for m in modules)
    active = select(edition, keys)
    shape = Shape(
        edition=edition,
        players=players,
        catalogue=catalogue(edition),
        phases=list(BASE_PHASES),
        decks=list(DECKS),
        tokens=list(BASE_TOKENS),
        display_size=8,
        # the keys as given (select checked them): compiled with mypyc, this module would read an
        # interpreted Expansion subclass's ``key`` from the compiled base class's slot, i.e. ""
        active=frozenset(keys),
    )
    hooks = base_hooks()
    for exp in active:
        exp.configure(shape)
        hooks.merge(exp.hooks())
    if shape.extras or shape.removed:
        shape.catalogue = catalogue(edition, tuple(shape.extras), tuple(sorted(set(shape.removed))))
    for kind, parse in hooks.parsers.items():
        register_notation(kind, parse, hooks.formatters[kind])
    register_play_notation(hooks.play_parsers, hooks.play_formatters)
    if not shape.min_players <= players <= shape.max_players:
        span = {"players": players, "edition": edition, "min": shape.min_players, "max": shape.max_players}
        if keys:
            raise RulesetError("ruleset_players_parts", parts=keys, **span)
        raise RulesetError("ruleset_players", **span)
    return shape, hooks
