"""The command line: random games print a record that replays; bad records get clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from players.__main__ import main as players_main
from rules import GameRecord, Ruleset, replay
from rules.__main__ import main, play_random


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
    assert "action 5" in err and "Czarina" in err


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
