"""Random complete games for the property tests (hypothesis): what is drawn, and a player that
picks uniformly among ``legal_moves``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, settings
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

KINDS = (BUY, TAKE, PLAY, OBSERVE, DISCARD, PUB, PASS, *MARKET_KINDS, "pickpocket")
MODULE_SETS = ((3,), (5,), (3, 5), (1, 2, 3, 5))  # with the Market
MAX_ACTIONS = 5000  # a random game has ~150-250 actions; this bound only catches endless games
ROWS = (UPPER, LOWER, HAND, DRAWN)
PUB_AMOUNTS = range(12)

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Event = dict[str, Any]


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


def games(
    open_money: hs.SearchStrategy[bool] | None = None,
    open_hands: hs.SearchStrategy[bool] | None = None,
) -> hs.SearchStrategy[Game]:
    plain = [(ed, n, False, ()) for ed in (1, 2) for n in (2, 3, 4)] + [(2, n, True, ()) for n in (2, 3, 4, 5, 5)]
    # BQ-27, BQ-01, BQ-02: the Banquet in the 1st edition, Module 1 with and without the Market
    banquet = [(ed, n, False, (1,)) for ed in (1, 2) for n in (2, 3, 4)] + [(2, n, True, (1,)) for n in (2, 3, 4, 5)]
    # IBG-01, IBG-13, P5-04: In bester Gesellschaft (2-5) and SP+ (2-4) in the 1st edition, with the Banquet too
    Shape = tuple[int, int, bool, tuple[int, ...], tuple[str, ...]]
    society: list[Shape] = [(1, n, False, m, ("new_society",)) for n in (2, 3, 4, 5) for m in ((), (1,))]
    society += [(1, n, False, m, ("new_society_replacements_only",)) for n in (2, 4) for m in ((), (1,))]
    # M2-01, BQ-23: Module 2 with and without the Market, and with Module 1 (no Debtor's Prison)
    society += [(2, n, mk, m, ()) for n in (2, 3, 4) for mk in (False, True) for m in ((2,), (1, 2))]
    society += [(2, 5, True, m, ()) for m in ((2,), (1, 2))]
    # M3, M5: Modules 3 and 5 with the Market, alone, together and with Modules 1 and 2
    modules35: list[Shape] = [(2, n, True, m, ()) for n in (2, 3, 4, 5) for m in MODULE_SETS]
    shapes = hs.sampled_from([(*s, ()) for s in plain + banquet] + society + modules35)
    return hs.builds(
        lambda shape, **kw: Game(edition=shape[0], players=shape[1], market=shape[2], modules=shape[3],
                                 expansions=shape[4], **kw),
        shape=shapes,
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


def record_of(game: Game, actions: list[Action]) -> GameRecord:
    cat = game.ruleset.catalogue
    return GameRecord(game.ruleset, game.seats, seed=game.seed, actions=[format_action(a, cat) for a in actions])
