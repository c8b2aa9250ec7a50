"""The SQLite database file: connecting, checking a file before use (cut short, damaged, read-only), noticing
that the file or its write-ahead log was deleted or replaced under the running bot, writing the open database
back to its path (SQLite's online backup API), and backups (``backup_file``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import threading
import time
from pathlib import Path

import aiosqlite

from .rows import Unusable
from .sqlite_tx import SQLiteTx


async def connect(path: str | Path, conns: list[aiosqlite.Connection]) -> aiosqlite.Connection:
    """Connect; a connection that fails has ended its thread when this raises (the thread would
    otherwise report its end to an event loop that ``python -m bot`` has closed by then, printing a
    traceback after the refusal)."""
    # check_same_thread=False: a file's statements run on the event loop's thread (``SQLiteBackend``), under
    # the backend's lock, never while a call of the connection's own thread is under way
    conn = aiosqlite.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        await conn
    except BaseException:
        thread = getattr(conn, "_thread", None)
        if isinstance(thread, threading.Thread) and thread.is_alive():
            await asyncio.to_thread(thread.join, 5)
        raise
    conns.append(conn)
    return conn


def identity(path: str | Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, None when there is none."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return st.st_dev, st.st_ino


def wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def changed(path: str, file: tuple[int, int] | None, wal_path: str = "", wal: tuple[int, int] | None = None
            ) -> str | None:
    """How ``path`` no longer names the open database (``file``: the identity of the file the connections
    opened; ``wal``: of its write-ahead log at ``wal_path``, when given); None while it does, or when the
    folder cannot be looked into (nothing says the file changed then). The connections hold both files open,
    so neither identity can be reused by another file meanwhile. A ``stat`` call for each file (strings, not
    ``Path``: this runs at every commit)."""
    try:
        now = identity(path)
        if now != file:
            return "deleted" if now is None else "replaced by another file"
        if wal is not None and identity(wal_path) != wal:
            return "left without its write-ahead log (the -wal file was deleted or replaced)"
    except OSError:
        return None
    return None


def writable_path(path: Path) -> None:
    """Raise ``OSError`` unless the open database can be written back to ``path``: its folder exists (it is
    created again) and the path names a file or nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if os.path.lexists(path) and (path.is_symlink() or not path.is_file()):
        raise OSError(f"{path} is not a file")


def backup_into(db: sqlite3.Connection, target: Path) -> None:
    """SQLite's online backup of ``db`` (consistent as of one moment, also while it is written) into a new file
    ``target``, synced to the disk. Runs in ``db``'s thread; ``target`` and its leftovers are replaced."""
    for leftover in (target, wal_of(target), target.with_name(target.name + "-shm"),
                     target.with_name(target.name + "-journal")):
        leftover.unlink(missing_ok=True)
    dst = sqlite3.connect(str(target))
    try:
        db.backup(dst)
    finally:
        dst.close()
    fd = os.open(target, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def put_in_place(copy: Path, path: Path) -> Path | None:
    """Move ``copy`` to ``path`` once every connection to the old file is closed; a file found at ``path`` (a
    database moved over the open one) is kept beside it as ``<name>.replaced-<time>``, returned. What the old
    connections left of their write-ahead log is removed first: SQLite would apply it to the new file."""
    aside = None
    if os.path.lexists(path):
        aside = path.with_name(f"{path.name}.replaced-{time.strftime('%Y%m%d-%H%M%S')}")
        os.replace(path, aside)
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    os.replace(copy, path)
    sync_folder(path.parent)
    return aside


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable."""
    with contextlib.suppress(OSError):  # not every file system syncs a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def check_size(path: str | Path) -> None:
    """A database file cut short: its header promises more pages than the file holds (SQLite itself would
    read the missing pages as empty, and ``quick_check`` would not notice)."""
    p = Path(path)
    if not p.is_file() or p.stat().st_size == 0:
        return
    size = p.stat().st_size
    try:
        with p.open("rb") as f:
            header = f.read(100)
    except OSError as e:
        raise Unusable(f"the database {path} cannot be used: {e.strerror or e}") from None
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        return  # not a database at all: SQLite says so itself
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]  # the page count is trustworthy (SQLite >= 3.7.0 wrote it)
    if size % page_size or (valid and pages * page_size > size):
        raise Unusable(f"the database {path} is truncated ({size} bytes, its header says {pages} pages of "
                       f"{page_size}); restore a backup or move the file away to start with an empty one")


async def check_database(conn: aiosqlite.Connection, path: str | Path) -> None:
    """The database answers, passes ``PRAGMA quick_check`` and takes a write lock (so it is not read-only)."""
    tx = SQLiteTx(conn)
    rows = [str(r[0]) for r in await tx.fetch("PRAGMA quick_check")]
    if rows != ["ok"]:
        raise Unusable(f"the database {path} is damaged (PRAGMA quick_check: {'; '.join(rows[:3])}); restore a "
                       "backup or move the file away to start with an empty one")
    try:
        await tx.execute("BEGIN IMMEDIATE")
        await tx.execute("CREATE TABLE IF NOT EXISTS _write_probe (x INTEGER)")
        await tx.execute("ROLLBACK")
    except sqlite3.OperationalError as e:
        raise Unusable(f"the database {path} cannot be written ({e}); check the permissions of the file and "
                       "its folder") from None


def backup_file(source: Path, target: Path) -> None:
    """A consistent copy of the database at ``source`` (also while the bot writes to it, from this or another
    process: SQLite's online backup API reads one snapshot) at ``target``: written beside it, checked
    (``PRAGMA quick_check``), synced, then renamed into place, so ``target`` is never a partial copy."""
    if not source.is_file():
        raise OSError(f"no database at {source}")
    partial = target.with_name(target.name + ".partial")
    src = sqlite3.connect(source.resolve().as_uri() + "?mode=ro", uri=True, timeout=30.0)
    try:
        backup_into(src, partial)
    finally:
        src.close()
    check = sqlite3.connect(partial)
    try:
        rows = [str(r[0]) for r in check.execute("PRAGMA quick_check")]
        check.execute("PRAGMA journal_mode=DELETE")  # one self-contained file: no -wal needed beside it
    finally:
        check.close()
    if rows != ["ok"]:
        partial.unlink(missing_ok=True)
        raise sqlite3.DatabaseError(f"the copy does not pass PRAGMA quick_check: {'; '.join(rows[:3])}")
    os.replace(partial, target)
    sync_folder(target.parent)
