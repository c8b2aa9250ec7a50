"""Settings as owners write them: a ``.env`` with a byte order mark, quotes, inline comments, ``export`` and ``~``
in paths; and every setting that cannot work answered in one line naming it, with exit code 2, never a
traceback or a process that does not end: database URLs with a bad port or IPv6 address, with no file, in
memory; a token with a line break; digits that ``int`` refuses; an ``--env-file`` that names a folder or
nothing; an empty ``DISCORD_TOKEN`` in the environment hiding the file's token.

The commands run as processes (a minute at most: one that does not end fails the test), from a folder of their
own, with none of the developer's settings."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.config import Config
from bot.store.urls import redact, url_problem, without_password

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("DATABASE_URL", "DATABASE_PATH", "DISCORD_TOKEN", "LOG_LEVEL", "BACKUP_DIR", "DISCORD_REST_PROXY",
            "DISCORD_GATEWAY_URL", "SHARD_COUNT", "SHARD_IDS")
BOM = "\ufeff"


def cli(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot ARGS`` in ``cwd`` with ``env`` as its only settings."""
    full = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd,
                          env={**full, "PYTHONPATH": str(ROOT), **env}, capture_output=True, text=True, timeout=60)


def one_line_refusal(done: subprocess.CompletedProcess[str], *words: str, code: int = 2) -> None:
    """Exit ``code`` after one line on standard error, ``error: …`` with ``words`` in it."""
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    assert all(w in lines[0] for w in words), (words, lines[0])


def database(path: Path) -> Path:
    """A small SQLite database at ``path`` (what ``backup`` reads)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.execute("INSERT INTO t VALUES (42)")
    db.commit()
    db.close()
    return path


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    """A home folder (``~``) inside the test's folder."""
    h = tmp_path / "home"
    h.mkdir()
    yield h


def test_env_file_with_bom_quotes_comments_export_and_home(tmp_path: Path, home: Path) -> None:
    """A file saved by an editor that writes a byte order mark, a quoted value with a comment after it,
    ``export`` and a path under ``~``: the database named is the one backed up."""
    database(home / "pb.sqlite3")
    env_file = tmp_path / "settings.env"
    env_file.write_text(f'{BOM}DATABASE_PATH="~/pb.sqlite3" # the games\nexport LOG_LEVEL=warning\n',
                        encoding="utf-8")
    done = cli(tmp_path, "backup", "copy.sqlite3", "--env-file", str(env_file), HOME=str(home))
    assert done.returncode == 0, done.stderr
    assert sqlite3.connect(tmp_path / "copy.sqlite3").execute("SELECT x FROM t").fetchall() == [(42,)]
    assert not (tmp_path / "~").exists()  # no folder named ~


def test_home_in_database_url_and_backup_dir(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(home))
    c = Config.from_env({"DATABASE_URL": "sqlite:///~/games.sqlite3", "BACKUP_DIR": "~/backups"})
    assert c.database == f"sqlite:///{home}/games.sqlite3" and c.backup_dir == f"{home}/backups"
    assert Config.from_env({"DATABASE_PATH": "~/games.sqlite3"}).database == f"{home}/games.sqlite3"


BAD_URLS = {
    "postgresql://bot:secret@db.example:99999/petersburg": "port",
    "postgresql://bot:secret@[::1/petersburg": "IPv6",
    "postgresql://bot:secret@::1:5432/petersburg": "IPv6",
    "sqlite:///": "names no database file",
    "sqlite:///:memory:": "in-memory",
}
COMMANDS = {"bot": (), "backup": ("backup", "x.sqlite3"), "ratings": ("ratings", "--rebuild"),
            "copy-db": ("copy-db", "--to", "sqlite:///copy.sqlite3")}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_database_url_that_cannot_work_is_one_line(tmp_path: Path, command: str) -> None:
    """Each command, each URL: exit 2 and one line naming DATABASE_URL (the password not shown), never a
    traceback (the password-hiding helper raised ``ValueError: Port out of range``) and never a process
    left running (``sqlite:///`` left the database's connections open)."""
    for url, words in BAD_URLS.items():
        done = cli(tmp_path, *COMMANDS[command], "--env-file", os.devnull, DATABASE_URL=url, DISCORD_TOKEN="a.b.c",
                   DISCORD_REST_PROXY="http://127.0.0.1:9/api/v10")
        one_line_refusal(done, "DATABASE_URL", words)
        assert "secret" not in done.stderr, done.stderr
    assert not (tmp_path / "copy.sqlite3").exists() and not (tmp_path / "x.sqlite3").exists()


