"""The arena command and the choice of rules core: a tiny tournament runs and prints its table; the
seating rotates; the Wilson interval is right; the compiled core is used exactly when it is current."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from players.__main__ import main
from players.ai import decide
from players.arena import ArenaResult, GameSpec, lineup, play, play_game, report, wilson
from players.compile import ROOT, STAMP, sources_digest
from players.fastcore import CHILD_FLAG, compiled_build, rerun_compiled, running_compiled
from rules import GameRecord, Ruleset, apply, legal_moves, new_game, replay


def test_arena_prints_a_table(capsys) -> None:  # type: ignore[no-untyped-def]
    argv = ["arena", "--players", "3", "--games", "3", "--iterations", "3", "--pure", "normal", "easy", "random"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "rules core pure Python" in out
    assert "game 3/3" in out
    table = [line.split() for line in out.splitlines()]
    rows = {r[0]: r for r in table if r and r[0] in ("normal", "easy", "random")}
    assert set(rows) == {"normal", "easy", "random"}
    assert all(r[1] == "3" for r in rows.values())  # each level sat once in each of the 3 games


@pytest.mark.parametrize(
    ("options", "header"),
    [
        (["--players", "5", "--society", "--modules", "1"], "5 players, edition 1, In bester Gesellschaft, modules 1,"),
        (["--players", "2", "--market", "--modules", "6,3"], "2 players, edition 2, the Market, modules 3,6,"),
        (["--players", "2", "--sp-plus"], "2 players, edition 1, SP+,"),
    ],
)
def test_arena_plays_any_ruleset(capsys, options: list[str], header: str) -> None:  # type: ignore[no-untyped-def]
    """The parts are options, named in the header line; each game is of them."""
    assert main(["arena", "--games", "1", "--pure", *options, "normal", "random"]) == 0
    out = capsys.readouterr().out
    assert header in out.splitlines()[0], out
    assert "game 1/1 (edition" in out


def test_arena_names_why_a_ruleset_is_refused(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as ended:
        main(["arena", "--games", "1", "--pure", "--players", "5", "--modules", "2", "normal"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m players arena ")  # refused before anything is played
    assert "edition 1:" in err and "edition 2:" in err


def test_arena_counts_every_game_once_and_shares_ties() -> None:
    result = play(["strong", "normal"], players=4, games=2, seed=3, iterations=4)
    assert result.tallies["strong"].seats == 2 and result.tallies["normal"].seats == 6
    assert sum(t.wins for t in result.tallies.values()) == pytest.approx(2.0)


def test_arena_rejects_unknown_levels(capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit):
        main(["arena", "--pure", "grandmaster"])
    with pytest.raises(ValueError):
        play(["normal", "easy", "random"], players=2)


def test_lineup_rotates_and_fills() -> None:
    assert lineup(["strong", "normal"], 4, 0) == ["strong", "normal", "normal", "normal"]
    assert lineup(["strong", "normal"], 4, 1) == ["normal", "strong", "normal", "normal"]
    assert lineup(["a", "b", "c"], 3, 2) == ["b", "c", "a"]
    assert [lineup(["a", "b"], 2, g) for g in range(3)] == [["a", "b"], ["b", "a"], ["a", "b"]]


def test_wilson_interval() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(20, 20)
    assert hi == 1.0 and 0.83 < lo < 0.85


def test_random_with_a_level(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["random", "--players", "2", "--seed", "4", "--level", "easy"]) == 0
    st = replay(GameRecord.loads(capsys.readouterr().out))
    assert st.finished


def test_compiled_build_is_used_only_when_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not running_compiled()  # the tests run the pure core
    assert compiled_build(tmp_path) is None  # no build
    (tmp_path / STAMP).write_text("something older")
    assert compiled_build(tmp_path) is None  # a stale build
    (tmp_path / STAMP).write_text(sources_digest())
    assert compiled_build(tmp_path) == tmp_path
    monkeypatch.setenv(CHILD_FLAG, "1")
    assert rerun_compiled(["arena", "normal"]) is None  # a child never re-runs itself


def test_arena_runs_on_the_compiled_core_when_built(players_build: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != CHILD_FLAG}
    argv = ["arena", "--players", "2", "--games", "1", "--iterations", "2", "--quiet", "strong", "normal"]
    run = subprocess.run([sys.executable, "-m", "players", *argv], cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "rules core compiled (mypyc)" in run.stdout


SEARCH = r"""
import json, random
import players.search
from rules import Ruleset, apply, legal_moves, new_game
from players.ai import decide

