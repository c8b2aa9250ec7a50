"""The hooks through which the base game and each expansion or module shape a game.

An ``Expansion`` (one file under ``rules/expansions/``) changes the ruleset's derived data in
``configure`` (phases, stacks, start-player tokens, display size, catalogue, player counts) and adds
behaviour through the ``Hooks`` it contributes: setup steps, pending decision kinds, turn actions
(legal-move generators with their check and apply), scoring steps named by phases, end-of-round and
final-scoring steps, placement reactions, view fields, the notation of its decisions and the
fields a game record may carry for its setup; and for cards that work differently: hand cards played
as an action (``hand_plays``, never laid out), hand cards without the final penalty (``hand_exempt``),
a card's income at its scoring (``card_income``), cards no trading card may displace (``locked``),
cards that are the source of no VP at all (``no_vp``),
reactions at a phase's start (``phase_start``) and turns that go on (``turn_end``); price reductions
beyond the tableau's and the re-deal of its hidden state for the computer players' determinizations;
filters every VP gain passes (obstacles), steps before a turn's action (events), and what an expansion
turns up that was hidden (``reveals``, for take-backs). The core
calls these hooks and never names an expansion; ``Ruleset`` selects the active ones (X-02).
"""

from __future__ import annotations

import random
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from .cards import Catalogue

try:  # the mypyc build (rules/compile.py) needs it; pure Python does not
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover
    _C = TypeVar("_C")

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_C], _C]:
        return lambda cls: cls

if TYPE_CHECKING:
    from .actions import Action, Move
    from .state import GameState, Pending

