"""The command line: random games print a record that replays; bad records get clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from players.__main__ import main as players_main
from rules import GameRecord, Ruleset, replay
from rules.__main__ import main, play_random, print_summary


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rules", *args], capture_output=True, text=True, timeout=120)


def test_random_then_replay(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    r = run("random", "--players", "3", "--edition", "1", "--seed", "11", "--out", str(out))
    assert r.returncode == 0, r.stderr
    rec = GameRecord.loads(out.read_text())
    assert rec.ruleset == Ruleset(edition=1, players=3) and rec.seed == 11
    r = run("replay", str(out), "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["finished"] and summary["winners"]
    _, st = play_random(Ruleset(edition=1, players=3), 11)
    assert [p["vp"] for p in summary["players"]] == st.vp


def test_random_prints_record_to_stdout(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["random", "--players", "2", "--edition", "2", "--seed", "5"]) == 0
    rec = GameRecord.loads(capsys.readouterr().out)
    assert replay(rec).finished


def test_replay_stops_at_first_illegal_action(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    rec, _ = play_random(Ruleset(players=2), 3)
    rec.actions[5] = "buy Czarina"
    path = tmp_path / "bad.json"
    path.write_text(rec.dumps())
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "action 6" in err and "Czarina" in err  # the 6th action, numbered from 1


def test_bad_files(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["replay", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    bad.write_text(json.dumps({"format": "petersburg-record/1", "ruleset": {"edition": 3}, "seats": [], "actions": []}))
    assert main(["replay", str(bad)]) == 2
    assert "bad ruleset" in capsys.readouterr().err
    bad.write_text(
        json.dumps(
            {
                "format": "petersburg-record/1",
                "ruleset": {"edition": 2, "players": 2},
                "seats": ["a", "b"],
                "seed": 1,
                "actions": ["fly away"],
            }
        )
    )
    assert main(["replay", str(bad)]) == 1
    assert "unknown action" in capsys.readouterr().err


def test_computer_players_record(capsys) -> None:  # type: ignore[no-untyped-def]
    assert players_main(["random", "--players", "4", "--seed", "2"]) == 0
    st = replay(GameRecord.loads(capsys.readouterr().out))
    assert st.finished and max(st.vp) > 30


def test_society_and_sp_plus_pick_the_first_edition(capsys) -> None:  # type: ignore[no-untyped-def]
    for option, players in (("--society", "5"), ("--sp-plus", "3")):
        assert main(["random", option, "--players", players, "--seed", "4"]) == 0
        rec = GameRecord.loads(capsys.readouterr().out)
        assert rec.ruleset.edition == 1 and rec.ruleset.players == int(players)
    assert main(["random", "--modules", "1", "--players", "2", "--seed", "4"]) == 0  # both editions: the 2nd
    assert GameRecord.loads(capsys.readouterr().out).ruleset.edition == 2


def test_refusals_in_plain_english(capsys) -> None:  # type: ignore[no-untyped-def]
    for args, words in (
        (["--modules", "3"], "error: Module 3 (the Assistants) needs the Market."),
        (["--players", "5"], "error: 5 players: the base game of the 2nd edition is for 2 to 4 players."),
        (["--sp-plus", "--edition", "2"], "error: SP+ (only the replacement cards of In bester Gesellschaft) is "
                                          "played with the 1st edition only, not the 2nd edition."),
        (["--modules", "abc"], "error: --modules takes module numbers separated by commas, e.g. 1,2 (not 'abc')"),
    ):
        with pytest.raises(SystemExit) as ended:
            main(["random", *args])
        assert ended.value.code == 2
        assert words in capsys.readouterr().err, args


def test_out_into_a_missing_folder_and_output_into_a_closed_pipe(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["random", "--players", "2", "--seed", "1", "--out", str(tmp_path / "no" / "game.json")]) == 2
    assert "error: cannot write" in capsys.readouterr().err
    for command in (["rules", "random", "--players", "2", "--seed", "1"],
                    ["players", "random", "--players", "2", "--seed", "1", "--level", "easy"]):
        proc = subprocess.Popen([sys.executable, "-m", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader has gone before the record is written (``| head`` that has read enough)
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=120) == 141 and err == "", (command, err)


def test_replay_says_1_ruble(capsys) -> None:  # type: ignore[no-untyped-def]
    _, st = play_random(Ruleset(players=2), 5)
    st.rubles[0], st.rubles[1] = 1, 11
    print_summary(st)
    out = capsys.readouterr().out
    assert " 1 ruble\n" in out and " 11 rubles\n" in out and "1 rubles" not in out.replace("11 rubles", "")