out = {"compiled": not players.search.__file__.endswith(".py"), "decisions": []}
for players, market in ((2, False), (3, False), (4, False), (3, True), (5, True)):
    rng = random.Random(players)
    rs = Ruleset(edition=2 if market else 1 + players % 2, players=players, expansions=("market",) if market else ())
    st = new_game(rs, [str(i) for i in range(players)], seed=players)
    for step in range(140):
        if st.finished:
            break
        if step % 20 == 7:
            for level in ("strong", "mcts", "mcts-random", "easy", "normal"):
                d = decide(st, st.decider, level, rng=step, iterations=25)
                out["decisions"].append([level, list(d.action), d.iterations])
        apply(st, rng.choice(legal_moves(st)).action)
print(json.dumps(out))
"""


def test_compiled_players_decide_as_pure_python(players_build: Path) -> None:
    """The computer players compiled with the rules (players.compile.MODULES) choose exactly as in pure Python,
    also the mcts baseline and with the Market at 3 and 5 players."""
    results = []
    for path in (players_build, ROOT):
        env = {**os.environ, "PYTHONPATH": str(path)}
        run = subprocess.run([sys.executable, "-c", SEARCH], cwd=path, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr[-3000:]
        results.append(json.loads(run.stdout))
    compiled, pure = results
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert len(pure["decisions"]) >= 20
    assert compiled["decisions"] == pure["decisions"]


def think(*flags: str, requests: list[str]) -> list[dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if k != CHILD_FLAG}
    run = subprocess.run(
        [sys.executable, "-m", "players", "think", *flags],
        input="\n".join(requests) + "\n",
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return [json.loads(line) for line in run.stdout.splitlines()]


def test_think_answers_json_requests_like_decide() -> None:
    st = new_game(Ruleset(edition=2, players=3), ["a", "b", "c"], seed=8)
    rng = random.Random(8)
    for _ in range(30):
        apply(st, rng.choice(legal_moves(st)).action)
    while len(legal_moves(st)) < 3:
        apply(st, rng.choice(legal_moves(st)).action)
    request = {"state": st.to_json(), "level": "strong", "seed": 4, "iterations": 20}
    answers = think("--pure", requests=[json.dumps(request), "not json", json.dumps({"level": "normal"})])
    assert len(answers) == 3
    d = decide(st, None, "strong", 4, None, 20)
    assert answers[0]["action"] == list(d.action) and answers[0]["iterations"] == 20
    assert answers[0]["core"] == "pure Python"
    assert "error" in answers[1] and "error" in answers[2]


def test_think_runs_on_the_compiled_core_when_built(players_build: Path) -> None:
    st = new_game(Ruleset(players=2), ["a", "b"], seed=2)
    answers = think(requests=[json.dumps({"state": st.to_json(), "seed": 1, "iterations": 5})])
    assert answers[0]["core"] == "compiled (mypyc)"
    assert answers[0]["action"] == list(decide(st, None, "strong", 1, None, 5).action)


def test_arena_counts_the_cards_left_in_hand() -> None:
    """Each level's cards left in hand at the end (-5 VP each, BG-14) are counted and shown:
    the figure that showed strong hoarding cards."""
    spec = GameSpec(0, 11, 2, ["random", "easy", "random"], (), (), None, 1)
    _, _, tallies = play_game(spec)
    st = new_game(Ruleset(edition=2, players=3), ["random 1", "easy 2", "random 3"], spec.deal)
    rngs = [random.Random(f"11/0/{i}") for i in range(3)]
    while not st.finished:
        apply(st, decide(st, st.decider, spec.seating[st.decider], rngs[st.decider], iterations=1).action)
    assert tallies["random"].held == len(st.hands[0]) + len(st.hands[2]) > 0
    assert tallies["easy"].held == len(st.hands[1])
    result = ArenaResult(1, tallies)
    row = next(line.split() for line in report(result).splitlines() if line.startswith("random"))
    assert row[-3] == f"{tallies['random'].held / 2:.2f}"
