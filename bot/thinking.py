"""What a thinking worker process runs (``bot.workers.WorkerPool``): the computer players of ``players.ai``.

Inputs are plain data (the state's JSON, a seat, a level, a seed, a time budget) and so is the answer (an
``Action``, a named tuple). The players use only what their seat may see: ``players.ai`` samples everything
hidden from that seat anew before it searches (``players.hidden``; ``tests/rules/test_ai_info.py``).
A worker runs the mypyc-compiled rules core and players when that build is current with the sources
(``players/compile.py``), else pure Python: both play the same games (``tests/rules/test_compiled.py``).
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Any

from .workers import WorkerPool

if TYPE_CHECKING:  # imported inside the functions: ``init_worker`` must run before ``rules`` is imported
    from rules import Action


def init_worker() -> None:
    """Put the compiled rules core and players first on the import path when they are built and current
    (before anything imports ``rules`` in this worker; ``players.compile`` imports nothing of it)."""
    if "rules.state" in sys.modules:
        return
    from players.compile import compiled_build

    path = compiled_build()
    if path is not None:
        sys.path.insert(0, str(path))
        for name in [m for m in sys.modules if m.split(".", 1)[0] == "players"]:
            del sys.modules[name]  # the build's own copies are imported from now on


THINK = WorkerPool("think", lambda: 1, init_worker)  # one core thinks; the other draws and serves


def core() -> str:
    """Which rules core this worker runs."""
    from players.fastcore import core_name

    return core_name()


def think(
    state: dict[str, Any], seat: int, level: str, seed: int, budget_s: float, game_id: int | None = None
) -> Action:
    """The computer player's move for ``seat`` (the deciding seat) at ``level``. With ``game_id`` the strong
    search goes on from its tree of the seat's previous decision in that game when this worker kept it
    (``players.trees``: one thinking worker, so it usually has; else it starts a new tree)."""
    from players.ai import choose
    from rules import Action

    action = choose(state, seat, level, seed, budget_s=budget_s, tree_key=game_id)
    return Action(*action)


def suggest(state: dict[str, Any], seat: int, seed: int, budget_s: float) -> tuple[Action, float, int]:
    """The strong player's move for ``seat`` with how sure it is: the move, the share of the search's visits
    it got, and how many continuations were searched (for ``/petersburg hint``)."""
    from players.ai import SEARCHES
    from players.search import search
    from rules import Action, GameState

    found = search(GameState.from_json(state), seat, random.Random(seed), SEARCHES["strong"], budget_s=budget_s)
    total = sum(found.visits.values()) or 1
    return Action(*found.action), found.visits.get(found.action, 0) / total, found.iterations
