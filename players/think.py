"""The ``think`` subcommand of ``python -m players``: a computer player as a long-lived process.

Reads one JSON request per line on standard input and answers each with one JSON line::

    {"state": <GameState.to_json()>, "seat": 2, "level": "strong", "seed": 7, "budget_s": 2.0}
    -> {"action": ["buy", "lumberjack", 0, "", 0], "text": "buy Lumberjack", "iterations": 5120,
        "win_chance": 0.41, "core": "compiled (mypyc)"}

``seat`` (default: the deciding seat), ``level`` (default strong), ``seed``, ``budget_s`` and
``iterations`` are those of ``players.ai.decide``; a bad request gets ``{"error": "..."}``. Like the
arena it re-runs itself on the mypyc build when that is current (``--pure``: never), so a bot can
have the fastest core by starting this process instead of importing the players.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from rules.actions import format_action
from rules.cliargs import HelpFormatter
from rules.engine import new_game
from rules.ruleset import Ruleset
from rules.state import GameState

from .ai import decide
from .fastcore import core_name, rerun_compiled

DESCRIPTION = """A computer player as a long-lived process: reads one JSON request a line on standard input
and answers each with one JSON line on standard output, until the input ends.

A request: {"state": <a game's state: rules.GameState.to_json()>, "seat": 2, "level": "strong",
"seed": 7, "budget_s": 2.0} (only "state" is needed; "seat": the seat deciding; "level": easy, normal
or strong, default strong; "budget_s" seconds, default 2, or "iterations" instead).
An answer: {"action": [...], "text": "buy Lumberjack", "iterations": 5120, "win_chance": 0.41,
"core": "compiled (mypyc)"}; a bad request: {"error": "..."}.

--example prints a request for the start of a game; try:
  python -m players think --example | python -m players think"""


def add_think_parser(sub: Any) -> None:
    t = sub.add_parser("think", help="answer computer-player requests, one JSON line each, on stdin",
                       description=DESCRIPTION, formatter_class=HelpFormatter)
    t.add_argument("--pure", action="store_true", help="run the pure Python core even where a build is current")
    t.add_argument("--example", action="store_true",
                   help="print one request (the start of a 3-player game, 0.5 s) and end, reading nothing")


def example_request() -> dict[str, Any]:
    """A request ``answer`` takes: the start of a 3-player game of the 2nd edition, the strong player, 0.5 s."""
    st = new_game(Ruleset(edition=2, players=3), ["Anna", "Boris", "Chiye"], seed=1)
    return {"state": st.to_json(), "level": "strong", "seed": 1, "budget_s": 0.5}


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request (see the module docstring)."""
    if not isinstance(request, dict) or "state" not in request:
        raise ValueError('a request is a JSON object with the game\'s "state" (python -m players think --example)')
    st = GameState.from_json(request["state"])
    budget, iterations = request.get("budget_s"), request.get("iterations")
    if budget is not None and not (isinstance(budget, (int, float)) and math.isfinite(budget) and budget > 0):
        raise ValueError(f"budget_s is a number of seconds above 0, not {budget!r}")
    if iterations is not None and not (isinstance(iterations, int) and iterations > 0):
        raise ValueError(f"iterations is a whole number above 0, not {iterations!r}")
    d = decide(st, request.get("seat"), request.get("level", "strong"), request.get("seed"), budget, iterations)
    return {
        "action": list(d.action),
        "text": format_action(d.action, st.ruleset.catalogue, seats=st.seats),
        "iterations": d.iterations,
        "win_chance": d.win_chance,
        "core": core_name(),
    }


def run_think(args: argparse.Namespace, argv: list[str]) -> int:
    if args.example:
        print(json.dumps(example_request()))
        return 0
    if not args.pure:
        status = rerun_compiled(list(argv))
        if status is not None:
            return status
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            out = answer(json.loads(line))
        except (KeyError, ValueError, TypeError) as e:
            out = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(out), flush=True)
    return 0
