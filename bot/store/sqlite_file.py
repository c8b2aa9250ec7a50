"""The SQLite database file: connecting, checking a file before use (cut short, damaged, read-only)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from pathlib import Path

import aiosqlite

from .rows import Unusable
from .sqlite_tx import SQLiteTx


async def connect(path: str | Path, conns: list[aiosqlite.Connection]) -> aiosqlite.Connection:
    """Connect; a connection that fails has ended its thread when this raises (issue 17, item 7: the thread
    would otherwise report its end to an event loop that ``python -m bot`` has closed by then, printing a
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


def identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, None when there is none."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return st.st_dev, st.st_ino


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