@pytest.mark.parametrize("args", [
    ("copy-db", "--to", ""), ("copy-db", "--to", "sqlite:///"), ("copy-db", "--to", "sqlite:///:memory:"),
    ("copy-db", "--to", "postgresql://bot:secret@db:99999/x"), ("ratings", "--rebuild", "--database", ""),
    ("ratings", "--rebuild", "--database", "postgresql://bot:secret@[::1/x")])
def test_a_database_option_that_cannot_work_is_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    """``copy-db --to ''`` raised a ValueError and then never ended (connections left open)."""
    source = tmp_path / "games.sqlite3"
    done = cli(tmp_path, "backup", "b.sqlite3", "--env-file", os.devnull, DATABASE_PATH=str(database(source)))
    assert done.returncode == 0, done.stderr
    done = cli(tmp_path, *args, "--env-file", os.devnull, DATABASE_PATH=str(source))
    one_line_refusal(done, "--to" if args[0] == "copy-db" else "--database")
    assert "secret" not in done.stderr


def test_a_failed_open_closes_the_connections(tmp_path: Path) -> None:
    """A SQLite database whose opening fails after its connections are open (an empty name) closes them: the
    process ends (their threads kept it running)."""
    code = ("import asyncio\nfrom bot.store.sqlite import SQLiteBackend\n"
            "try:\n    asyncio.run(SQLiteBackend.open(''))\nexcept Exception as e:\n    print(type(e).__name__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip(), (done.stdout, done.stderr)


def test_a_token_with_a_line_break_is_refused(tmp_path: Path) -> None:
    """Also a space or typographic quotes (pasted from a chat): the token alone is what Discord takes."""
    for written in ('DISCORD_TOKEN="abc.def\\nghi"\n', "DISCORD_TOKEN=abc.def ghi\n",
                    "DISCORD_TOKEN=\u201cabc.def\u201d\n"):
        env_file = tmp_path / ".env"
        env_file.write_text(written, encoding="utf-8")
        done = cli(tmp_path, "--env-file", str(env_file), DATABASE_PATH=str(tmp_path / "g.sqlite3"),
                   DISCORD_REST_PROXY="http://127.0.0.1:9/api/v10")
        one_line_refusal(done, "DISCORD_TOKEN")
    done = cli(tmp_path, "--env-file", os.devnull, DISCORD_TOKEN="abc.def\nghi", DATABASE_PATH=str(tmp_path / "g"),
               DISCORD_REST_PROXY="http://127.0.0.1:9/api/v10")
    one_line_refusal(done, "DISCORD_TOKEN", "line break")
    assert not (tmp_path / "g.sqlite3").exists() and not (tmp_path / "g").exists()  # refused before the database


@pytest.mark.parametrize("key,value", [
    ("DEV_GUILD_ID", "12²"), ("DATABASE_POOL_SIZE", "²"), ("REVIEW_ITERATIONS", "6⁴"), ("BACKUP_KEEP", "²"),
    ("SHARD_COUNT", "²"), ("REMINDER_MINUTES", "³"), ("LIVE_MINUTES", "¹"), ("TIMER_POLL_SECONDS", "٣٠"),
    ("COMPUTER_SECONDS", "nan"), ("BACKUP_EVERY_HOURS", "1_0"), ("HINT_SECONDS", "١")])
def test_digits_that_int_refuses_name_their_setting(key: str, value: str) -> None:
    """``"²".isdigit()`` is true but ``int("²")`` fails: the message was Python's ("invalid literal for int()")."""
    with pytest.raises(ValueError, match=key):
        Config.from_env({key: value})


def test_superscript_digits_in_shard_ids() -> None:
    with pytest.raises(ValueError, match="SHARD_IDS"):
        Config.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "1-²"})


