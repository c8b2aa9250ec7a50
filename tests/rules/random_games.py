"""Random complete games for the property tests (hypothesis): the parts of the game they are drawn
from, what is drawn, and a player that picks uniformly among ``legal_moves``.

One property suite serves every part of the game (as python-chess keeps one perft harness for all its
variants): each property test is parametrized over ``FAMILIES``, and a family's games are drawn from its
shapes (edition x players x the Market x modules x expansions) with the options, a game seed and a
choice seed. ``budget`` gives a property's number of games per family under the hypothesis profile
(tests/conftest.py: ``quick`` by default, ``full`` under CI).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs

from rules import (
    BUY,
    DISCARD,
    DRAWN,
    HAND,
    LOWER,
    OBSERVE,
    PASS,
    PLAY,
    PUB,
    TAKE,
    UPPER,
    Action,
    GameRecord,
    GameState,
    Move,
    Ruleset,
    apply,
    format_action,
    legal_moves,
    new_game,
)

from .helpers import MARKET_KINDS

SOCIETY_KINDS = ("guild_hall", "trading_house", "sycophant", "prison")  # IBG, Module 2
KINDS = (BUY, TAKE, PLAY, OBSERVE, DISCARD, PUB, PASS, *MARKET_KINDS, "pickpocket", *SOCIETY_KINDS)
MODULE_SETS: tuple[tuple[int, ...], ...] = ((3,), (5,), (3, 5), (1, 2, 3, 5))  # with the Market
# with the Market; X-01: all six at once too
MODULE46_SETS: tuple[tuple[int, ...], ...] = ((4,), (6,), (4, 6), (3, 4, 5, 6), (1, 2, 3, 4, 5, 6))
MAX_ACTIONS = 5000  # a random game has ~150-250 actions; this bound only catches endless games
ROWS = (UPPER, LOWER, HAND, DRAWN)
PUB_AMOUNTS = range(12)

Event = dict[str, Any]
Shape = tuple[int, int, bool, tuple[int, ...], tuple[str, ...]]  # edition, players, Market, modules, expansions

IBG, SP_PLUS = ("new_society",), ("new_society_replacements_only",)


def shape(edition: int, players: int, market: bool = True, modules: tuple[int, ...] = (),
          expansions: tuple[str, ...] = ()) -> Shape:
    return edition, players, market, modules, expansions


FAMILIES: dict[str, list[Shape]] = {
    # the base game of both editions, 2-4 players
    "base": [shape(ed, n, False) for ed in (1, 2) for n in (2, 3, 4)],
    # the Market (2nd edition, 2-5 players)
    "market": [shape(2, n) for n in (2, 3, 4, 5)],
    # BQ-27, BQ-01, BQ-02: the Banquet in the 1st edition, Module 1 with and without the Market
    "banquet": [shape(ed, n, False, (1,)) for ed in (1, 2) for n in (2, 3, 4)]
    + [shape(2, n, True, (1,)) for n in (2, 3, 4, 5)],
    # IBG-01, IBG-13, P5-04: In bester Gesellschaft (2-5) and SP+ (2-4), with the Banquet too; M2-01,
    # BQ-23: Module 2 with and without the Market, and with Module 1 (no Debtor's Prison)
    "society": [shape(1, n, False, m, IBG) for n in (2, 3, 4, 5) for m in ((), (1,))]
    + [shape(1, n, False, m, SP_PLUS) for n in (2, 3, 4) for m in ((), (1,))]
    + [shape(2, n, mk, m) for n in (2, 3, 4) for mk in (False, True) for m in ((2,), (1, 2))]
    + [shape(2, 5, True, m) for m in ((2,), (1, 2))],
    # M3, M5: Modules 3 and 5 with the Market, alone, together and with Modules 1 and 2
    "modules35": [shape(2, n, True, m) for n in (2, 3, 4, 5) for m in MODULE_SETS],
    # M4, M6: Modules 4 and 6, each, both, with 3 and 5, and all six
    "modules46": [shape(2, n, True, m) for n in (2, 3, 4, 5) for m in MODULE46_SETS],
}

# games per property test and family under the ``full`` profile (whose max_examples is FULL): the
# dedicated suites' numbers where a part had one; the costly checks of every candidate action fewer
FULL = 30
LIGHT = {"base": 10, "market": 10, "banquet": 10, "society": 30, "modules35": 10, "modules46": 30}
HEAVY = {"base": 4, "market": 4, "banquet": 10, "society": 12, "modules35": 6, "modules46": 30}


def budget(family: str, heavy: bool = False) -> settings:
    """The settings of a property test of ``family``: its number of games, the profile's share
    (max_examples / FULL) of LIGHT or HEAVY, at least one."""
    profile = settings.default
    assert profile is not None
    full = (HEAVY if heavy else LIGHT)[family]
    return settings(max_examples=max(1, round(full * profile.max_examples / FULL)))


def each_game(family: str, heavy: bool = False, **draw: Any) -> Callable[[Callable[[Game], None]], None]:
    """Run the decorated property over random games of ``family`` (hypothesis; ``draw``: strategies for
    ``games``), as many as its budget."""

    def run(prop: Callable[[Game], None]) -> None:
        given(games(family, **draw))(budget(family, heavy)(prop))()

    return run


# --- random games --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """What hypothesis draws: enough to replay the same random game."""

    edition: int
    players: int
    seed: int
    choice_seed: int
    mandatory_first_workers: bool = True
    open_money: bool = True
    open_hands: bool = False
    market: bool = False
    modules: tuple[int, ...] = ()
    expansions: tuple[str, ...] = ()  # besides the Market: new_society, new_society_replacements_only

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset(
            edition=self.edition,
            players=self.players,
            mandatory_first_workers=self.mandatory_first_workers,
            open_money=self.open_money,
            open_hands=self.open_hands,
            expansions=(("market",) if self.market else ()) + self.expansions,
            modules=self.modules,
        )

    @property
    def seats(self) -> list[str]:
        return [f"P{i}" for i in range(self.players)]

    def start(self) -> GameState:
        return new_game(self.ruleset, self.seats, seed=self.seed)


def game_of(shape: Shape, **kw: Any) -> Game:
    edition, players, market, modules, expansions = shape
    return Game(edition=edition, players=players, market=market, modules=modules, expansions=expansions, **kw)


def games(
    family: str | None = None,
    open_money: hs.SearchStrategy[bool] | None = None,
    open_hands: hs.SearchStrategy[bool] | None = None,
) -> hs.SearchStrategy[Game]:
    """Games of ``family`` (of every family when None) with the options drawn too."""
    shapes = FAMILIES[family] if family is not None else [s for f in FAMILIES.values() for s in f]
    return hs.builds(
        game_of,
        hs.sampled_from(shapes),
        seed=hs.integers(0, 2**32 - 1),
        choice_seed=hs.integers(0, 2**32 - 1),
        mandatory_first_workers=hs.sampled_from([True, True, True, False]),
        open_money=open_money if open_money is not None else hs.booleans(),
        open_hands=open_hands if open_hands is not None else hs.booleans(),
    )


@dataclass
class RandomGame:
    """Plays ``game`` with uniformly random legal moves. Iterating yields (moves, chosen move) with
    ``state`` before the move; the move is applied when the loop body returns."""

    game: Game
    state: GameState = field(init=False)
    rng: random.Random = field(init=False)
    sampler: random.Random = field(init=False)
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)  # of the last applied action

    def __post_init__(self) -> None:
        self.state = self.game.start()
        self.rng = random.Random(self.game.choice_seed)
        self.sampler = random.Random(self.game.choice_seed ^ 0x5EED5)

    def __iter__(self) -> Iterator[tuple[list[Move], Move]]:
        st = self.state
        while not st.finished:
            assert len(self.actions) < MAX_ACTIONS, f"not finished after {MAX_ACTIONS} actions"
            moves = legal_moves(st)
            assert moves, "no legal move in an unfinished game"
            move = self.rng.choice(moves)
            yield moves, move
            self.events = apply(st, move.action)
            self.actions.append(move.action)

    def sampled(self, rate: float) -> bool:
        return self.sampler.random() < rate

    def finish(self) -> GameState:
        for _ in self:
            pass
        return self.state


def record_of(game: Game, actions: list[Action], seats: list[str] | None = None) -> GameRecord:
    """The game's record; with ``seats``, the actions name players by name (Moocher, Pickpocket...)."""
    cat = game.ruleset.catalogue
    texts = [format_action(a, cat, seats=seats or ()) for a in actions]
    return GameRecord(game.ruleset, game.seats, seed=game.seed, actions=texts)
