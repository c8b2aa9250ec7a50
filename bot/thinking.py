"""What a thinking worker process runs (``bot.workers.WorkerPool``): the computer players of ``rules.ai``.

Inputs are plain data (the state's JSON, a seat, a level, a seed, a time budget) and so is the answer (an
``Action``, a named tuple). The players use only what their seat may see: ``rules.ai`` samples everything
hidden from that seat anew before it searches (``rules.ai_hidden``; ``tests/rules/test_ai_info.py``).
A worker runs the mypyc-compiled rules core when it is built and current with the sources
(``benchmarks/compile_rules.py``), else pure Python: both play the same games (``tests/rules/test_compiled.py``).
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Any

from .workers import WorkerPool

if TYPE_CHECKING:  # imported inside the functions: ``init_worker`` must run before ``rules`` is imported
    from rules import Action


def init_worker() -> None:
    """Put the compiled rules core first on the import path when it is built and current (before anything
    imports ``rules`` in this worker)."""
    if "rules.state" in sys.modules:
        return
    try:
        from benchmarks.compile_rules import DEFAULT_DEST, STAMP, sources_digest
    except ImportError:  # not run from a checkout: pure Python
        return
    try:
        if (DEFAULT_DEST / STAMP).read_text() == sources_digest():
            sys.path.insert(0, str(DEFAULT_DEST))
    except (OSError, ImportError):
        return


THINK = WorkerPool("think", lambda: 1, init_worker)  # one core thinks; the other draws and serves


def core() -> str:
    """Which rules core this worker runs."""
    from rules.fastcore import core_name

    return core_name()


def think(state: dict[str, Any], seat: int, level: str, seed: int, budget_s: float) -> Action:
    """The computer player's move for ``seat`` (the deciding seat) at ``level``."""
    from rules import Action
    from rules.ai import choose

    action = choose(state, seat, level, seed, budget_s=budget_s)
    return Action(*action)


def suggest(state: dict[str, Any], seat: int, seed: int, budget_s: float) -> tuple[Action, float, int]:
    """The strong player's move for ``seat`` with how sure it is: the move, the share of the search's visits
    it got, and how many continuations were searched (for ``/petersburg hint``)."""
    from rules import Action, GameState
    from rules.ai import SEARCHES
    from rules.ai_search import search

    found = search(GameState.from_json(state), seat, random.Random(seed), SEARCHES["strong"], budget_s=budget_s)
    total = sum(found.visits.values()) or 1
    return Action(*found.action), found.visits.get(found.action, 0) / total, found.iterations
