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
import sys
from typing import Any

from rules.actions import format_action
from rules.state import GameState

from .ai import decide
from .fastcore import core_name, rerun_compiled


def add_think_parser(sub: Any) -> None:
    t = sub.add_parser("think", help="answer computer-player requests, one JSON line each, on stdin")
    t.add_argument("--pure", action="store_true", help="run the pure Python core even where a build is current")


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The answer to one request (see the module docstring)."""
    st = GameState.from_json(request["state"])
    d = decide(
        st,
        request.get("seat"),
        request.get("level", "strong"),
        request.get("seed"),
        request.get("budget_s"),
        request.get("iterations"),
    )
    return {
        "action": list(d.action),
        "text": format_action(d.action, st.ruleset.catalogue),
        "iterations": d.iterations,
        "win_chance": d.win_chance,
        "core": core_name(),
    }


def run_think(args: argparse.Namespace, argv: list[str]) -> int:
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
