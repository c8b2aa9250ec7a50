"""The command lines refuse values that would hang or mean nothing, in one line under the subcommand's usage;
every default is in the help; a random game without --seed says which seed it played; the think command
says what it reads and prints an example of it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from players.__main__ import main as players_main
from players.think import answer
from rules import GameRecord, Ruleset
from rules.__main__ import main as rules_main
from rules.__main__ import play_random


def refused(main: object, argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as ended:
        main(argv)  # type: ignore[operator]
    assert ended.value.code == 2, argv
    return capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["random", "--level", "strong", "--budget", "nan"],
        ["random", "--level", "strong", "--budget", "inf"],
        ["random", "--level", "strong", "--budget", "-1"],
        ["random", "--level", "strong", "--budget", "0"],
        ["arena", "easy", "--budget", "nan"],
        ["arena", "easy", "--budget", "-0.5"],
        ["arena", "easy", "--games", "0"],
        ["arena", "easy", "--games", "-3"],
        ["arena", "easy", "--jobs", "0"],
        ["arena", "easy", "--jobs", "-1"],
        ["arena", "easy", "--iterations", "0"],
    ],
    ids=" ".join,
)
def test_values_that_hang_or_mean_nothing_are_refused_in_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(players_main, argv, capsys)
    option = next(a for a in argv if a.startswith("--") and a != "--level")
    usage, line = err.strip().splitlines()[0], err.strip().splitlines()[-1]
    assert usage.startswith(f"usage: python -m players {argv[0]} "), err
    assert line.startswith(f"python -m players {argv[0]}: error: argument {option}"), err
    assert "above 0" in line, err


def test_errors_name_the_subcommands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(rules_main, ["random", "--modules", "3"], capsys)
    assert err.startswith("usage: python -m rules random "), err
    err = refused(players_main, ["random", "--players", "5"], capsys)
    assert err.startswith("usage: python -m players random "), err
    err = refused(players_main, ["arena", "easy", "--players", "5"], capsys)  # 5 players need a part
    assert err.startswith("usage: python -m players arena "), err
    assert "5 players" in err.splitlines()[-1]


def test_every_default_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    for main, argv, defaults in (
        (rules_main, ["random"], ["(default: 4)", "(default: a new one, printed)"]),
        (players_main, ["random"], ["(default: 4)", "(default: normal)", "(default: 2)"]),
        (players_main, ["arena"], ["(default: 40)", "(default: 0.2)", "(default: 1)", "(default: 0)"]),
    ):
        with pytest.raises(SystemExit):
            main([*argv, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        for default in defaults:
            assert default in text, (argv, default)


def test_a_random_game_without_seed_picks_one_and_says_it(capsys: pytest.CaptureFixture[str]) -> None:
    seeds = []
    for _ in range(3):
        assert rules_main(["random", "--players", "2"]) == 0
        out, err = capsys.readouterr()
        rec = GameRecord.loads(out)
        assert err == f"seed {rec.seed} (--seed {rec.seed} plays this game again)\n"
        seeds.append(rec.seed)
    assert len(set(seeds)) > 1  # not always the same game
    assert rules_main(["random", "--players", "2", "--seed", "9"]) == 0
    out, err = capsys.readouterr()
    assert GameRecord.loads(out).seed == 9 and err == ""


def test_replay_names_the_file_and_the_actions_number_from_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec, _ = play_random(Ruleset(players=2), 3)
    rec.actions[0] = "buy Czarina"  # the first action
    path = tmp_path / "bad.json"
    path.write_text(rec.dumps())
    assert rules_main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: action 1 ('buy Czarina') is illegal"), err


def test_think_says_what_it_reads_and_prints_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        players_main(["think", "--help"])
    text = capsys.readouterr().out
    assert "standard input" in text and '"state"' in text and "--example" in text
    assert players_main(["think", "--example"]) == 0
    request = json.loads(capsys.readouterr().out)
    request.pop("budget_s")
    request["iterations"] = 8
    out = answer(request)
    assert out["text"] and "error" not in out
    for bad in ({"budget_s": float("nan")}, {"budget_s": -1}, {"iterations": 0}):
        with pytest.raises(ValueError):
            answer({**request, "iterations": None, **bad})


def test_think_answers_the_example_through_a_pipe() -> None:
    example = subprocess.run([sys.executable, "-m", "players", "think", "--example"], capture_output=True,
                             text=True, timeout=60, check=True).stdout
    request = {**json.loads(example), "iterations": 8}
    done = subprocess.run([sys.executable, "-m", "players", "think", "--pure"], input=json.dumps(request) + "\n",
                          capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout)["text"]


@pytest.mark.parametrize("request_", [{}, [1], {"seat": 0}])
def test_think_names_what_a_request_lacks(request_: Any) -> None:
    """A request without the game's state is answered with what a request is, not a bare ``KeyError: 'state'``."""
    with pytest.raises(ValueError, match='"state"'):
        answer(request_)
