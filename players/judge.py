"""The review's judgement of one decision (``review``): the strong search names the candidates, then the
played move and each candidate are valued on equal footing.

Valuation: determinizations of the mover's view (``hidden.determinize``) drawn one after the other from a
generator seeded by the review's seed and the decision's index, never the state's own seed, each with a
playout seed (``Deals``). Every move is applied in each determinization and followed by the same playout:
the greedy heuristic for every seat for ``VALUE_DEPTH`` moves (to the end when the game ends sooner), then
each seat's chance to win (``chances``, the review's own estimate: ``judge_eval``). Common random numbers:
two moves' simulations differ only by the move, so their difference is measured with far less noise than
their values, and its standard error is known from the paired differences. Every valued move gets
``simulations(iterations)``; while the label of the drop from the best to the played move is unsettled,
the live moves' simulations are doubled, up to ``MAX_FACTOR`` times, then those of the played and the best
move alone, up to ``PAIR_FACTOR`` times (sequential sampling).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from rules import advance, legal_moves
from rules.actions import Action
from rules.state import GameState

from .collector import PausedCollector
from .eval import Outlook
from .hidden import determinize
from .judge_eval import judge_chances
from .labels import equivalent_drop, label_of
from .search import STRONG, greedy_move, heuristic_move, search

DEFAULT_ITERATIONS = 64  # the strong search's iterations per decision (a fixed budget: no wall clock)
MIN_SIMULATIONS = 32  # every valued move gets at least this many simulations of its own
# Sequential sampling: while the drop's interval (CONFIDENCE standard errors either side) straddles a label
# threshold, the simulations are doubled: of every candidate not clearly below the best up to MAX_FACTOR
# times half the budget, then of the played and the best move alone up to PAIR_FACTOR times (the first count
# when the budget is tiny; the same seeded stream of determinizations, so the first k are always the same:
# deterministic, and capped). Past MAX_FACTOR only the drop is unsettled, not which move is best: the pair's
# 2,048 simulations (at 64 iterations) gave two seeds the same label for 90.6 % of labelled decisions where
# 512 for every live move gave 86.6 % (15 games, 12-move playouts; docs/review.md)
MAX_FACTOR = 16
PAIR_FACTOR = 64
# the search's most visited moves valued beside the played one, and as many of the heuristic's best: six
# each, so that another seed's search seldom brings a better move the first did not value (with three,
# different preferred moves made two fifths of the labels two seeds disagree on)
CANDIDATES = 6
# the valuation's playout moves before the position estimate (``judge_eval``): short, for more simulations
# of less variance (the estimate values hand cards, so a short playout need not play them). On 15 games
# (docs/review.md): 12 moves gave two seeds the same label for 90.6 % of labelled decisions, 10 for 92.9 %
# at five sixths of the CPU, 8 for 92.7 % but the strong level's accuracy less apart from the normal's
VALUE_DEPTH = 10
VALUE_EPSILON = 0.0  # the valuation's playouts: chance of a random move (0: the greedy heuristic)
SPREAD = 6.0  # VP: the softmax over the seats' (estimated) final VP that makes a playout's chances to win
# A preferred move counts only by the part of its lead over the played move that is more than noise: the
# lead less CONFIDENCE standard errors of the paired differences (one-sided 95 %)
CONFIDENCE = 1.645
# the candidates' search: the strong player's with its playouts cut at VALUE_DEPTH at every table size
# (the valuation's horizon), run for exactly its iterations
REVIEW_SEARCH = replace(STRONG, full_max=0, playout_depth=VALUE_DEPTH, stop_early=False, reuse=False)


def simulations(iterations: int) -> int:
    """The simulations each valued move gets at least at a search budget of ``iterations`` (half of it, at
    least ``MIN_SIMULATIONS``; sequential sampling adds more where a label needs them)."""
    return max(MIN_SIMULATIONS, iterations // 2)


def chances(st: GameState) -> list[float]:
    """Each seat's chance to win at the end of a playout: 1 shared among the winners of a finished game,
    else the softmax over the review's estimate of the final VP (``judge_eval.judge_chances``, spread
    ``SPREAD``: the strong player's estimate with hand cards at their expected play)."""
    return judge_chances(st, SPREAD)


@dataclass(frozen=True)
class Judgement:
    preferred: Action  # the played move unless a candidate is better by more than noise
    values: dict[Action, list[float]]  # each valued move: each seat's mean chance to win after it
    error: float  # the standard error of the mover's chance with the best candidate less with the played
    lead: float  # the best candidate's lead over the played move, less CONFIDENCE errors (>= 0)
    visits: dict[Action, int]  # the search's visits of the root moves
    simulations: int = 0  # the simulations of the played and the preferred move (sequential sampling)


def _rng(seed: int, index: int, purpose: str) -> random.Random:
    return random.Random(f"review:{seed}:{index}:{purpose}")


class Deals:
    """The valuation's determinizations of the mover's view and their playout seeds, drawn one after the
    other from one generator seeded by (seed, index): the first k are the same however many are drawn."""

    def __init__(self, st: GameState, seed: int, index: int) -> None:
        self.st = st
        self.rng = _rng(seed, index, "value")
        self.deals: list[GameState] = []
        self.seeds: list[int] = []

    def simulate(self, action: Action, start: int, stop: int) -> list[list[float]]:
        """The chances to win of simulations ``start`` to ``stop`` after ``action``."""
        while len(self.deals) < stop:
            self.deals.append(determinize(self.st, self.st.decider, self.rng))
            self.seeds.append(self.rng.randrange(2**31))
        return _simulate(self.deals[start:stop], self.seeds[start:stop], action)


