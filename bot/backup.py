"""Backups of the SQLite database while the bot runs: ``python -m bot backup PATH`` and the periodic backup
(``BACKUP_DIR``, ``BACKUP_EVERY_HOURS``, ``BACKUP_KEEP``).

A backup is SQLite's online backup of the database file (consistent as of one moment, also while the bot
plays), checked and renamed into place, one self-contained file. Restoring is copying it back: stop the bot,
copy the backup to ``DATABASE_PATH`` (without the old ``-wal``/``-shm`` files beside it), start the bot.
PostgreSQL is backed up with ``pg_dump`` (the command says how).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import re
import shlex
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .config import database_setting
from .envfile import command_args
from .store import parse_database
from .store.sqlite_file import backup_file, wal_of
from .store.urls import has_password, redact, without_password

log = logging.getLogger(__name__)

SUFFIX = ".sqlite3"
PG_DUMP = """{shown} is a PostgreSQL database: back it up with PostgreSQL's own tool, also while the bot runs:

    pg_dump --format=custom --file=petersburg.dump {url}
{password}
and restore it into an empty database (its URL in place of NEW_DATABASE_URL) with:

    pg_restore --clean --if-exists --no-owner --dbname=NEW_DATABASE_URL petersburg.dump"""
PASSWORD = """
pg_dump asks for the password of DATABASE_URL, or reads it from PGPASSWORD (read -rs PGPASSWORD; export
PGPASSWORD) or from a ~/.pgpass line (host:port:database:user:password).
"""


def pg_dump_help(url: str) -> str:
    """How to back the PostgreSQL database at ``url`` up: a ``pg_dump`` command to paste (the URL without its
    password, which comes from a prompt, PGPASSWORD or ~/.pgpass)."""
    return PG_DUMP.format(shown=redact(url), url=shlex.quote(without_password(url)),
                          password=PASSWORD if has_password(url) else "")


def is_backup(path: Path) -> bool:
    """Whether ``path`` is a file this command (or the periodic backup) writes: a SQLite database of the bot
    (its ``schema_version`` table) in one self-contained file (rollback journal: a live database runs in WAL
    mode)."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError:
        return False
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0") or header[18:20] != b"\x01\x01":
        return False
    try:
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        try:
            return bool(db.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_version'").fetchall())
        finally:
            db.close()
    except sqlite3.Error:
        return False


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def target_problem(source: Path, target: Path, *, folder: bool, force: bool) -> str | None:
    """Why the backup of ``source`` must not be written to ``target`` (``folder``: a folder that gets a new
    time-stamped file), or None: never onto the database itself or its side files, nor (without ``force``)
    over an existing file that is not a backup."""
    if folder or target.is_dir():
        return None
    side = [source, wal_of(source), source.with_name(source.name + "-shm"),
            source.with_name(source.name + "-journal")]
    if any(_same_file(target, p) for p in side):
        return (f"{target} is the database itself (or one of its files): a backup goes to another file or a "
                "folder, e.g. backups/")
    if target.exists() and not force and not is_backup(target):
        return (f"{target} exists and is not a backup of the bot's database; name a new file or a folder (e.g. "
                "backups/), or pass --force to replace it")
    return None


def stamped(folder: Path, stem: str, now: float | None = None) -> Path:
    """``<folder>/<stem>-YYYYmmdd-HHMMSS.sqlite3`` (UTC; ``.2``, ``.3``... before the suffix when that name is
    taken already)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
    target = folder / f"{stem}-{stamp}{SUFFIX}"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{stem}-{stamp}.{n}{SUFFIX}"
    return target


def backup_to(source: Path, target: Path, *, folder: bool = False) -> Path:
    """Back ``source`` up to ``target``; the file written. A folder (``folder``, or ``target`` is one) gets a
    time-stamped file, and is created when missing."""
    if not source.is_file():
        raise OSError(f"no database at {source}")
    if folder or target.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        target = stamped(target, source.stem)
    target.parent.mkdir(parents=True, exist_ok=True)
    backup_file(source, target)
    return target


def rotate(folder: Path, stem: str, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` time-stamped backups of ``stem`` in ``folder``; the ones deleted."""
    pattern = re.compile(rf"^{re.escape(stem)}-(\d{{8}}-\d{{6}})(?:\.(\d+))?{re.escape(SUFFIX)}$")
    mine: list[tuple[str, int, Path]] = []
    for p in folder.iterdir():
        m = pattern.match(p.name)
        if m and p.is_file():
            mine.append((m.group(1), int(m.group(2) or 1), p))
    mine.sort()
    old = [p for _, _, p in mine[:-keep]] if keep > 0 else []
    for p in old:
        p.unlink(missing_ok=True)
    return old


async def periodic(source: Path, folder: Path, hours: float, keep: int) -> None:
    """Every ``hours``, back ``source`` up into ``folder`` and keep the newest ``keep`` (until cancelled). The
    first one is made one interval after the start. A failed backup is logged and tried at the next interval."""
    while True:
        await asyncio.sleep(hours * 3600)
        await periodic_once(source, folder, keep)


async def periodic_once(source: Path, folder: Path, keep: int) -> Path | None:
    """One periodic backup (in a thread: the event loop goes on), then the rotation; None when it failed."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target = await asyncio.to_thread(backup_to, source, folder)
        await asyncio.to_thread(rotate, folder, source.stem, keep)
    except (OSError, sqlite3.Error) as e:
        log.error("periodic backup of %s into %s failed: %s", source, folder, e)
        return None
    log.info("backed up the database to %s", target)
    return target


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot backup",
                                     description="Back up the bot's SQLite database, also while the bot runs.")
    parser.add_argument("path", help="the backup file to write, or a folder (an existing one, or a path ending in "
                                     "/; created when missing) that gets a time-stamped file")
    parser.add_argument("--force", action="store_true",
                        help="replace an existing file that is not a backup of the bot's database")
    args = command_args(parser, argv)
    if args is None:
        return 2
    if not args.path.strip():
        print("error: name the backup file or a folder, e.g. backups/", file=sys.stderr)
        return 2
    try:
        dialect, where = parse_database(database_setting())
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if dialect == "postgresql":
        print(pg_dump_help(where), file=sys.stderr)
        return 2
    source, target = Path(where), Path(args.path).expanduser()
    folder = args.path.endswith(("/", os.sep))
    problem = target_problem(source, target, folder=folder, force=args.force)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    try:
        written = backup_to(source, target, folder=folder)
    except (OSError, sqlite3.Error) as e:
        print(f"error: the backup of {where} failed: {e}", file=sys.stderr)
        return 1
    print(f"backed up {where} to {written} ({written.stat().st_size} bytes, checked)")
    return 0