Event = dict[str, Any]
# What an action caused, for the game's log: a list the core and the parts append their events to, or
# None where nobody reads them (``flow.advance``, the searches' playouts), so that no event is built.
# The same rules run either way: a part never decides anything by whether it is given a log.
Events = list[Event] | None
Checked = tuple[int, int, int]  # (card, target, price) as ``check`` returns them
TRADING: typing.Final = "trading"  # the ``Discount`` selector of every trading card, whatever its colour


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase (German "Runde") of a round (German "Durchgang"), seed 001 "Der Ablauf des Spiels".

    ``steps`` name the scoring steps run after its actions, in order (``Hooks.steps``)."""

    key: str  # workers, buildings, aristocrats, trading
    deck: str  # the stack that refills the display at its start
    scores: str | None  # colour scored after its actions (None: trading, no scoring)
    token: str  # start-player token: hammer, cathedral, bust, hand
    steps: tuple[str, ...] = ()


@mypyc_attr(allow_interpreted_subclasses=True)  # expansions are not compiled
class Decision:
    """A kind of pending decision (BG-08, BG-09; X-07): what may be chosen, whether a choice is
    legal, and carrying it out (which also continues the game's flow)."""

    kind: str = ""
    # Its buy/take/discard moves name a card that is in no row of the display (the Observatory's
    # drawn card, BG-08; a card chosen from the discard pile, M2-04, BQ-13): their notation
    # reads with the row DRAWN.
    drawn: bool = False

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        raise NotImplementedError

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        raise NotImplementedError

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        raise NotImplementedError

    def default(self, st: GameState, p: Pending) -> Action:
        """X-07: the least committal choice, for an absent player."""
        return self.moves(st, p)[-1].action


@mypyc_attr(allow_interpreted_subclasses=True)
class TurnAction:
    """An action kind an expansion adds to normal turns: its moves, check and apply."""

    kind: str = ""

    def moves(self, st: GameState, seat: int, out: list[Move]) -> None:
        raise NotImplementedError

    def check(self, st: GameState, seat: int, action: Action) -> Checked:
        raise NotImplementedError

    def apply(self, st: GameState, seat: int, action: Action, checked: Checked) -> list[Event]:
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class HandPlay:
    """A kind of hand card that is never laid out but played from the hand as the player's action
    (the Banquet's purple cards, BQ-03/BQ-04): ``Hooks.hand_plays`` maps a card ability to it. The
    core offers no placement of such a card (never bought, never played into a tableau) and hands a
    ``play`` of it to this object: its moves (only where its effect can be used), check and apply.
    ``parse``/``format`` read and write what follows ``play`` in its notation (``seats`` names the
    players where an action names one)."""

    ability: str = ""

    def moves(self, st: GameState, seat: int, card: int, out: list[Move]) -> None:
        raise NotImplementedError

    def check(self, st: GameState, seat: int, action: Action) -> Checked:
        raise NotImplementedError

    def apply(self, st: GameState, seat: int, action: Action, checked: Checked) -> list[Event]:
        raise NotImplementedError


Step = Callable[["GameState", Events], bool]  # True: suspended on a pending decision
Setup = Callable[["GameState", random.Random, Mapping[str, Any]], None]  # with the record's own fields
RecordField = Callable[[Any], Any]  # reads a record field's JSON value (ValueError if malformed)
Boxed = Callable[["GameState", int], bool]  # True: the card went to the box, not the discard pile
OnPlace = Callable[["GameState", int, int, int, Events], None]  # seat, card, displaced card
RoundEnd = Callable[["GameState", Events], None]
# after the display is filled, before the first turn (P5-08, BQ-21); may leave a pending decision
PhaseStart = Callable[["GameState", Events], None]
Settles = Callable[["GameState", int], bool]  # the seat has this decision to settle now
Final = Callable[["GameState", int, dict[str, Any], Events], None]  # seat, its final-scoring entry
FinalStep = Callable[["GameState", list[dict[str, Any]], Events], None]  # every seat's entry, events
ViewFields = Callable[["GameState", "int | None", dict[str, Any]], None]
HandExempt = Callable[["GameState", int], bool]  # card: True = no hand penalty at the end (BQ-05)
# seat, card, its rubles and VP at this scoring -> the rubles and VP it pays (attachments, BQ-16..18;
# a covered card, BQ-12); may record events.
CardIncome = Callable[["GameState", int, int, int, int, Events], tuple[int, int]]
Locked = Callable[["GameState"], "frozenset[int]"]  # cards that no trading card may displace (BQ-11)
# cards in tableaux that are the source of no VP at all, from their income or their abilities (AMB-17(e))
NoVp = Callable[["GameState"], "frozenset[int]"]
TurnEnd = Callable[["GameState", Events], bool]  # True: the player's turn goes on (BQ-14)
PlayParser = Callable[[str, str, Catalogue, "tuple[str, ...]"], "Action | None"]
PlayFormatter = Callable[["Action", Catalogue, str, "tuple[str, ...]"], str]
# (selector, rubles off) for a seat beyond its tableau's own discounts, e.g. a Module-3 assistant; the
# selector is a colour (trading cards of that colour included) or ``TRADING`` (every trading card).
Discount = Callable[["GameState", int], tuple[tuple[str, int], ...]]
Redeal = Callable[["GameState", int, random.Random], None]  # re-deal in place what the seat cannot see
Parser = Callable[[str, str, Catalogue], "Action"]  # whole text, what follows the kind word
# seat, VP offered, source, events -> the VP that count now (M6-19: every VP gain passes here)
VpFilter = Callable[["GameState", int, int, str, Events], int]
# seat, VP credited, source, events: reactions once the marker has moved (M6-03: a bonus on the way)
VpGained = Callable[["GameState", int, int, str, Events], None]
# Before the game waits for its next decision: open a decision a part queued meanwhile (True: opened)
Interrupt = Callable[["GameState", Events], bool]
HandLimit = Callable[["GameState", int], int]  # seat -> hand slots added beyond the tableau's (M4-10)
Dealt = Callable[["GameState", list[int]], None]  # cards just laid in the upper row from a stack (M4-06)
Formatter = Callable[["Action", Catalogue, str], str]
# state before an action, after it, its events -> True: something hidden came to light (``rules.takeback``)
Reveals = Callable[["GameState", "GameState", "list[Event]"], bool]

NO_CARDS: typing.Final[frozenset[int]] = frozenset()


def cards_of(hooks: list[Locked], st: GameState) -> frozenset[int]:
    """The cards that ``hooks`` (``Hooks.locked``, ``Hooks.no_vp``: each names a set of cards) name in ``st``."""
    if not hooks:
        return NO_CARDS
    if len(hooks) == 1:
        return hooks[0](st)
    return frozenset().union(*(h(st) for h in hooks))


class Notation(TypedDict):
    """A part's notation of its decisions and actions (X-09), as ``Hooks`` takes it: ``Hooks(..., **notation)``."""

    parsers: dict[str, Parser]
    formatters: dict[str, Formatter]


class PlayNotation(TypedDict):
    """The notation after ``play`` of a part's hand plays (``HandPlay``), as ``Hooks`` takes it."""

    play_parsers: list[PlayParser]
    play_formatters: dict[str, PlayFormatter]


@dataclass
class Hooks:
    """Everything the active expansions add; the base game's own decisions and steps included."""

    decisions: dict[str, Decision] = field(default_factory=dict)
    steps: dict[str, Step] = field(default_factory=dict)
    turn_actions: dict[str, TurnAction] = field(default_factory=dict)
    # Optional steps a player may take on his turn before his regular action (X-03, X-07: an event,
    # M4-03): offered by legal_moves beside the actions, at most one per turn; they are no action (the
    # same player then takes his turn, and passing after one is a pass, M4-04).
    before_action: dict[str, TurnAction] = field(default_factory=dict)
    setups: list[Setup] = field(default_factory=list)
    on_place: list[OnPlace] = field(default_factory=list)
    boxed: list[Boxed] = field(default_factory=list)
    round_end: list[RoundEnd] = field(default_factory=list)
    phase_start: list[PhaseStart] = field(default_factory=list)
    # X-05 (AMB-11): the decisions settled right after building scoring (scoring step 'pub'), one
    # player after the other from the phase's start player, each settling all of his in the order
    # given here before the next player: decision kind -> (order, whether the seat has it now).
    # The base game's Pub has order 20.
    settle: dict[str, tuple[int, Settles]] = field(default_factory=dict)
    final: list[Final] = field(default_factory=list)
    view: list[ViewFields] = field(default_factory=list)
    # Price reductions that do not come from the tableau (rules/prices.py folds them into SeatContext).
    discounts: list[Discount] = field(default_factory=list)
    # Steps when the game has ended, before the final scoring, in registry order; like phase steps
    # they may wait on pending decisions (``scoring.resume_final``), e.g. choosing an assignment (M5-02).
    before_final: dict[str, Step] = field(default_factory=dict)
    # X-06 step 2: final scoring for all seats at once, between the aristocrats (1) and the rubles (3).
    final_steps: list[FinalStep] = field(default_factory=list)
    # For the computer players' determinizations (players/hidden.py): each re-deals, on a copy, the
    # expansion's hidden state that the seat cannot see (e.g. others' Module-5 assignments).
    unseen: list[Redeal] = field(default_factory=list)
    parsers: dict[str, Parser] = field(default_factory=dict)
    formatters: dict[str, Formatter] = field(default_factory=dict)
    # Fields a game record may carry for this expansion's setup, e.g. a deal given explicitly
    # instead of drawn from the seed: name -> reader. ``new_game(given=...)`` hands them to ``setups``.
    record_fields: dict[str, RecordField] = field(default_factory=dict)
    # Hand cards played as an action, by ability (``HandPlay``), and the notation after ``play`` of
    # such cards: parsers try the text in turn (None: not theirs), formatters by ability.
    hand_plays: dict[str, HandPlay] = field(default_factory=dict)
    play_parsers: list[PlayParser] = field(default_factory=list)
    play_formatters: dict[str, PlayFormatter] = field(default_factory=dict)
    hand_exempt: list[HandExempt] = field(default_factory=list)
    card_income: list[CardIncome] = field(default_factory=list)
    locked: list[Locked] = field(default_factory=list)
    # AMB-17(e): a card among these yields no VP from any source: a Pub or Trading House sells none, a
    # Guild Hall gives its 4 as rubles only (their rubles stay); its own income is ``card_income``'s.
    no_vp: list[NoVp] = field(default_factory=list)
    turn_end: list[TurnEnd] = field(default_factory=list)
    vp_filters: list[VpFilter] = field(default_factory=list)
    vp_gained: list[VpGained] = field(default_factory=list)
    interrupts: list[Interrupt] = field(default_factory=list)
    hand_limit: list[HandLimit] = field(default_factory=list)
    dealt: list[Dealt] = field(default_factory=list)
    # Hidden things an expansion turns up beyond cards drawn from a stack (``rules.takeback.revealed``): an
    # action that turned one up cannot be taken back.
    reveals: list[Reveals] = field(default_factory=list)
    # ``settle`` in its order, made on first use (once the ruleset's parts have all merged theirs).
    settle_cache: list[tuple[str, Settles]] | None = field(default=None, repr=False, compare=False)

    def settle_order(self) -> list[tuple[str, Settles]]:
        """The decisions settled after building scoring (``settle``) in their order: (kind, whether a seat has it)."""
        order = self.settle_cache
        if order is None:
            kinds = sorted(self.settle, key=lambda k: self.settle[k][0])
            order = self.settle_cache = [(k, self.settle[k][1]) for k in kinds]
        return order

    def merge(self, other: Hooks) -> None:
        for name in (
            "decisions", "steps", "turn_actions", "before_action", "parsers", "formatters", "record_fields",
            "hand_plays", "play_formatters", "settle", "before_final",
        ):
            mine: dict[str, Any] = getattr(self, name)
            for key, value in getattr(other, name).items():
                if key in mine:
                    raise ValueError(f"two parts of the ruleset define the same {name.rstrip('s')} {key!r}")
                mine[key] = value
        for name in (
            "setups", "on_place", "boxed", "round_end", "final", "view", "play_parsers", "hand_exempt",
            "card_income", "locked", "no_vp", "phase_start", "turn_end", "vp_filters", "vp_gained", "interrupts",
            "hand_limit", "dealt", "discounts", "unseen", "final_steps", "reveals",
        ):
            getattr(self, name).extend(getattr(other, name))


@dataclass
class Shape:
    """The ruleset's derived data while expansions configure it (then frozen into the Ruleset)."""

    edition: int
    players: int
    catalogue: Catalogue
    phases: list[Phase]
    decks: list[str]
    tokens: list[str]
    display_size: int
    min_players: int = 2
    max_players: int = 4
    roundels: bool = False  # copies of a type with different market roundels are told apart (MK-49)
    # The keys of every active expansion and module ("market", "new_society", "module1" ...), so that one
    # part can depend on which others are on (e.g. BQ-23: the Debtor's Prison goes with modules 1 and 2).
    active: frozenset[str] = frozenset()
    # Card files (data/expansions/<name>.json) whose cards join the game, in registry order; and card
    # type ids removed from it (IBG-02 replacements, BQ-02, BQ-23): their physical cards keep their
    # ids but are never dealt. The catalogue is built from both after every part has configured.
    extras: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    token_step: int = 1  # BG-12: seats a start-player token moves at the end of a round (P5-10: 2)


@mypyc_attr(allow_interpreted_subclasses=True)
class Expansion:
    """One expansion or module: its key, where it may be used, and what it adds."""

    key: str = ""
    editions: tuple[int, ...] = (1, 2)
    requires: tuple[str, ...] = ()  # other expansions it needs
    excludes: tuple[str, ...] = ()  # expansions it cannot be combined with
    instead: str = ""  # the part that has its place in the other edition (named when the edition is wrong)

    def configure(self, shape: Shape) -> None:
        """Change the derived data (phases, stacks, tokens...); the default changes nothing."""

    def hooks(self) -> Hooks:
        return Hooks()
