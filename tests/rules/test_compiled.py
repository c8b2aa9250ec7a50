"""The rules core compiled with mypyc (rules/compile.py, used for speed) plays exactly the
games pure Python plays: same legal moves, prices, events, errors and final scores (and ``advance`` the
same games as ``apply``), in base games
and games with the Market, In bester Gesellschaft, Module 2, the Banquet and Modules 3 to 6 (where
the compiled core calls the expansions' hooks). The compiled players (``players.compile.MODULES``)
search and judge exactly as the pure ones: the same visits and values on seeded positions.

Runs on the computer players' build (``players/compile.py``, ``build/mypyc``: the rules core's modules of
``rules.compile.MODULES`` compiled with the players' search), the one compiled build the suite makes;
skipped only where a compiled build cannot be made (no mypyc, C compiler or Python headers), with the
reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from rules.compile import MODULES, ROOT

PLAY = r"""
import json, random, sys
import rules.engine
from rules import Action, Ruleset, RuleError, advance, apply, legal_moves, new_game

out = {"compiled": rules.engine.__file__.endswith(".so"), "games": []}
configs = [(ed, n, (), ()) for ed in (1, 2) for n in (2, 3, 4)] + [(2, n, ("market",), ()) for n in (2, 5)]
configs += [(1, 5, ("new_society",), ()), (1, 3, ("new_society_replacements_only",), ()), (2, 3, (), (2,)),
            (2, 5, ("market",), (2,))]  # In bester Gesellschaft, SP+, Module 2
configs += [(1, 3, (), (1,)), (2, 2, (), (1,)), (2, 4, ("market",), (1,)),  # the Banquet: hand plays, hooks
            (1, 4, ("new_society",), (1,)), (2, 3, ("market",), (1, 2))]  # BQ-28, BQ-23: no Debtor's Prison
configs += [(2, n, ("market",), (3, 5)) for n in (2, 5)]  # the assistants' discounts, the final choices
configs += [(2, n, ("market",), (4, 6)) for n in (2, 5)]  # events before the action, VP filters
for edition, players, expansions, modules in configs:
        for seed in range(6):
            rs = Ruleset(edition=edition, players=players, expansions=expansions, modules=modules)
            st = new_game(rs, [f"P{i}" for i in range(players)], seed=seed)
            rng = random.Random(seed * 31 + players)
            trace = []
            quiet = new_game(rs, [f"P{i}" for i in range(players)], seed=seed)  # the same game with advance
            while not st.finished:
                moves = legal_moves(st)
                trace.append([[list(m.action), m.price] for m in moves])
                if rng.random() < 0.1:  # something illegal: the error code, and nothing changes
                    before = st.to_json()
                    try:
                        apply(st, Action("buy", "no_such_card", 0))
                    except RuleError as e:
                        trace.append(e.code)
                    assert st.to_json() == before
                action = rng.choice(moves).action
                trace.append(apply(st, action))
                advance(quiet, action)
            assert quiet.to_json() == st.to_json()
            out["games"].append({"trace": trace, "final": st.to_json()})
print(json.dumps(out))
"""


SEARCH = r"""
import json, random, sys
import players.search
from players.ai import SEARCHES
from players.judge import judge
from players.search import search
from rules import Ruleset, apply, legal_moves, new_game

out = {"compiled": players.search.__file__.endswith(".so"), "results": []}
rulesets = [Ruleset(edition=2, players=3), Ruleset(edition=2, players=5, expansions=("market",)),
            Ruleset(edition=2, players=4, expansions=("market",), modules=(1, 2, 3, 4, 5, 6))]
for k, rs in enumerate(rulesets):
    st = new_game(rs, [f"P{i}" for i in range(rs.players)], seed=k)
    rng = random.Random(k)
    for _ in range(25 + 10 * k):
        apply(st, rng.choice(legal_moves(st)).action)
    while len(legal_moves(st)) < 2:
        apply(st, legal_moves(st)[0].action)
    for level in ("strong", "mcts-random"):
        r = search(st, st.decider, random.Random(k), SEARCHES[level], iterations=40)
        out["results"].append([list(r.action), sorted((list(a), v) for a, v in r.visits.items()), r.win_chance])
    j = judge(st, legal_moves(st)[-1].action, iterations=8, seed=k, index=st.action_count)
    out["results"].append([list(j.preferred), j.error, j.lead, j.simulations,
                           sorted((list(a), v) for a, v in j.values.items())])
print(json.dumps(out))
"""


def play(path: Path, script: str = PLAY) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    run = subprocess.run([sys.executable, "-c", script], cwd=path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    result: dict[str, object] = json.loads(run.stdout)
    return result


def test_compiled_core_plays_the_same_games(players_build: Path) -> None:
    dest = players_build
    uncompiled = [m for m in MODULES if not list((dest / m).parent.glob(Path(m).stem + ".*.so"))]
    assert not uncompiled, f"not compiled in {dest}: {uncompiled}"
    compiled = play(dest)
    pure = play(ROOT)
    assert compiled["compiled"] is True, "the compiled modules were not the ones imported"
    assert pure["compiled"] is False
    assert compiled["games"] == pure["games"]


def test_compiled_players_search_and_judge_as_the_pure_ones(players_build: Path) -> None:
    """The same visits, win chances and review values (floats as Python computes them: a compiled module that
    took a float sum for an int would fail or differ here)."""
    compiled = play(players_build, SEARCH)
    pure = play(ROOT, SEARCH)
    assert compiled["compiled"] is True, "the compiled players were not the ones imported"
    assert pure["compiled"] is False
    assert compiled["results"] == pure["results"]
