"""Monte Carlo tree search over determinizations (single-observer information-set MCTS).

Each iteration re-deals what the searching seat cannot see (``hidden.determinize``), walks one
tree of action sequences shared by all determinizations (a child is only eligible where its action is
legal in this deal; UCB counts how often it was eligible, as in ISMCTS), adds one node, plays on with
a playout policy, and backs up each seat's reward; every node scores the reward of the seat that made
its move (max-n for 2 to 4 players). All moves come from ``legal_moves``; nothing here knows a card.

Two configurations are used (see ``SearchConfig``): the strong player expands moves in the heuristic's
order with progressive widening, plays heuristic playouts and cuts them short with the position
estimate; ``mcts-random`` is the plain baseline: uniform expansion, random playouts to the end.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rules import apply, legal_moves
from rules.actions import Action, Move
from rules.state import GameState

from .eval import Outlook, estimated_rewards, final_rewards
from .hidden import determinize


@dataclass(frozen=True, slots=True)
class SearchConfig:
    guided: bool = True  # heuristic order for expansion, progressive widening, heuristic playouts
    playout_depth: int = 24  # playout moves before the position estimate (-1: play to the end)
    epsilon: float = 0.15  # heuristic playouts: chance of a uniformly random move
    explore: float = 0.7  # UCB exploration constant (rewards are win shares in [0, 1])
    widen: float = 1.5  # progressive widening: children allowed = 1 + widen * sqrt(visits)
    spread: float = 6.0  # VP scale of the softmax turning estimated final VP into win chances


STRONG = SearchConfig()
RANDOM_PLAYOUTS = SearchConfig(guided=False, playout_depth=-1)


class Node:
    __slots__ = ("mover", "visits", "reward", "avail", "children")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat whose move led here
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.children: dict[Action, Node] = {}


@dataclass(slots=True)
class SearchResult:
    action: Action
    iterations: int
    visits: dict[Action, int]
    win_chance: float | None = None  # the chosen move's mean reward for the seat (None: forced move)


def _ranked(st: GameState, moves: list[Move]) -> list[Move]:
    """Moves best first by the heuristic (ties keep legal_moves' order)."""
    out = Outlook(st)
    scored = sorted(((-out.score(m), i) for i, m in enumerate(moves)))
    return [moves[i] for _, i in scored]


def _heuristic_move(st: GameState, moves: list[Move], rng: random.Random, epsilon: float) -> Action:
    if len(moves) == 1:
        return moves[0].action
    if rng.random() < epsilon:
        return moves[rng.randrange(len(moves))].action
    out = Outlook(st)
    best = moves[0]
    best_score = out.score(best)
    for m in moves[1:]:
        s = out.score(m)
        if s > best_score:
            best, best_score = m, s
    return best.action


def _playout(st: GameState, cfg: SearchConfig, rng: random.Random) -> list[float]:
    steps = 0
    while not st.finished and steps != cfg.playout_depth:
        moves = legal_moves(st)
        action = _heuristic_move(st, moves, rng, cfg.epsilon) if cfg.guided else moves[rng.randrange(len(moves))].action
        apply(st, action)
        steps += 1
    if st.finished:
        return final_rewards(st)
    return estimated_rewards(st, cfg.spread)


def _select(node: Node, st: GameState, cfg: SearchConfig, rng: random.Random) -> tuple[Action, bool]:
    """The action to follow from ``node`` in this deal, and whether it is a new child."""
    moves = legal_moves(st)
    children = node.children
    if cfg.guided:
        ranked = _ranked(st, moves) if len(moves) > 1 else moves
        allowed = 1 + int(cfg.widen * math.sqrt(node.visits))
        eligible: list[Node] = []
        actions: list[Action] = []
        for m in ranked:
            child = children.get(m.action)
            if child is None:
                if len(eligible) < allowed:
                    return m.action, True
                continue
            eligible.append(child)
            actions.append(m.action)
            if len(eligible) >= allowed:
                break
    else:
        untried = [m.action for m in moves if m.action not in children]
        if untried:
            return untried[rng.randrange(len(untried))], True
        actions = [m.action for m in moves]
        eligible = [children[a] for a in actions]
    best_i = 0
    best_v = -1.0
    c = cfg.explore
    for i, child in enumerate(eligible):
        child.avail += 1
        v = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
        if v > best_v:
            best_i, best_v = i, v
    return actions[best_i], False


def search(
    st: GameState,
    seat: int,
    rng: random.Random,
    cfg: SearchConfig = STRONG,
    iterations: int | None = None,
    budget_s: float | None = None,
) -> SearchResult:
    """Search from ``st`` for ``seat`` (the deciding seat) until ``iterations`` or ``budget_s`` seconds
    (wall clock) run out; the most visited move is the answer."""
    if iterations is None and budget_s is None:
        raise ValueError("give iterations or budget_s")
    if iterations is not None and iterations < 1:
        raise ValueError("iterations must be at least 1")
    root = Node(-1)
    moves = legal_moves(st)
    if len(moves) == 1:
        return SearchResult(moves[0].action, 0, {})
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline and done > 0:
            break
        d = determinize(st, seat, rng)
        node = root
        path = [root]
        while not d.finished:
            mover = d.decider
            action, new = _select(node, d, cfg, rng)
            apply(d, action)
            if new:
                child = node.children[action] = Node(mover)
                child.avail = 1
                path.append(child)
                break
            node = node.children[action]
            path.append(node)
        rewards = _playout(d, cfg, rng)
        root.visits += 1
        for n in path[1:]:
            n.visits += 1
            n.reward += rewards[n.mover]
        done += 1
    legal = {m.action for m in moves}
    visits = {a: n.visits for a, n in root.children.items() if a in legal}
    best = max(visits, key=lambda a: (visits[a], root.children[a].reward))
    chosen = root.children[best]
    return SearchResult(best, done, visits, chosen.reward / chosen.visits)
