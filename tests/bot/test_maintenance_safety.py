"""Maintenance commands never destroy what is not theirs: ``backup`` refuses to write over a file that is not one
of its backups (``backup README.md`` replaced the README with a database) and over the live database, unless
``--force`` for the former; ``copy-db`` knows one database however its path is written; its source follows
``DATABASE_URL`` as ``backup`` and ``ratings`` do; output into a closed pipe (``| head``) ends quietly; the
``pg_dump`` command ``backup`` prints for PostgreSQL can be pasted as it is.

``bot.__main__.main`` runs in this process, except where the process itself is what is looked at."""

from __future__ import annotations

import asyncio
import os
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
DEVNULL = ("--env-file", os.devnull)


def _database(path: Path, value: int = 42) -> Path:
    """A database as the bot keeps it (WAL mode, its ``schema_version`` table) holding ``value``."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL)")
    db.execute("CREATE TABLE t (x)")
    db.execute("INSERT INTO t VALUES (?)", (value,))
    db.commit()
    db.close()
    return path


def _value(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT x FROM t").fetchone()[0])
    finally:
        db.close()


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bot's database, ``DATABASE_PATH`` relative to the folder the commands run in."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    (tmp_path / "data").mkdir()
    monkeypatch.setenv("DATABASE_PATH", "data/petersburg.sqlite3")
    return _database(tmp_path / "data" / "petersburg.sqlite3")


def test_backup_never_writes_over_a_file_that_is_not_a_backup(live: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in (("README.md", "# Saint Petersburg\n"), ("important.txt", "do not lose this\n")):
        (tmp_path / name).write_text(text)
        assert main(["backup", name, *DEVNULL]) == 2
        err = capsys.readouterr().err
        assert "is not a backup" in err and "--force" in err and err.count("\n") == 1, err
        assert (tmp_path / name).read_text() == text
    assert main(["backup", "important.txt", "--force", *DEVNULL]) == 0, capsys.readouterr().err
    assert _value(tmp_path / "important.txt") == 42


def test_backup_replaces_its_own_backup(live: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backup", "nightly.sqlite3", *DEVNULL]) == 0, capsys.readouterr().err
    _database(live.with_name("other.sqlite3"), 7)
    live.unlink()
    live.with_name("other.sqlite3").rename(live)
    assert main(["backup", "nightly.sqlite3", *DEVNULL]) == 0, capsys.readouterr().err  # a backup: replaced
    assert _value(tmp_path / "nightly.sqlite3") == 7


@pytest.mark.parametrize("spelling", ["data/petersburg.sqlite3", "{tmp}/data/petersburg.sqlite3",
                                      "data/../data/petersburg.sqlite3", "link.sqlite3",
                                      "data/petersburg.sqlite3-wal"])
def test_backup_never_writes_over_the_live_database(live: Path, tmp_path: Path, spelling: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Not even with ``--force``: a database backed up onto itself is no backup (it "succeeded" before)."""
    (tmp_path / "link.sqlite3").symlink_to(live)
    live.with_name(live.name + "-wal").write_bytes(b"")
    before = live.read_bytes()
    for force in ([], ["--force"]):
        assert main(["backup", spelling.format(tmp=tmp_path), *force, *DEVNULL]) == 2
        err = capsys.readouterr().err
        assert "is the database itself" in err, err
    assert live.read_bytes() == before


def test_backup_to_an_empty_name_is_refused(live: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backup", "", *DEVNULL]) == 2
    assert "name the backup file" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # nothing written into the current folder


def _bot_database(path: Path) -> None:
    """A new database of the bot at ``path``."""
    from bot.store import Store

    async def create() -> None:
        await (await Store.open(path)).close()

    asyncio.run(create())


@pytest.mark.parametrize("target", ["sqlite:///{rel}", "sqlite:///./{rel}", "sqlite:///{abs}", "{abs}"])
def test_copy_db_knows_the_same_database_by_its_path(live: Path, tmp_path: Path, target: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``--from X --to sqlite:///X`` said "the target is not empty ... pass --force", and with ``--force``
    copied the database onto itself."""
    source = tmp_path / "games.sqlite3"
    _bot_database(source)
    to = target.format(rel="games.sqlite3", abs=source)
    for force in ([], ["--force"]):
        assert main(["copy-db", "--from", "games.sqlite3", "--to", to, *force, *DEVNULL]) == 2
        err = capsys.readouterr().err
        assert "the source and the target are the same database" in err, err


def test_copy_db_source_follows_database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    _bot_database(tmp_path / "games.sqlite3")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'games.sqlite3'}")
    assert main(["copy-db", "--to", "sqlite:///copy.sqlite3", *DEVNULL]) == 0, capsys.readouterr().err
    assert f"copied sqlite:///{tmp_path / 'games.sqlite3'} to sqlite:///copy.sqlite3" in capsys.readouterr().out
    assert not (tmp_path / "data").exists()  # DATABASE_PATH's default was not looked at


def _into_a_closed_pipe(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS | head -0``: standard output a pipe whose reader has gone before anything is written."""
    read, write = os.pipe()
    os.close(read)
    try:
        full = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
        return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, stdout=write, stderr=subprocess.PIPE,
                              env={**full, "PYTHONPATH": str(ROOT), **env}, text=True, timeout=60)
    finally:
        os.close(write)


def test_output_into_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    _bot_database(tmp_path / "games.sqlite3")
    for args in (["--help"], ["copy-db", "--to", "sqlite:///copy.sqlite3", *DEVNULL],
                 ["backup", "backups/", *DEVNULL], ["ratings", "--rebuild", *DEVNULL]):
        done = _into_a_closed_pipe(tmp_path, *args, DATABASE_PATH="games.sqlite3")
        assert done.stderr == "", (args, done.stderr[-2000:])
    assert (tmp_path / "copy.sqlite3").exists() and len(list((tmp_path / "backups").iterdir())) == 1


def test_the_pg_dump_command_can_be_pasted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:s3cret@db.example:5432/petersburg?sslmode=require")
    assert main(["backup", str(tmp_path / "x"), *DEVNULL]) == 2
    err = capsys.readouterr().err
    [command] = [line.strip() for line in err.splitlines() if line.strip().startswith("pg_dump --")]
    assert shlex.split(command) == ["pg_dump", "--format=custom", "--file=petersburg.dump",
                                    "postgresql://bot@db.example:5432/petersburg?sslmode=require"], command
    assert "***" not in command and "s3cret" not in err and "PGPASSWORD" in err and ".pgpass" in err, err
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot@db.example/petersburg")  # no password: nothing to say
    assert main(["backup", str(tmp_path / "x"), *DEVNULL]) == 2
    assert "PGPASSWORD" not in capsys.readouterr().err
