"""The SQLite backend (aiosqlite, WAL): one write connection, one process.

Statements run on the event loop, in SQLite's page cache a matter of microseconds; only what may wait for
the disk or for another process (BEGIN IMMEDIATE, COMMIT, snapshots for copying) goes to a connection's
thread. Each trip to a thread cost more than the statement itself under load (the thread waits for the
interpreter, then for a turn of the busy event loop): with every statement in a thread, 100 games at once
showed boards after p99 3-5 s, reads queued for up to a second and autocomplete answers for 2 s (issue 17,
item 11).

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
from .rows import DatabaseLost, IntegrityError, Unusable, VersionConflict

log = logging.getLogger(__name__)

READERS = 1  # read connections with a thread, for snapshots (``copy-db``); the others read on the loop

T = TypeVar("T")


Queued = tuple[str, Any, bool, "str | None"]  # (sql, params or rows, many, the conflict's message)


class SQLiteTx:
    """Statements on an aiosqlite connection (``Tx``). Each trip to the connection's thread runs one statement
    whose answer is needed (execute, read the rows or the count, close the cursor there) after those queued
    before it whose answer is not (``run``, ``executemany``, a savepoint's ``SAVEPOINT`` and ``RELEASE``, the
    bookkeeping of ``SQLiteBackend.note``): under load every trip waits for the connection's thread to get the
    interpreter and then for a turn of the event loop, while the write connection's lock is held, so a move's
    transaction is now one trip instead of seven or eight (issue 17, item 11). A queued statement that fails
    raises at the trip that sends it, inside the same transaction. The write connection's users share one
    queue (``pending``), so bookkeeping rides along with the next trip of whoever writes next."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, pending: list[Queued] | None = None, *,
                 inline: bool = False) -> None:
        self.conn = conn
        self.inline = inline  # run the statements here, on the event loop (``SQLiteBackend``: not BEGIN, COMMIT)
        self._pending: list[Queued] = [] if pending is None else pending
        self.mark: Queued | None = None  # this transaction's SAVEPOINT, while queued or once run
        self.begun = False  # whether ``mark`` ran (the savepoint exists)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        queued = self._pending[:]
        self._pending.clear()
        ran: list[Queued] = []
        try:
            if self.inline:
                return _trip(self.conn._conn, queued, ran, fn, *args)
            # ``Connection._execute`` runs the call on the connection's thread (aiosqlite is pinned in pyproject.toml)
            return await self.conn._execute(_trip, self.conn._conn, queued, ran, fn, *args)
        except sqlite3.IntegrityError as e:
            raise IntegrityError(str(e)) from None
        finally:
            if self.mark is not None and any(q is self.mark for q in ran):
                self.begun = True

    def queue(self, sql: str, params: Any = (), *, many: bool = False, conflict: str | None = None) -> Queued:
        """Send ``sql`` with the next trip (its answer is not needed)."""
        entry: Queued = (sql, params, many, conflict)
        self._pending.append(entry)
        return entry

    def drop_mine(self) -> None:
        """Take what this transaction queued out of the queue (what others queued before it stays)."""
        for i, q in enumerate(self._pending):
            if q is self.mark:
                del self._pending[i:]
                return
        if self.begun:
            self._pending.clear()  # nobody else queues while the transaction holds the connection

    async def flush(self) -> None:
        if self._pending:
            await self._run(_nothing)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return await self._run(_execute, sql, params)

    async def run(self, sql: str, params: Sequence[Any] = (), *, conflict: str | None = None) -> None:
        self.queue(sql, params, conflict=conflict)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.queue(sql, rows, many=True)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._run(_fetch, sql, params)

    async def fetch_many(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        return await self._run(_fetch_many, queries)

    async def lock(self, key: int) -> None:
        """Nothing to do: BEGIN IMMEDIATE already made this transaction the only writer."""


class Gate:
    """A lock whose release wakes every waiter for the next turn of the event loop; each checks again and the
    first takes it. ``asyncio.Lock`` hands over to one waiter per turn: with a busy loop (a few ms a turn)
    transactions that run on the loop without suspending queued behind one another for a turn each, 0.2 s p50
    under load (issue 17, item 11); now all those waiting run in one turn, one after the other."""

    def __init__(self) -> None:
        self._held = False
        self._waiters: list[asyncio.Future[None]] = []

    async def __aenter__(self) -> None:
        while self._held:
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
        self._held = True

    async def __aexit__(self, *exc: object) -> None:
        self._held = False
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)


