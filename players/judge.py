"""The review's judgement of one decision (``review``): the strong search names the candidates, then the
played move and each candidate are valued on equal footing.

Valuation: ``simulations(iterations)`` determinizations of the mover's view (``hidden.determinize``, from a
generator seeded by the review's seed and the decision's index, never the state's own seed), and for each a
playout seed. Every move is applied in each determinization and followed by the same playout: the greedy
heuristic for every seat for ``VALUE_DEPTH`` moves (to the end when the game ends sooner), then each seat's
chance to win (``chances``). Common random numbers: two moves' simulations differ only by the move, so
their difference is measured with far less noise than their values, and its standard error is known from
the paired differences.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from rules import apply, legal_moves
from rules.actions import Action
from rules.state import GameState

from .eval import Outlook, estimated_rewards
from .hidden import determinize
from .search import STRONG, heuristic_move, search

DEFAULT_ITERATIONS = 64  # the strong search's iterations per decision (a fixed budget: no wall clock)
MIN_SIMULATIONS = 32  # every valued move gets at least this many simulations of its own
# the search's most visited moves valued beside the played one, and as many of the heuristic's best
CANDIDATES = 3
VALUE_DEPTH = 24  # the valuation's playout moves before the position estimate (the strong player's cut)
VALUE_EPSILON = 0.0  # the valuation's playouts: chance of a random move (0: the greedy heuristic)
SPREAD = 6.0  # VP: the softmax over the seats' (estimated) final VP that makes a playout's chances to win
# A preferred move counts only by the part of its lead over the played move that is more than noise: the
# lead less CONFIDENCE standard errors of the paired differences (one-sided 95 %)
CONFIDENCE = 1.645
# the candidates' search: the strong player's with its playouts cut at VALUE_DEPTH at every table size
# (the valuation's horizon), run for exactly its iterations
REVIEW_SEARCH = replace(STRONG, full_max=0, playout_depth=VALUE_DEPTH, stop_early=False, reuse=False)


def simulations(iterations: int) -> int:
    """The simulations each valued move gets at a search budget of ``iterations``."""
    return max(MIN_SIMULATIONS, iterations)


def chances(st: GameState) -> list[float]:
    """Each seat's chance to win at the end of a playout: 1 shared among the winners of a finished game,
    else the softmax over the estimated final VP (``eval.estimated_rewards``, spread ``SPREAD``)."""
    return estimated_rewards(st, SPREAD)


@dataclass(frozen=True)
class Judgement:
    preferred: Action  # the played move unless a candidate is better by more than noise
    values: dict[Action, list[float]]  # each valued move: each seat's mean chance to win after it
    error: float  # the standard error of the mover's chance with the best candidate less with the played
    lead: float  # the best candidate's lead over the played move, less CONFIDENCE errors (>= 0)
    visits: dict[Action, int]  # the search's visits of the root moves


def _rng(seed: int, index: int, purpose: str) -> random.Random:
    return random.Random(f"review:{seed}:{index}:{purpose}")


def _deals(st: GameState, iterations: int, seed: int, index: int) -> tuple[list[GameState], list[int]]:
    """The valuation's determinizations of the mover's view and their playout seeds."""
    rng = _rng(seed, index, "value")
    seat = st.decider
    count = simulations(iterations)
    deals = [determinize(st, seat, rng) for _ in range(count)]
    return deals, [rng.randrange(2**31) for _ in range(count)]


def _simulate(deals: list[GameState], seeds: list[int], action: Action) -> list[list[float]]:
    """Each simulation's chances to win after ``action``."""
    out = []
    for d, s in zip(deals, seeds, strict=True):
        st = d.copy()
        apply(st, action)
        rng = random.Random(s)
        steps = 0
        while not st.finished and steps < VALUE_DEPTH:
            apply(st, heuristic_move(st, legal_moves(st), rng, VALUE_EPSILON))
            steps += 1
        out.append(chances(st))
    return out


def _mean(sims: list[list[float]]) -> list[float]:
    return [sum(col) / len(sims) for col in zip(*sims, strict=True)]


def value_action(st: GameState, action: Action, *, iterations: int, seed: int, index: int) -> list[float]:
    """Each seat's chance to win after ``action`` at ``st``, by the valuation of ``judge`` (the same deals)."""
    deals, seeds = _deals(st, iterations, seed, index)
    return _mean(_simulate(deals, seeds, action))


def paired_error(a: list[float], b: list[float]) -> float:
    """The standard error of mean(a) - mean(b) from the paired differences."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    k = len(diffs)
    mean = sum(diffs) / k
    return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (k - 1) / k) if k > 1 else 0.0


def heuristic_best(st: GameState, count: int) -> list[Action]:
    """The ``count`` legal moves of the highest heuristic value (ties: legal_moves' order)."""
    out = Outlook(st)
    moves = legal_moves(st)
    scored = sorted((-out.score(m), i) for i, m in enumerate(moves))
    return [moves[i].action for _, i in scored[:count]]


def judge(st: GameState, played: Action, *, iterations: int, seed: int, index: int) -> Judgement:
    """The candidates of the strong search at ``st`` (``iterations`` iterations from the mover's view: its
    most visited moves, and the heuristic's best, so that a move the search happened to leave unvisited is
    still valued), and the values of them and of ``played``. The best candidate is the one of highest value
    for the mover; it is preferred to the played move when its lead is more than ``CONFIDENCE`` standard
    errors."""
    seat = st.decider
    found = search(st, seat, _rng(seed, index, "search"), REVIEW_SEARCH, iterations=iterations)
    ranked = sorted(found.visits, key=lambda a: -found.visits[a])
    candidates = [played]
    for a in [*ranked[:CANDIDATES], *heuristic_best(st, CANDIDATES)]:
        if a not in candidates:
            candidates.append(a)
    deals, seeds = _deals(st, iterations, seed, index)
    sims = {a: _simulate(deals, seeds, a) for a in candidates}
    values = {a: _mean(s) for a, s in sims.items()}
    best = candidates[0]
    for a in candidates[1:]:
        if values[a][seat] > values[best][seat]:
            best = a
    error = paired_error([x[seat] for x in sims[best]], [x[seat] for x in sims[played]])
    lead = max(0.0, values[best][seat] - values[played][seat] - CONFIDENCE * error)
    return Judgement(best if lead > 0.0 else played, values, error, lead, found.visits)