def _simulate(deals: list[GameState], seeds: list[int], action: Action) -> list[list[float]]:
    """Each simulation's chances to win after ``action``."""
    out = []
    for d, s in zip(deals, seeds, strict=True):
        st = d.copy()
        advance(st, action)
        rng = random.Random(s) if VALUE_EPSILON > 0.0 else None  # (greedy: no draw)
        steps = 0
        while not st.finished and steps < VALUE_DEPTH:
            moves = legal_moves(st)
            advance(st, greedy_move(st, moves) if rng is None else heuristic_move(st, moves, rng, VALUE_EPSILON))
            steps += 1
        out.append(chances(st))
    return out


def _sum(xs: list[float]) -> float:
    """``sum(xs)``, typed: the compiled module must not take it for an int."""
    total: float = sum(xs)
    return total


def _mean(sims: list[list[float]]) -> list[float]:
    return [sum(col) / len(sims) for col in zip(*sims, strict=True)]


def value_action(
    st: GameState, action: Action, *, iterations: int, seed: int, index: int, count: int = 0
) -> list[float]:
    """Each seat's chance to win after ``action`` at ``st``, by the valuation of ``judge``: the same deals,
    the first ``count`` of them (0: ``simulations(iterations)``, the least a judged move gets)."""
    return _mean(Deals(st, seed, index).simulate(action, 0, count or simulations(iterations)))


def paired_error(a: list[float], b: list[float]) -> float:
    """The standard error of mean(a) - mean(b) from the paired differences."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    k = len(diffs)
    mean = _sum(diffs) / k
    return math.sqrt(_sum([(d - mean) ** 2 for d in diffs]) / (k - 1) / k) if k > 1 else 0.0


def heuristic_best(st: GameState, count: int) -> list[Action]:
    """The ``count`` legal moves of the highest heuristic value (ties: legal_moves' order)."""
    out = Outlook(st)
    moves = legal_moves(st)
    scored = sorted((-out.score(m), i) for i, m in enumerate(moves))
    return [moves[i].action for _, i in scored[:count]]


def settled(before: float, after: float, error: float) -> bool:
    """Whether the label of a drop from ``before`` to ``after`` (0..1) is the same at both ends of its
    interval, ``CONFIDENCE`` standard errors ``error`` either side."""
    lead = before - after
    low = equivalent_drop(before, before - max(0.0, lead - CONFIDENCE * error))
    high = equivalent_drop(before, before - max(0.0, lead + CONFIDENCE * error))
    return label_of(low) == label_of(high)


def judge(st: GameState, played: Action, *, iterations: int, seed: int, index: int) -> Judgement:
    """The candidates of the strong search at ``st`` (``iterations`` iterations from the mover's view: its
    most visited moves, and the heuristic's best, so that a move the search happened to leave unvisited is
    still valued), and the values of them and of ``played``, each on ``simulations(iterations)`` simulations.
    The best candidate is the one of highest value for the mover; it is preferred to the played move when
    its lead is more than ``CONFIDENCE`` standard errors. While the label of the drop from the best to the
    played move is not settled (``settled``), the simulations of the played move and of every candidate
    not clearly below the best are doubled, up to ``MAX_FACTOR`` times ``iterations / 2``, then those of the
    played and the best move alone, up to ``PAIR_FACTOR`` times. The cyclic garbage collector is paused
    meanwhile, as in the searches (``PausedCollector``)."""
    with PausedCollector():
        return _judge(st, played, iterations, seed, index)


def _judge(st: GameState, played: Action, iterations: int, seed: int, index: int) -> Judgement:
    seat = st.decider
    found = search(st, seat, _rng(seed, index, "search"), REVIEW_SEARCH, iterations=iterations)
    ranked = sorted(found.visits, key=lambda a: -found.visits[a])
    candidates = [played]
    for a in [*ranked[:CANDIDATES], *heuristic_best(st, CANDIDATES)]:
        if a not in candidates:
            candidates.append(a)
    deals = Deals(st, seed, index)
    sims: dict[Action, list[list[float]]] = {a: [] for a in candidates}
    live = candidates
    count = simulations(iterations)
    wide = max(count, MAX_FACTOR * (iterations // 2))  # a tiny budget (the tests'): the first count
    cap = max(count, PAIR_FACTOR * (iterations // 2))
    while True:
        for a in live:
            sims[a] += deals.simulate(a, len(sims[a]), count)
        mover = {a: [x[seat] for x in sims[a]] for a in live}
        best = played
        for a in live[1:]:
            if _sum(mover[a]) > _sum(mover[best]):
                best = a
        error = paired_error(mover[best], mover[played])
        gap = (_sum(mover[best]) - _sum(mover[played])) / count
        if count >= cap or settled(_sum(mover[best]) / count, _sum(mover[played]) / count, error):
            break
        top = _sum(mover[best]) / count
        live = [
            a
            for a in live
            if a in (played, best)
            or (count < wide and _sum(mover[a]) / count + CONFIDENCE * paired_error(mover[best], mover[a]) >= top)
        ]
        count = min(2 * count, cap)
    values = {a: _mean(s) for a, s in sims.items()}
    lead = max(0.0, gap - CONFIDENCE * error)
    return Judgement(best if lead > 0.0 else played, values, error, lead, found.visits, count)