def test_env_file_naming_a_folder_or_nothing(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / ".env").write_text("DISCORD_TOKEN=a.b.c\n", encoding="utf-8")
    one_line_refusal(cli(tmp_path, "--env-file", "conf"), "--env-file names the folder conf", "conf/.env")
    one_line_refusal(cli(tmp_path, "--env-file", ""), "--env-file is empty")
    one_line_refusal(cli(tmp_path, "backup", "b/", "--env-file", "conf"), "--env-file names the folder")
    one_line_refusal(cli(tmp_path, "copy-db", "--to", "sqlite:///c", "--env-file", ""), "--env-file is empty")
    (tmp_path / "conf" / ".env").unlink()
    (tmp_path / ".env").mkdir()
    one_line_refusal(cli(tmp_path), ".env is a folder")
    assert not (tmp_path / "data").exists()


def test_an_empty_token_in_the_environment_hiding_the_files_token(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=a.b.c\n", encoding="utf-8")
    done = cli(tmp_path, DISCORD_TOKEN="")
    one_line_refusal(done, "DISCORD_TOKEN is set but empty in the environment", "unset DISCORD_TOKEN")


def test_database_urls_in_messages_never_raise() -> None:
    """The password-hiding helper raised ``ValueError: Port out of range`` for such URLs."""
    for url in ("postgresql://bot:s3cret@db:99999/x", "postgresql://bot:s3cret@[::1/x", "postgresql://bot:s3cret@::1/x",
                "postgresql://bot@db/x?password=s3cret&sslmode=require", "postgresql://bot:s3:cr@t@db/x"):
        assert "s3cret" not in redact(url) and "cr@t" not in redact(url) and "bot" in redact(url), url
        assert "s3cret" not in without_password(url) and "***" not in without_password(url), url
    assert without_password("postgresql://bot:s3cret@db:5432/x?sslmode=require&password=s") == \
        "postgresql://bot@db:5432/x?sslmode=require"
    assert redact("sqlite:///data/x.sqlite3") == "sqlite:///data/x.sqlite3"
    assert url_problem("postgresql://bot@h1:5432,h2:5433/x") is None  # several hosts, as asyncpg takes them
    assert url_problem("postgresql://bot@[::1]:5432/x") is None
    assert url_problem("postgresql://bot@h:0/x") is not None and url_problem("postgresql://bot@h:5432x/x") is not None


def test_a_settings_file_that_is_not_utf8(tmp_path: Path) -> None:
    """Saved in Latin-1 by an old editor: one line naming the file (a UnicodeDecodeError traceback before)."""
    (tmp_path / "latin.env").write_bytes("# Schlüssel\nDISCORD_TOKEN=a.b.c\n".encode("latin-1"))
    one_line_refusal(cli(tmp_path, "--env-file", "latin.env"), "latin.env is not UTF-8 text")
    one_line_refusal(cli(tmp_path, "backup", "b/", "--env-file", "latin.env"), "latin.env is not UTF-8 text")


def test_a_maintenance_command_names_a_setting_the_environment_hides(tmp_path: Path) -> None:
    database(tmp_path / "games.sqlite3")
    (tmp_path / ".env").write_text("DATABASE_PATH=games.sqlite3\n", encoding="utf-8")
    done = cli(tmp_path, "backup", "b.sqlite3", DATABASE_PATH="")
    assert done.stderr.startswith("warning: DATABASE_PATH is set but empty in the environment"), done.stderr
    assert done.returncode == 1 and "no database at data/petersburg.sqlite3" in done.stderr, done.stderr
