"""A database that cannot be used stops ``python -m bot`` with a clear message and a
non-zero exit, never a hang (the bot would otherwise report ready and answer every action with an error).

The bot runs as a real process (no Discord is reached: the database is opened before logging in). Where the
tests run as root, file permissions do not stop a process, so the unreadable and read-only cases run the
bot without the capabilities that override them (``setpriv``), as an ordinary user would.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
SETPRIV = shutil.which("setpriv")


def _run_bot(db: Path, *, bound: bool = False) -> subprocess.CompletedProcess[str]:
    """``python -m bot`` on ``db`` (a minute at most: a hang fails the test). ``bound``: file permissions apply
    even to root (the capabilities that override them are dropped)."""
    env = {**os.environ, "DISCORD_TOKEN": "x" * 40, "DATABASE_PATH": str(db), "LOG_LEVEL": "WARNING"}
    cmd = [sys.executable, "-m", "bot", "--env-file", os.devnull]
    if bound and os.geteuid() == 0:
        if SETPRIV is None:
            pytest.skip("running as root without setpriv: file permissions cannot be made to apply")
        cmd = [SETPRIV, "--bounding-set=-dac_override,-dac_read_search,-fowner", *cmd]
    return subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    d = tmp_path / "db"
    d.mkdir()
    yield d
    d.chmod(0o755)
    for p in d.iterdir():
        p.chmod(0o644)


def _valid_db(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x INTEGER)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    conn.close()


def _expect_refusal(result: subprocess.CompletedProcess[str], words: str) -> None:
    assert result.returncode == 3, (result.returncode, result.stderr[-2000:])
    assert "error:" in result.stderr and words in result.stderr, result.stderr[-2000:]
    assert "Traceback" not in result.stderr, result.stderr[-2000:]


def test_garbage_file_stops_the_bot(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(b"this is not a database, just some text " * 200)
    _expect_refusal(_run_bot(db), "cannot be used")


def test_truncated_database_stops_the_bot(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    _valid_db(db)
    data = db.read_bytes()
    db.write_bytes(data[:len(data) // 2])  # the header intact, the last page missing
    _expect_refusal(_run_bot(db), "truncated")


def test_unreadable_file_stops_the_bot(folder: Path) -> None:
    db = folder / "games.sqlite3"
    _valid_db(db)
    db.chmod(0o000)
    _expect_refusal(_run_bot(db, bound=True), "cannot be used")


def test_read_only_file_stops_the_bot(folder: Path) -> None:
    db = folder / "games.sqlite3"
    _valid_db(db)
    db.chmod(0o444)
    _expect_refusal(_run_bot(db, bound=True), str(db))


def test_read_only_folder_stops_the_bot(folder: Path) -> None:
    """A database in a folder the bot may not write: WAL needs its side files, writes would fail."""
    db = folder / "games.sqlite3"
    _valid_db(db)
    folder.chmod(0o555)
    _expect_refusal(_run_bot(db, bound=True), str(db))


async def test_store_opens_a_healthy_database(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "fine.sqlite3")
    assert await store.schema_version() >= 3
    await store.close()


def test_new_database_in_read_only_folder_prints_only_the_refusal(folder: Path) -> None:
    """A new database in a folder the bot may not write: the one-line refusal and nothing
    after it (the failed connection's thread used to report to the closed event loop: "RuntimeError: Event
    loop is closed" in 8 of 20 runs). Several runs, as the old failure depended on timing."""
    folder.chmod(0o555)
    for _ in range(8):
        result = _run_bot(folder / "new.sqlite3", bound=True)
        _expect_refusal(result, str(folder / "new.sqlite3"))
        assert "Exception" not in result.stderr and "Event loop is closed" not in result.stderr, result.stderr
        assert result.stderr.strip().count("\n") == 0, result.stderr  # LOG_LEVEL=WARNING: the refusal only
