"""In bester Gesellschaft (1st edition; IBG-01 ... IBG-22), its SP+ variant (IBG-13),
Module 2 "In bester Gesellschaft" (2nd edition; M2-01 ... M2-13) and five players without the Market
(P5-04 ... P5-12).

The cards are data (``data/expansions/new_society.json`` and ``new_society_replacements.json``):
incomes, bonuses (Coffee House, Mayor, Mariinskij, Textile Factory), the Kolchose's discount and
the October Revolution's displacing are read by the core. What is not data lives in hooks: the
decisions after building scoring (Guild Hall, Trading House: ``society_decisions.py``), the
Sycophants after aristocrat scoring, the Debtor's Prison (``debtors_prison.py``), the Sack of the
fifth player and the +10 VP beyond ten aristocrats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from ..hooks import Events, Expansion, Hooks, Phase, Shape
from ..scoring import gain_vp
from ..state import GameState

NEW_SOCIETY: Final = "new_society"
REPLACEMENTS_ONLY: Final = "new_society_replacements_only"
MODULE2: Final = "module2"
CARDS: Final = "new_society"
REPLACEMENT_CARDS: Final = "new_society_replacements"
# IBG-02: the 7 base cards the expansion replaces with its own versions (types; 7 physical cards).
REPLACED = ("czar_and_carpenter", "observatory", "academy", "mistress_of_ceremonies", "mariinsky_theater")
SACK: Final = "sack"
SACK_RUBLES: Final = 2  # P5-06
SACK_VP: Final = 2  # P5-08
BEYOND_TEN_VP: Final = 10  # IBG-04


def _without_debtors_prison(shape: Shape) -> None:
    """IBG-12 / M2-12 (BQ-23): with the Banquet (Module 1) the Debtor's Prison leaves the game."""
    if "module1" in shape.active:
        shape.removed.append("debtors_prison")


# --- five players without the Market (P5-04 ... P5-12) ------------------------------------------
def sack_setup(st: GameState, rng: random.Random, given: Mapping[str, Any]) -> None:
    """P5-06: the Sack holder gets 2 extra rubles once, at the start (27 in all)."""
    if SACK in st.tokens:
        st.rubles[st.tokens[SACK]] += SACK_RUBLES


def sack_phase_start(st: GameState, events: Events) -> None:
    """P5-08 (AMB-09): at the start of every workers phase, the first one included, whoever holds the
    Sack then gains 2 VP, before the first turn."""
    if SACK in st.tokens and st.ruleset.phases[st.phase].key == "workers":
        seat = st.tokens[SACK]
        if events is not None:
            events.append({"type": SACK, "seat": seat, "vp": SACK_VP})
        gain_vp(st, seat, SACK_VP, SACK, events)


# --- final scoring ---------------------------------------------------------------------------------
def beyond_ten(st: GameState, seat: int, entry: dict[str, Any], events: Events) -> None:
    """IBG-04 (X-06 step 1): each distinct aristocrat beyond the tenth is worth 10 VP more (11 -> 65,
    12 -> 75), red trading cards and the Sycophant counted once by name (IBG-19)."""
    cards = st.cards
    distinct = len({cards[c].id for c in st.tableaux[seat] if cards[c].colour == "red"})
    if distinct > 10:
        extra = BEYOND_TEN_VP * (distinct - 10)
        gain_vp(st, seat, extra, "aristocrat_bonus", events)
        entry["aristocrats"] += extra


# --- the expansions ----------------------------------------------------------------------------------
def _society_hooks(final: bool) -> Hooks:
    from .debtors_prison import PrisonAction, PrisonDecision, prison_view
    from .society_decisions import (
        GuildHallDecision,
        SycophantDecision,
        TradingHouseDecision,
        has_guild_hall,
        has_trading_house,
        notation,
        sycophant_step,
    )

    return Hooks(
        decisions={
            "guild_hall": GuildHallDecision(),
            "trading_house": TradingHouseDecision(),
            "sycophant": SycophantDecision(),
            "prison": PrisonDecision(),
        },
        steps={"sycophant": sycophant_step},
        turn_actions={"prison": PrisonAction()},
        settle={"guild_hall": (10, has_guild_hall), "trading_house": (30, has_trading_house)},
        setups=[sack_setup] if final else [],
        phase_start=[sack_phase_start] if final else [],
        final=[beyond_ten] if final else [],
        view=[prison_view],
        **notation(),
    )


def _sycophant_step(shape: Shape) -> None:
    """X-04: the Sycophants' decisions follow the aristocrats' income (M2-05, AMB-10)."""
    for i, ph in enumerate(shape.phases):
        if ph.key == "aristocrats":
            shape.phases[i] = Phase(ph.key, ph.deck, ph.scores, ph.token, (*ph.steps, "sycophant"))


class NewSociety(Expansion):
    """IBG-01 ... IBG-22: the 1st edition's expansion, 35 cards (IBG-02: 7 of them replace base
    cards), and five players without the Market (P5-04)."""

    key = NEW_SOCIETY
    # in the 2nd edition its cards are Module 2's (IBG-14: not all of them are known yet)
    editions: tuple[int, ...] = (1,)
    excludes: tuple[str, ...] = (REPLACEMENTS_ONLY,)
    instead = MODULE2

    def configure(self, shape: Shape) -> None:
        shape.extras += [REPLACEMENT_CARDS, CARDS]
        shape.removed += list(REPLACED)
        _without_debtors_prison(shape)
        _sycophant_step(shape)
        shape.max_players = 5  # P5-04
        if shape.players == 5:  # P5-05, P5-07, P5-10: the Sack starts no phase; tokens move two seats
            shape.tokens.append(SACK)
            shape.token_step = 2

    def hooks(self) -> Hooks:
        return _society_hooks(final=True)


class ReplacementsOnly(Expansion):
    """IBG-13 (AMB-27): Yucata's SP+: the 1st edition with only the 7 replacement cards; no other
    expansion card, no +10 VP rule, 2 to 4 players."""

    key = REPLACEMENTS_ONLY
    editions: tuple[int, ...] = (1,)  # a variant of the 1st edition
    excludes: tuple[str, ...] = (NEW_SOCIETY,)

    def configure(self, shape: Shape) -> None:
        shape.extras.append(REPLACEMENT_CARDS)
        shape.removed += list(REPLACED)


class Module2(Expansion):
    """M2-01 ... M2-13: the 12 cards in the 2nd edition, with or without the Market; no +10 VP
    beyond ten aristocrats (M2-13, AMB-27)."""

    key = MODULE2
    editions: tuple[int, ...] = (2,)
    instead = NEW_SOCIETY

    def configure(self, shape: Shape) -> None:
        shape.extras.append(CARDS)
        _without_debtors_prison(shape)
        _sycophant_step(shape)

    def hooks(self) -> Hooks:
        return _society_hooks(final=False)


NEW_SOCIETY_EXPANSION = NewSociety()
REPLACEMENTS_ONLY_EXPANSION = ReplacementsOnly()
MODULE2_EXPANSION = Module2()
