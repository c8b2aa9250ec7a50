"""The SQLite backend (aiosqlite, WAL): one write connection, one read connection, one process.

The file must stay the one that was opened (issue 17, item 3): deleted or replaced under the running bot, the
open connections would go on writing into the unlinked file, lost at the next start. Every write transaction
checks the path's device and inode against the opened file's, before it begins and before it commits; once
they differ, no write is committed any more (``DatabaseLost``, logged once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .backend import Row
from .rows import DatabaseLost, IntegrityError, Unusable

log = logging.getLogger(__name__)

READERS = 3  # read connections (each with its thread): reads of many games at once need not queue long

T = TypeVar("T")


class SQLiteTx:
    """A transaction on an aiosqlite connection (``Tx``). Each statement is one trip to the connection's
    thread (execute, read the rows or the count, close the cursor there): aiosqlite's cursor API takes two or
    three, and under load every trip waits for a turn of the event loop (issue 17, item 11)."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        # ``Connection._execute`` runs ``fn`` on the connection's thread (aiosqlite is pinned in pyproject.toml)
        try:
            return await self.conn._execute(fn, self.conn._conn, *args)
        except sqlite3.IntegrityError as e:
            raise IntegrityError(str(e)) from None

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self._run(_execute, sql, params)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._run(_executemany, sql, rows)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._run(_fetch, sql, params)

    async def lock(self, key: int) -> None:
        """Nothing to do: BEGIN IMMEDIATE already made this transaction the only writer."""


