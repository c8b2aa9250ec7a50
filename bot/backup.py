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
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from .config import DEFAULT_DATABASE, command_args
from .store import parse_database
from .store.postgres import redact
from .store.sqlite_file import backup_file

log = logging.getLogger(__name__)

SUFFIX = ".sqlite3"
PG_DUMP = """{url} is a PostgreSQL database: back it up with PostgreSQL's own tool, also while the bot runs:

    pg_dump --format=custom --file=petersburg.dump '{url}'

and restore it into an empty database with:

    pg_restore --clean --if-exists --no-owner --dbname='postgresql://…' petersburg.dump"""


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
    args = command_args(parser, argv)
    if args is None:
        return 2
    database = (os.environ.get("DATABASE_URL", "").strip() or os.environ.get("DATABASE_PATH", "").strip()
                or DEFAULT_DATABASE)
    dialect, where = parse_database(database)
    if dialect == "postgresql":
        print(PG_DUMP.format(url=redact(where)), file=sys.stderr)
        return 2
    try:
        written = backup_to(Path(where), Path(args.path), folder=args.path.endswith(("/", os.sep)))
    except (OSError, sqlite3.Error) as e:
        print(f"error: the backup of {where} failed: {e}", file=sys.stderr)
        return 1
    print(f"backed up {where} to {written} ({written.stat().st_size} bytes, checked)")
    return 0