class InlineTx:
    """Reads on the event loop (``SQLiteBackend.reader``): a connection of its own, read-only."""

    dialect = "sqlite"

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return _fetch(self.db, sql, params)

    async def fetch_many(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        return _fetch_many(self.db, queries)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return _execute(self.db, sql, params)  # read-only (query_only): a write raises

    async def run(self, sql: str, params: Sequence[Any] = (), *, conflict: str | None = None) -> None:
        raise sqlite3.OperationalError("a read connection does not write")

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise sqlite3.OperationalError("a read connection does not write")

    async def lock(self, key: int) -> None:
        """Nothing to lock for reads."""


class SQLiteBackend:
    """Writes go through one connection (a ``Gate`` serializes its transactions); reads through another, on the
    loop, which in WAL mode never waits for a write (``:memory:``: everything through the write connection,
    in its thread). Write transactions queued at the same time are committed together, with one wait for the
    disk (``transaction``); bookkeeping statements (``write``, ``note``) join the open group (issue 17,
    item 11)."""

    dialect = "sqlite"
    shared = False

    def __init__(self, conn: aiosqlite.Connection, readers: Sequence[aiosqlite.Connection] = (),
                 path: str | Path | None = None) -> None:
        self.conn = conn
        self._pending: list[Queued] = []  # statements for the write connection's next trip (``SQLiteTx``)
        self._lock = Gate()
        self._group: asyncio.Future[None] | None = None  # the open group of write transactions (``transaction``)
        self._readers = list(readers)
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for r in self._readers:
            self._idle.put_nowait(r)
        self.path = None if path is None or str(path) == ":memory:" else Path(path)
        self._file = _identity(self.path) if self.path is not None else None
        self.lost: str | None = None  # why the file is no longer the one opened
        # A database file: statements run on the event loop, only BEGIN and COMMIT in the write connection's
        # thread (module docstring); ``:memory:`` keeps every statement in that thread.
        self._inline: sqlite3.Connection | None = None
        if self.path is not None:  # a WAL reader waits for nobody; the timeout covers a rare recovery
            self._inline = sqlite3.connect(str(self.path), isolation_level=None, timeout=1.0)
            self._inline.execute("PRAGMA query_only=ON")

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
            return cls(conn, readers, None if memory else path)
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
            tx.mark = tx.queue("SAVEPOINT tx")  # sent with the first statement
            try:
                yield tx
                tx.queue("RELEASE tx")
                await tx.flush()
            except BaseException:
                tx.drop_mine()
                if tx.begun:
                    await tx.execute("ROLLBACK TO tx")
                    await tx.execute("RELEASE tx")
                raise
        await asyncio.shield(group)

    async def _commit_group(self) -> None:
        """Commit the open group (after the transactions that were waiting when it began)."""
        await asyncio.sleep(0)  # behind the waiters the group's first transaction wakes as it ends (``Gate``)
        async with self._lock:
            group, self._group = self._group, None
            if group is None:
                return
            try:
                self.check_file()
                await SQLiteTx(self.conn, self._pending).execute("COMMIT")  # with the bookkeeping still queued
            except BaseException as e:
                self._pending.clear()
                with contextlib.suppress(sqlite3.Error):
                    await SQLiteTx(self.conn).execute("ROLLBACK")
                group.set_exception(e if isinstance(e, Exception) else RuntimeError("commit interrupted"))
                group.exception()  # retrieved: a group nobody waits for any more must not log it
                if not isinstance(e, Exception):
                    raise
            else:
                group.set_result(None)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One bookkeeping statement whose count is needed, run in the open group of write transactions (begun
        when none is open) and committed with it. (Written before on a second connection outside the group, it
        could take SQLite's write lock only between two groups, which under load follow each other at once: its
        busy handler polled for the lock, and a board's ``mark_shown`` waited p50 0.4 s, p99 2.2 s: issue 17,
        item 11.)"""
        self.check_file()
        async with self._lock:
            tx = await self._join()
            group = self._group
            assert group is not None
            count = await tx.execute(sql, params)
        await asyncio.shield(group)
        return count

    async def note(self, sql: str, params: Sequence[Any] = ()) -> None:
        """One bookkeeping statement whose count is not needed: queued for the write connection's next trip (a
        transaction's, or the group's COMMIT), so it costs no trip of its own; returns once committed."""
        self.check_file()
        async with self._lock:
            tx = await self._join()
            group = self._group
            assert group is not None
            tx.queue(sql, params)
        await asyncio.shield(group)

    async def _join(self) -> SQLiteTx:
        """The open group's transaction (begun now, with its commit queued, when none is open); under the lock."""
        tx = SQLiteTx(self.conn, self._pending, inline=self._inline is not None)
        if self._group is None:
            assert not self._pending, "statements queued outside a group"
            # in the connection's thread: it may wait for another process's write lock (busy_timeout)
            await SQLiteTx(self.conn).execute("BEGIN IMMEDIATE")
            self._group = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().create_task(self._commit_group())  # queued behind those waiting now
        return tx

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[SQLiteTx]:
        """An idle read connection for the block (the write connection, under its lock, for ``:memory:``)."""
        if not self._readers:
            async with self._lock:
                yield SQLiteTx(self.conn, self._pending)
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
    async def reader(self) -> AsyncIterator[InlineTx | SQLiteTx]:
        if self._inline is not None:
            yield InlineTx(self._inline)
            return
        async with self._reading() as tx:
            yield tx

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        if self._inline is not None:
            return _fetch(self._inline, sql, params)
        async with self._reading() as tx:
            return await tx.fetch(sql, params)

    async def columns(self, table: str) -> list[str]:
        return [r[1] for r in await self.fetch_all(f"PRAGMA table_info({table})")]

    async def close(self) -> None:
        await self._commit_group()
        async with self._lock:
            for reader in self._readers:
                await reader.close()
            await self.conn.close()
            if self._inline is not None:
                self._inline.close()


async def _connect(path: str | Path, conns: list[aiosqlite.Connection]) -> aiosqlite.Connection:
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


def _execute(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int:
    cur = db.execute(sql, params)
    try:
        return cur.rowcount
    finally:
        cur.close()


def _trip(db: sqlite3.Connection, queued: list[Queued], ran: list[Queued], fn: Callable[..., T], *args: Any) -> T:
    """In the connection's thread: the queued statements in order (each appended to ``ran`` once it ran; one with
    a conflict message must change exactly one row, else ``VersionConflict``), then ``fn``."""
    for entry in queued:
        sql, params, many, conflict = entry
        if many:
            if params:
                db.executemany(sql, params).close()
        else:
            cur = db.execute(sql, params)
            count = cur.rowcount
            cur.close()
            if conflict is not None and count != 1:
                raise VersionConflict(conflict)
        ran.append(entry)
    return fn(db, *args)


def _nothing(db: sqlite3.Connection) -> None:
    return None


def _fetch(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    cur = db.execute(sql, params)
    try:
        return [tuple(r) for r in cur.fetchall()]
    finally:
        cur.close()


def _fetch_many(db: sqlite3.Connection, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
    return [_fetch(db, sql, params) for sql, params in queries]


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
