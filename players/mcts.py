"""The plain Monte Carlo tree search baseline (level ``mcts``): what a standard search does,
so that the strong player is measured against it and not only against our own weaker levels.

It is OpenSpiel's ``MCTSBot`` made to fit: PUCT selection (``Q + c * P * sqrt(N) / (1 + n)``, an
unvisited child's Q taken as 0) with the greedy heuristic's move values as the prior (a softmax with
``PRIOR_TEMPERATURE`` VP), every child of a node added at its first visit, playouts that follow the
greedy heuristic (with ``EPSILON`` random moves) to the end of the game, and the final win shares
backed up to each node for the seat that moved into it. Nothing more: no progressive widening, no
position estimate, no tree reuse.

What the seat cannot see is dealt anew for each iteration (``hidden.determinize``: the stacks, and
with private hands the others' hands): the search must not read what its seat may not see, and a
tree keyed by actions serves every deal (a child is only followed where its action is legal).
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from rules import advance, legal_moves
from rules.actions import Action, Move
from rules.state import GameState

from .collector import PausedCollector
from .eval import Outlook, final_rewards
from .hidden import determinize
from .search import SearchResult, heuristic_move

PRIOR_TEMPERATURE: Final = 2.5  # VP: as the easy level's softmax
EXPLORE: Final = 1.0  # OpenSpiel's uct_c = 2 for returns in [-1, 1]; ours are win shares in [0, 1]
EPSILON: Final = 0.15  # playouts: chance of a uniformly random move


class PNode:
    __slots__ = ("mover", "prior", "visits", "reward", "children")

    def __init__(self, mover: int, prior: float) -> None:
        self.mover = mover  # the seat whose move led here
        self.prior = prior
        self.visits = 0
        self.reward = 0.0
        self.children: dict[Action, PNode] = {}


def priors(st: GameState, moves: list[Move]) -> list[float]:
    """The heuristic's move values as probabilities (a softmax with ``PRIOR_TEMPERATURE``)."""
    if len(moves) == 1:
        return [1.0]
    out = Outlook(st)
    scores = [out.score(m) for m in moves]
    top = max(scores)
    exps = [math.exp((s - top) / PRIOR_TEMPERATURE) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _expand(node: PNode, st: GameState, moves: list[Move]) -> None:
    """Add a child for each legal move of this deal that has none yet (with its prior)."""
    mover = st.decider
    for m, p in zip(moves, priors(st, moves), strict=True):
        if m.action not in node.children:
            node.children[m.action] = PNode(mover, p)


def _select(node: PNode, moves: list[Move]) -> Action:
    sqrt_n = math.sqrt(node.visits)
    best: Action = moves[0].action
    best_v = -1.0
    children = node.children
    for m in moves:
        child = children[m.action]
        q = child.reward / child.visits if child.visits else 0.0
        v = q + EXPLORE * child.prior * sqrt_n / (1 + child.visits)
        if v > best_v:
            best, best_v = m.action, v
    return best


def playout(st: GameState, rng: random.Random) -> list[float]:
    while not st.finished:
        advance(st, heuristic_move(st, legal_moves(st), rng, EPSILON))
    return final_rewards(st)


def search(
    st: GameState, seat: int, rng: random.Random, iterations: int | None = None, budget_s: float | None = None
) -> SearchResult:
    """Search from ``st`` for ``seat`` (the deciding seat) until ``iterations`` or ``budget_s`` seconds
    run out; the most visited move is the answer. The cyclic garbage collector is paused meanwhile, as in
    the strong search (``PausedCollector``)."""
    with PausedCollector():
        return _search(st, seat, rng, iterations, budget_s)


def _search(
    st: GameState, seat: int, rng: random.Random, iterations: int | None, budget_s: float | None
) -> SearchResult:
    if iterations is None and budget_s is None:
        raise ValueError("give iterations or budget_s")
    moves = legal_moves(st)
    if len(moves) == 1:
        return SearchResult(moves[0].action, 0, {})
    root = PNode(-1, 1.0)
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done > 0 and time.perf_counter() >= deadline:
            break
        d = determinize(st, seat, rng)
        node = root
        path = [root]
        while not d.finished:
            here = legal_moves(d)
            if any(m.action not in node.children for m in here):
                _expand(node, d, here)
            action = _select(node, here)
            advance(d, action)
            node = node.children[action]
            path.append(node)
            if node.visits == 0:
                break  # a new leaf: its children are added at its next visit
        rewards = playout(d, rng)
        for n in path:
            n.visits += 1
            n.reward += rewards[n.mover] if n.mover >= 0 else 0.0
        done += 1
    legal = {m.action for m in moves}
    visits = {a: n.visits for a, n in root.children.items() if a in legal}
    best = max(visits, key=lambda a: (visits[a], root.children[a].reward))
    chosen = root.children[best]
    return SearchResult(best, done, visits, chosen.reward / chosen.visits if chosen.visits else None)
