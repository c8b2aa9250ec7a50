"""Computer players behind one call: ``choose(state, seat, level, rng, budget_s)``.

Levels (docs/ai.md has the design and the measurements):

- ``random``: a uniformly random legal move (for the arena only).
- ``easy``: plausible but loose: a softmax over the heuristic's move values with a high temperature.
- ``normal``: the greedy heuristic (``eval.Outlook.score``), ties broken by the generator.
- ``strong``: information-set Monte Carlo tree search over the seat's determinizations, heuristic
  guided (``search``), within ``budget_s`` seconds (default 2) or a fixed number of iterations.
- ``mcts``: the plain Monte Carlo tree search baseline (``mcts``): PUCT with the heuristic as prior,
  heuristic playouts to the end.
- ``mcts-random``: the strong player's search with random expansion and random playouts to the end.
- ``strong-leaf``, ``strong-full``, ``strong-wide``, ``strong-win``, ``strong-nobias``, ``strong-bias2``,
  ``strong-deep``, ``strong-cut``: variants of strong measured in the arena (estimate at the new node,
  heuristic playouts to the end at every table size, no progressive widening, at more than two players
  the win chance alone as reward and no progressive bias, no progressive bias, a bias of 2 instead of
  0.5, playouts of 48 moves at every table size, playouts of 24 moves at every table size (strong plays
  three and four players' playouts to the end).

Every input may be plain data, so a worker process can take it: ``state`` is a GameState or its
``to_json()`` dict, ``rng`` a seed. The players only use what ``seat`` may see (``hidden``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import replace
from typing import Any, NamedTuple, TypedDict, Unpack

from rules import legal_moves
from rules.actions import Action
from rules.state import GameState

from . import mcts
from .eval import Outlook
from .search import RANDOM_PLAYOUTS, STRONG, SearchConfig, sampled_move, search
from .trees import TREES

# The search levels; the variants after "mcts-random" are experiments for the arena (docs/ai.md).
SEARCHES = {
    "strong": STRONG,
    "mcts-random": RANDOM_PLAYOUTS,
    "strong-leaf": replace(STRONG, playout_depth=0, full_max=0),
    "strong-full": replace(STRONG, playout_depth=-1),
    "strong-wide": replace(STRONG, widen=100.0),
    "strong-win": replace(STRONG, margin=0.0, duel_margin=0.0, bias=0.0),
    "strong-nobias": replace(STRONG, bias=0.0),
    "strong-bias2": replace(STRONG, bias=2.0),
    "strong-deep": replace(STRONG, playout_depth=48, full_max=0),
    "strong-cut": replace(STRONG, full_max=0),
    "strong-maxn": replace(STRONG, model_others=False),
}
LEVELS = ("random", "easy", "normal", *SEARCHES, "mcts")
TRUE = ("1", "true", "yes", "on")


def search_config(level: str) -> SearchConfig | None:
    """The search configuration of a level of ``SEARCHES``, None for the levels that do not search. For
    measuring in the arena a level may change fields of its configuration: ``strong:playout_depth=12`` or
    ``strong:model_others=false,explore=0.5`` (ValueError for an unknown level or field)."""
    name, _, options = level.partition(":")
    if name not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)} (a search level may add :field=value,...)")
    cfg = SEARCHES.get(name)
    if not options:
        return cfg
    if cfg is None:
        raise ValueError(f"the level {name} does not search: it takes no options")
    changes: dict[str, Any] = {}
    for option in options.split(","):
        key, _, text = option.partition("=")
        if key not in SearchConfig.__dataclass_fields__:
            raise ValueError(f"{key!r} is not a field of SearchConfig")
        kind = type(getattr(cfg, key))
        try:
            changes[key] = text.lower() in TRUE if kind is bool else kind(text)
        except ValueError:
            raise ValueError(f"{key}={text!r}: not a {kind.__name__}") from None
    return replace(cfg, **changes)


DEFAULT_BUDGET_S = 2.0
EASY_TEMPERATURE = 2.5  # VP: moves within a few VP of the best are about as likely


class Decision(NamedTuple):
    action: Action
    iterations: int  # search iterations spent (0 for the levels that do not search)
    # the search's estimate of the seat's chance to win after this move (None: no search was made),
    # e.g. for a hint's one-line reason
    win_chance: float | None = None


class Limits(TypedDict, total=False):
    """How long the search levels search and on which tree (``decide``'s keywords after ``rng``)."""

    budget_s: float | None
    iterations: int | None
    tree_key: Hashable | None


def choose(state: GameState | dict[str, Any], seat: int | None = None, level: str = "normal",
           rng: random.Random | int | None = None, **limits: Unpack[Limits]) -> Action:
    """The computer player's action for ``seat`` (default: the deciding seat); see ``decide``."""
    return decide(state, seat, level, rng, **limits).action


def decide(
    state: GameState | dict[str, Any],
    seat: int | None = None,
    level: str = "normal",
    rng: random.Random | int | None = None,
    budget_s: float | None = None,
    iterations: int | None = None,
    tree_key: Hashable | None = None,
) -> Decision:
    """The computer player's decision for ``seat`` (default: the deciding seat), which must be deciding.

    ``budget_s`` (wall clock, default 2 s) or ``iterations`` (exact, for reproducible tests) bound the
    search levels; the others answer at once. ``rng`` (a generator or a seed; default: the state's
    action count) makes every choice reproducible. ``tree_key`` names the game: the strong search then
    goes on from the tree of the seat's previous decision in it (``trees``; None: a new tree each time).
    """
    st = state if isinstance(state, GameState) else GameState.from_json(state)
    cfg = search_config(level)
    if st.finished:
        raise ValueError("the game is over")
    if seat is None:
        seat = st.decider
    elif seat != st.decider:
        raise ValueError(f"seat {seat} is not the one to decide (seat {st.decider} is)")
    if not isinstance(rng, random.Random):
        rng = random.Random(st.action_count if rng is None else rng)
    moves = legal_moves(st)
    if level == "random":
        return Decision(moves[rng.randrange(len(moves))].action, 0)
    if level == "easy":
        return Decision(sampled_move(st, moves, rng, EASY_TEMPERATURE), 0)
    if level == "normal":
        out = Outlook(st)
        best = max((out.score(m), rng.random(), i) for i, m in enumerate(moves))
        return Decision(moves[best[2]].action, 0)
    if iterations is None and budget_s is None:
        budget_s = DEFAULT_BUDGET_S
    if level == "mcts":
        found = mcts.search(st, seat, rng, iterations=iterations, budget_s=budget_s)
    else:
        assert cfg is not None
        reuse = tree_key is not None and cfg.reuse and cfg.model_others
        tree = TREES.take(tree_key, seat, st.action_count) if reuse else None
        found = search(st, seat, rng, cfg, iterations=iterations, budget_s=budget_s, tree=tree)
        if reuse:
            TREES.keep(tree_key, seat, st.action_count, found.root, found.action)
    return Decision(found.action, found.iterations, found.win_chance)