class SQLiteBackend:
    """Writes go through one connection (an asyncio lock serializes its transactions); reads through
    ``READERS`` others, so that in WAL mode they never queue behind a write nor, many games at once, long
    behind each other (``:memory:`` shares one). Write transactions queued at the same time are committed
    together, with one wait for the disk (``transaction``); bookkeeping statements (``write``) go through one
    more connection with ``synchronous=NORMAL``, outside that queue (issue 17, item 11)."""

    dialect = "sqlite"
    shared = False

    def __init__(self, conn: aiosqlite.Connection, readers: Sequence[aiosqlite.Connection] = (),
                 path: str | Path | None = None, relaxed: aiosqlite.Connection | None = None) -> None:
        self.conn = conn
        self._relaxed = relaxed or conn
        self._lock = asyncio.Lock()
        self._group: asyncio.Future[None] | None = None  # the open group of write transactions (``transaction``)
        self._readers = list(readers)
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for r in self._readers:
            self._idle.put_nowait(r)
        self.path = None if path is None or str(path) == ":memory:" else Path(path)
        self._file = _identity(self.path) if self.path is not None else None
        self.lost: str | None = None  # why the file is no longer the one opened

    def check_file(self) -> None:
        """Raise ``DatabaseLost`` when the database path no longer names the file that was opened."""
        if self.lost is None and self.path is not None and self._file is not None:
            try:
                now = _identity(self.path)
            except OSError:  # the folder cannot be looked into now: nothing says the file changed
                return
            if now != self._file:
                self.lost = (f"the database file {self.path} was "
                             f"{'deleted' if now is None else 'replaced by another file'} while the bot ran")
                log.error("%s: no more moves are taken (nothing written now would be kept); stop the bot, "
                          "put the database back and start it again", self.lost)
        if self.lost is not None:
            raise DatabaseLost(self.lost)

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> SQLiteBackend:
        """Open (creating folders and file) and check the database at ``path``; ``Unusable`` when it cannot
        be opened or written, is not a database, or fails ``PRAGMA quick_check``."""
        memory = str(path) == ":memory:"
        if not memory:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise Unusable(f"cannot create the folder of the database {path}: {e.strerror or e}") from None
            _check_size(path)
        conns: list[aiosqlite.Connection] = []
        try:
            conn = await _connect(path, conns)
            for pragma in ("journal_mode=WAL", f"synchronous={synchronous}", "foreign_keys=ON", "busy_timeout=5000"):
                await SQLiteTx(conn).execute(f"PRAGMA {pragma}")
            await _check(conn, path)
            readers = [] if memory else [await _connect(path, conns) for _ in range(READERS)]
            for reader in readers:
                await SQLiteTx(reader).execute("PRAGMA busy_timeout=5000")
                await SQLiteTx(reader).execute("PRAGMA query_only=ON")
            relaxed = None
            if not memory and synchronous.upper() in ("FULL", "EXTRA"):
                relaxed = await _connect(path, conns)
                for pragma in ("synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=30000"):
                    await SQLiteTx(relaxed).execute(f"PRAGMA {pragma}")
            return cls(conn, readers, None if memory else path, relaxed)
        except (sqlite3.Error, OSError) as e:
            for c in conns:
                await c.close()
            raise Unusable(f"the database {path} cannot be used: {e}") from None
        except BaseException:
            for c in conns:
                await c.close()  # an open connection's thread would keep the process alive
            raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SQLiteTx]:
        """One write transaction, committed together with the others queued at the same time (group commit,
        issue 17, item 11): each runs alone in a savepoint of the group's transaction (rolled back alone when it
        raises), and the block ends only once the group's COMMIT, one wait for the disk for all of them, has
        succeeded (when it fails, every transaction of the group raises: none was kept)."""
        self.check_file()
        async with self._lock:
            tx = await self._join()
            group = self._group
            assert group is not None
            await tx.execute("SAVEPOINT tx")
            try:
                yield tx
            except BaseException:
                await tx.execute("ROLLBACK TO tx")
                await tx.execute("RELEASE tx")
                raise
            await tx.execute("RELEASE tx")
        await asyncio.shield(group)

    async def _commit_group(self) -> None:
        """Commit the open group (after the transactions that were waiting when it began)."""
        async with self._lock:
            group, self._group = self._group, None
            if group is None:
                return
            try:
                self.check_file()
                await SQLiteTx(self.conn).execute("COMMIT")
            except BaseException as e:
                with contextlib.suppress(sqlite3.Error):
                    await SQLiteTx(self.conn).execute("ROLLBACK")
                group.set_exception(e if isinstance(e, Exception) else RuntimeError("commit interrupted"))
                group.exception()  # retrieved: a group nobody waits for any more must not log it
                if not isinstance(e, Exception):
                    raise
            else:
                group.set_result(None)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement in autocommit mode on the bookkeeping connection (``synchronous=NORMAL``: in WAL mode
        the database stays consistent, and the next durable commit syncs the log with this write in it). It
        skips the queue of write transactions: it holds SQLite's write lock only while it runs, in that
        connection's thread, and while a group is open SQLite's busy handler waits there, not on the event
        loop."""
        self.check_file()
        if self._relaxed is self.conn:  # :memory:, or synchronous=NORMAL anyway: through the queue
            async with self.transaction() as tx:
                return await tx.execute(sql, params)
        return await SQLiteTx(self._relaxed).execute(sql, params)

    async def _join(self) -> SQLiteTx:
        """The open group's transaction (begun now, with its commit queued, when none is open); under the lock."""
        tx = SQLiteTx(self.conn)
        if self._group is None:
            await tx.execute("BEGIN IMMEDIATE")
            self._group = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().create_task(self._commit_group())  # queued behind those waiting now
        return tx

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[SQLiteTx]:
        """An idle read connection for the block (the write connection, under its lock, for ``:memory:``)."""
        if not self._readers:
            async with self._lock:
                yield SQLiteTx(self.conn)
            return
        conn = await self._idle.get()
        try:
            yield SQLiteTx(conn)
        finally:
            self._idle.put_nowait(conn)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[SQLiteTx]:
        async with self._reading() as tx:
            await tx.execute("BEGIN")
            try:
                yield tx
            finally:
                await tx.execute("COMMIT")

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[SQLiteTx]:
        async with self._reading() as tx:
            yield tx

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._reading() as tx:
            return await tx.fetch(sql, params)

    async def columns(self, table: str) -> list[str]:
        return [r[1] for r in await self.fetch_all(f"PRAGMA table_info({table})")]

    async def close(self) -> None:
        await self._commit_group()
        async with self._lock:
            for reader in self._readers:
                await reader.close()
            if self._relaxed is not self.conn:
                await self._relaxed.close()
            await self.conn.close()


async def _connect(path: str | Path, conns: list[aiosqlite.Connection]) -> aiosqlite.Connection:
    """Connect; a connection that fails has ended its thread when this raises (issue 17, item 7: the thread
    would otherwise report its end to an event loop that ``python -m bot`` has closed by then, printing a
    traceback after the refusal)."""
    conn = aiosqlite.connect(str(path), isolation_level=None)
    try:
        await conn
    except BaseException:
        thread = getattr(conn, "_thread", None)
        if isinstance(thread, threading.Thread) and thread.is_alive():
            await asyncio.to_thread(thread.join, 5)
        raise
    conns.append(conn)
    return conn


def _execute(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    cur = db.execute(sql, params)
    try:
        return cur.rowcount
    finally:
        cur.close()


def _executemany(db: sqlite3.Connection, sql: str, rows: Sequence[Sequence[Any]]) -> None:
    db.executemany(sql, rows).close()


def _fetch(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    cur = db.execute(sql, params)
    try:
        return [tuple(r) for r in cur.fetchall()]
    finally:
        cur.close()


def _identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, None when there is none."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return st.st_dev, st.st_ino


def _check_size(path: str | Path) -> None:
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


async def _check(conn: aiosqlite.Connection, path: str | Path) -> None:
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
