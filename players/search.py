"""Monte Carlo tree search over determinizations (single-observer information-set MCTS).

Each iteration re-deals what the searching seat cannot see (``hidden.determinize``), walks one
tree of action sequences shared by all determinizations (a child is only eligible where its action is
legal in this deal; UCB counts how often it was eligible, as in ISMCTS), adds one node, plays on with
a playout policy, and backs up each seat's reward; every node scores the reward of the seat that made
its move. All moves come from ``legal_moves``; nothing here knows a card.

The strong player (``STRONG``) models the other seats: inside the tree their moves are the heuristic
policy's (a few random), so the tree holds only its own decisions, keyed by its own actions, and every
iteration deepens them (at two to five players this beats the max-n tree, in which most
nodes are other seats' moves and starved of visits). It expands its moves in the heuristic's order
with progressive widening, plays heuristic playouts and cuts them short with the position estimate,
and under a time budget stops once its answer cannot change. ``strong-maxn`` keeps a node for every
seat's move (max-n); ``mcts-random`` is the plain search: uniform expansion, random playouts to the
end.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rules import advance, legal_moves
from rules.actions import Action, Move
from rules.lots import randbelow
from rules.state import GameState

from .collector import PausedCollector
from .eval import Outlook, estimated_rewards
from .hidden import determinize


@dataclass(frozen=True, slots=True)
class SearchConfig:
    guided: bool = True  # heuristic order for expansion, progressive widening, heuristic playouts
    playout_depth: int = 24  # playout moves before the position estimate (-1: play to the end)
    # tables of full_min to full_max players play their playouts to the end instead. Measured in the
    # arena: at four players the estimate explains too little of who wins (its error, 7-9 VP
    # mid-game, is near the spread of the seats' final VP, 11) and full playouts beat the plain search
    # though they cost half the iterations; at five with the Market they did worse, at two the estimate
    # is good beside the spread (16) and the target was met with it
    full_min: int = 3
    full_max: int = 4
    epsilon: float = 0.15  # heuristic playouts: chance of a uniformly random move
    explore: float = 0.7  # UCB exploration constant (rewards are win shares in [0, 1])
    widen: float = 1.5  # progressive widening: children allowed = 1 + widen * sqrt(visits)
    spread: float = 6.0  # VP scale of the softmax turning estimated final VP into win chances
    # more than two players: share of the reward given by the lead over the best other seat
    # (eval.margin_rewards), the rest by the win chance (two players: ``duel_margin``)
    margin: float = 0.5
    # two players: the same for the lead over the other seat (0: the win chance alone). Measured in the
    # arena: the win chance alone barely tells moves apart once a game looks won or lost
    duel_margin: float = 0.5
    # more than two players: progressive bias, a child's UCB value gets bias * w / (visits + 1), w = 1 for
    # the heuristic's best move and exp(-d / temperature) for one valued d VP lower (two players: none)
    bias: float = 0.5
    temperature: float = 2.5
    # the other seats' moves inside the tree are those of the heuristic policy (with ``others_epsilon``
    # random moves) instead of nodes of their own, so every node is the searching seat's own decision (a
    # single-agent tree over a modelled table; off: max-n)
    model_others: bool = True
    others_epsilon: float = 0.1
    # > 0: the others' moves are drawn from a softmax of the heuristic's move values with this temperature
    # (VP) instead (``others_epsilon`` unused). 1 VP fits the plain search's moves at four players best (the
    # likelihood of its moves -0.88 a decision, greedy with 10 % random -1.09), yet strong modelling them so
    # played worse against it (a sharper model of the others searches better)
    others_temperature: float = 0.0
    # with a time budget: stop once no other root move can catch up with the most visited one in the
    # time left (the answer cannot change; obvious moves cost less time). Iteration budgets run in full.
    stop_early: bool = True
    # a caller that names the game (``decide``'s ``tree_key``) starts the seat's next decision from the
    # subtree under the move it played (``trees``)
    reuse: bool = True


STRONG = SearchConfig()
RANDOM_PLAYOUTS = SearchConfig(guided=False, playout_depth=-1, margin=0.0, bias=0.0, model_others=False, reuse=False)


class Node:
    __slots__ = ("mover", "visits", "reward", "avail", "children", "moves", "ranked", "weights", "bias")

    def __init__(self, mover: int, bias: float = 0.0) -> None:
        self.mover = mover  # the seat whose move led here
        self.bias = bias  # the progressive bias (SearchConfig.bias)
        self.visits = 0
        self.reward = 0.0
        self.avail = 0
        self.children: dict[Action, Node] = {}
        # The legal moves last seen here and their heuristic order, kept while a deal gives the same moves.
        # In the max-n tree the order depends only on the moves and on public facts the node's action
        # sequence fixes; with the others modelled their moves vary between iterations, so the order kept
        # is that of one of them (it only orders the widening and the progressive bias).
        self.moves: list[Move] | None = None
        self.ranked: list[Move] = []
        self.weights: list[float] = []  # per ranked move: exp(-(best value - its value) / temperature)


@dataclass(slots=True)
class SearchResult:
    action: Action
    iterations: int
    visits: dict[Action, int]
    win_chance: float | None = None  # the chosen move's mean reward for the seat (None: forced move)
    root: Node | None = None  # the search tree (a forced move: the tree given, if any)


def _ranked(st: GameState, moves: list[Move], temperature: float) -> tuple[list[Move], list[float]]:
    """Moves best first by the heuristic (ties keep legal_moves' order), with their weights."""
    out = Outlook(st)
    scored = sorted(((-out.score(m), i) for i, m in enumerate(moves)))
    top = -scored[0][0]
    return [moves[i] for _, i in scored], [math.exp((-s - top) / temperature) for s, _ in scored]


def heuristic_move(st: GameState, moves: list[Move], rng: random.Random, epsilon: float) -> Action:
    if len(moves) == 1:
        return moves[0].action
    if rng.random() < epsilon:
        return moves[randbelow(rng, len(moves))].action
    return greedy_move(st, moves)


def greedy_move(st: GameState, moves: list[Move]) -> Action:
    """The move of the highest heuristic value (the first of them)."""
    if len(moves) == 1:
        return moves[0].action
    out = Outlook(st)
    best = moves[0]
    best_score = out.score(best)
    for i in range(1, len(moves)):
        m = moves[i]
        s = out.score(m)
        if s > best_score:
            best, best_score = m, s
    return best.action


def sampled_move(st: GameState, moves: list[Move], rng: random.Random, temperature: float) -> Action:
    """A move drawn with probability proportional to exp(its heuristic value / ``temperature``) (the
    ``easy`` level; the others' model with ``others_temperature``)."""
    out = Outlook(st)
    scores = [out.score(m) for m in moves]
    top = max(scores)
    return rng.choices(moves, [math.exp((s - top) / temperature) for s in scores])[0].action


def _playout(st: GameState, cfg: SearchConfig, rng: random.Random) -> list[float]:
    steps = 0
    depth = -1 if cfg.full_min <= st.n <= cfg.full_max else cfg.playout_depth
    while not st.finished and steps != depth:
        moves = legal_moves(st)
        action = heuristic_move(st, moves, rng, cfg.epsilon) if cfg.guided else moves[randbelow(rng, len(moves))].action
        advance(st, action)
        steps += 1
    return estimated_rewards(st, cfg.spread, cfg.margin if st.n > 2 else cfg.duel_margin)


def _select(node: Node, st: GameState, cfg: SearchConfig, rng: random.Random) -> tuple[Action, float]:
    """The action to follow from ``node`` in this deal, and -1 if it has a child, else the new child's
    progressive bias."""
    moves = legal_moves(st)
    children = node.children
    if cfg.guided:
        if len(moves) == 1:
            ranked, weights = moves, [1.0]
        elif moves == node.moves:
            ranked, weights = node.ranked, node.weights
        else:
            ranked, weights = node.ranked, node.weights = _ranked(st, moves, cfg.temperature)
            node.moves = list(moves)
        allowed = 1 + int(cfg.widen * math.sqrt(node.visits))
        eligible: list[Node] = []
        actions: list[Action] = []
        bias = cfg.bias if st.n > 2 else 0.0
        for m, w in zip(ranked, weights, strict=True):
            child = children.get(m.action)
            if child is None:
                if len(eligible) < allowed:
                    return m.action, bias * w
                continue
            eligible.append(child)
            actions.append(m.action)
            if len(eligible) >= allowed:
                break
    else:
        untried = [m.action for m in moves if m.action not in children]
        if untried:
            return untried[randbelow(rng, len(untried))], 0.0
        actions = [m.action for m in moves]
        eligible = [children[a] for a in actions]
    best_i = 0
    best_v = -1.0
    c = cfg.explore
    for i, child in enumerate(eligible):
        child.avail += 1
        v = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
        v += child.bias / (child.visits + 1)
        if v > best_v:
            best_i, best_v = i, v
    return actions[best_i], -1.0


def _settled(root: Node, remaining: float, legal: set[Action] | None = None) -> bool:
    """No root move can overtake the most visited one in ``remaining`` more iterations. ``legal``: the
    moves legal here (a kept tree may hold children of moves no longer legal, ``trees``; None: all)."""
    first = second = 0
    for action, child in root.children.items():
        if legal is not None and action not in legal:
            continue
        v = child.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > remaining


def search(
    st: GameState,
    seat: int,
    rng: random.Random,
    cfg: SearchConfig = STRONG,
    iterations: int | None = None,
    budget_s: float | None = None,
    tree: Node | None = None,
) -> SearchResult:
    """Search from ``st`` for ``seat`` (the deciding seat) until ``iterations`` or ``budget_s`` seconds
    (wall clock) run out; the most visited move is the answer. ``tree``: a tree of this decision to go on
    with (kept from the seat's previous decision, ``trees``); its visits count with the new ones. The cyclic
    garbage collector is paused meanwhile (``PausedCollector``)."""
    with PausedCollector():
        return _search(st, seat, rng, cfg, iterations, budget_s, tree)


def _search(
    st: GameState,
    seat: int,
    rng: random.Random,
    cfg: SearchConfig,
    iterations: int | None,
    budget_s: float | None,
    tree: Node | None,
) -> SearchResult:
    if iterations is None and budget_s is None:
        raise ValueError("give iterations or budget_s")
    if iterations is not None and iterations < 1:
        raise ValueError("iterations must be at least 1")
    root = Node(-1) if tree is None else tree
    moves = legal_moves(st)
    if len(moves) == 1:
        return SearchResult(moves[0].action, 0, {}, None, tree)
    legal = {m.action for m in moves}
    start = time.perf_counter()
    deadline = None if budget_s is None else start + budget_s
    done = 0
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and done > 0:
            now = time.perf_counter()
            if now >= deadline:
                break
            if cfg.stop_early and done % 16 == 0 and _settled(root, done * (deadline - now) / (now - start), legal):
                break
        d = determinize(st, seat, rng)
        node = root
        path = [root]
        while not d.finished:
            mover = d.decider
            if cfg.model_others and mover != seat:
                others = legal_moves(d)
                if cfg.others_temperature > 0.0:
                    advance(d, sampled_move(d, others, rng, cfg.others_temperature))
                else:
                    advance(d, heuristic_move(d, others, rng, cfg.others_epsilon))
                continue
            action, bias = _select(node, d, cfg, rng)
            advance(d, action)
            if bias >= 0.0:
                child = node.children[action] = Node(mover, bias)
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
    visits = {a: n.visits for a, n in root.children.items() if a in legal}
    best = max(visits, key=lambda a: (visits[a], root.children[a].reward))
    chosen = root.children[best]
    return SearchResult(best, done, visits, chosen.reward / chosen.visits, root)
