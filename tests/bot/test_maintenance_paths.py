"""The maintenance commands and the paths an owner types: ``backup backups/`` writes a time-stamped file into a
folder (created when missing), never a plain file named ``backups``; a command that reads an existing database
(``backup``, ``ratings --rebuild``, ``copy-db``'s source) refuses a path where there is none instead of creating
an empty database and reporting success. ``bot.__main__.main`` runs in this process."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main


def _database(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    return path


def test_backup_into_a_folder_that_does_not_exist_yet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_PATH", str(_database(tmp_path / "games.sqlite3")))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert main(["backup", "backups/", "--env-file", os.devnull]) == 0, capsys.readouterr().err
    made = sorted((tmp_path / "backups").iterdir())  # a folder, with one file a backup
    assert len(made) == 2 and all(p.name.startswith("games-") and p.suffix == ".sqlite3" for p in made), made
    assert str(made[-1].relative_to(tmp_path)) in capsys.readouterr().out
    assert main(["backup", "backups", "--env-file", os.devnull]) == 0  # an existing folder, named without /
    assert len(list((tmp_path / "backups").iterdir())) == 3
    assert main(["backup", "one.sqlite3", "--env-file", os.devnull]) == 0  # a file name stays a file
    assert sqlite3.connect(tmp_path / "one.sqlite3").execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]


def test_ratings_rebuild_refuses_a_missing_database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "gmaes.sqlite3"
    assert main(["ratings", "--rebuild", "--database", f"sqlite:///{missing}", "--env-file", os.devnull]) == 1
    captured = capsys.readouterr()
    assert f"there is no database at {missing}" in captured.err and "rated" not in captured.out, captured
    assert not missing.exists()


def test_copy_db_refuses_a_missing_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing, target = tmp_path / "gmaes.sqlite3", tmp_path / "copy.sqlite3"
    assert main(["copy-db", "--from", f"sqlite:///{missing}", "--to", f"sqlite:///{target}",
                 "--env-file", os.devnull]) == 1
    captured = capsys.readouterr()
    assert f"there is no database at {missing}" in captured.err and "verified" not in captured.out, captured
    assert not missing.exists() and not target.exists()
