"""The review's judgement of one decision (``review``): the strong search names the candidates, then the
played move and each candidate are valued on equal footing.

Valuation: ``simulations(iterations)`` determinizations of the mover's view (``hidden.determinize``, from a
generator seeded by the review's seed and the decision's index, never the state's own seed), and for each a
playout seed. Every move is applied in each determinization and followed by the same playout: the
heuristic policy for every seat for ``VALUE_DEPTH`` moves (to the end when the game ends sooner), then each
seat's chance to win (1 shared among the winners of a finished game, else the softmax of the estimated
final VP, ``eval.estimated_rewards`` with the strong player's spread). Common random numbers: the moves
differ only by the move, so their difference is measured with far less noise than their values.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from rules import apply, legal_moves
from rules.actions import Action
from rules.state import GameState

from .eval import estimated_rewards
from .hidden import determinize
from .search import STRONG, heuristic_move, search

DEFAULT_ITERATIONS = 96  # the strong search's iterations per decision (a fixed budget: no wall clock)
MIN_SIMULATIONS = 32  # every valued move gets at least this many simulations of its own
CANDIDATES = 2  # the search's most visited moves valued beside the played one
VALUE_EPSILON = 0.0  # the valuation's playouts: chance of a random move (0: the greedy heuristic)
# VP: the softmax over the seats' final VP (or their estimate) that makes a playout's chances to win
SPREAD = 10.0
# the candidates' search: the strong player's, run for exactly its iterations
REVIEW_SEARCH = replace(STRONG, stop_early=False, reuse=False)


VALUE_DEPTH = 24  # the valuation's playout moves before the position estimate (-1: to the end)


def value_depth(players: int) -> int:
    """The valuation's playout moves before the position estimate (-1: to the end): ``VALUE_DEPTH`` at
    every table size (the strong player's cut at two and five players; at three and four it plays to the
    end, whose single result is too noisy to tell two moves apart in a few dozen simulations)."""
    return VALUE_DEPTH


def chances(st: GameState) -> list[float]:
    """Each seat's chance to win at the end of a playout: the softmax over the final VP, or where the
    playout was cut, over the estimated final VP (``eval.estimated_rewards``), with ``SPREAD``."""
    if not st.finished:
        return estimated_rewards(st, SPREAD)
    top = max(st.vp)
    exps = [math.exp((v - top) / SPREAD) for v in st.vp]
    total = sum(exps)
    return [e / total for e in exps]


def simulations(iterations: int) -> int:
    """The simulations each valued move gets at a search budget of ``iterations``."""
    return max(MIN_SIMULATIONS, iterations // 2)


@dataclass(frozen=True)
class Judgement:
    preferred: Action
    values: dict[Action, list[float]]  # each valued move: each seat's mean chance to win after it
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


def _value(deals: list[GameState], seeds: list[int], action: Action) -> list[float]:
    n = deals[0].n
    total = [0.0] * n
    for d, s in zip(deals, seeds, strict=True):
        st = d.copy()
        apply(st, action)
        rng = random.Random(s)
        steps = 0
        depth = value_depth(st.n)
        while not st.finished and steps != depth:
            apply(st, heuristic_move(st, legal_moves(st), rng, VALUE_EPSILON))
            steps += 1
        for i, r in enumerate(chances(st)):
            total[i] += r
    return [t / len(deals) for t in total]


def value_action(st: GameState, action: Action, *, iterations: int, seed: int, index: int) -> list[float]:
    """Each seat's chance to win after ``action`` at ``st``, by the valuation of ``judge`` (the same deals)."""
    deals, seeds = _deals(st, iterations, seed, index)
    return _value(deals, seeds, action)


def judge(st: GameState, played: Action, *, iterations: int, seed: int, index: int) -> Judgement:
    """The candidates of the strong search at ``st`` (``iterations`` iterations from the mover's view), and
    the values of them and of ``played``; the preferred move is the one of highest value for the mover
    (ties: the played move, then the most visited)."""
    seat = st.decider
    found = search(st, seat, _rng(seed, index, "search"), REVIEW_SEARCH, iterations=iterations)
    ranked = sorted(found.visits, key=lambda a: -found.visits[a])
    candidates = [played, *[a for a in ranked[:CANDIDATES] if a != played]]
    deals, seeds = _deals(st, iterations, seed, index)
    values = {a: _value(deals, seeds, a) for a in candidates}
    best = candidates[0]
    for a in candidates[1:]:
        if values[a][seat] > values[best][seat]:
            best = a
    return Judgement(best, values, found.visits)
