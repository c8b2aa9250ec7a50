"""The SQLite backend (aiosqlite, WAL): one write connection, one process.

Statements run on the event loop, in SQLite's page cache a matter of microseconds; only what may wait for
the disk or for another process (BEGIN IMMEDIATE, COMMIT, snapshots for copying) goes to a connection's
thread. Each trip to a thread cost more than the statement itself under load (the thread waits for the
interpreter, then for a turn of the busy event loop): with every statement in a thread, 100 games at once
showed boards after p99 3-5 s, reads queued for up to a second and autocomplete answers for 2 s.

The file must stay the one that was opened: deleted or replaced under the running bot (or left without its
write-ahead log), the open connections would go on writing into unlinked files, lost at the next start. After
every group's COMMIT, before any of its transactions is confirmed, the path's and its -wal's device and inode
are compared with the open files' (``sqlite_file.changed``; with the path's before the COMMIT, three ``stat``
calls a commit, about 1 % of its time: ``benchmarks/bench_db.py``); when they differ, the open
database, which still holds every committed byte, is written back to its path with SQLite's online backup API
and the connections are opened again on it (a file that had been moved over the path is kept beside it as
``<name>.replaced-<time>``). Only when that fails is nothing confirmed and no write taken any more
(``DatabaseLost``, logged once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .backend import Row
from .rows import DatabaseLost, Unusable
from .sqlite_file import (
    backup_into,
    changed,
    check_database,
    check_size,
    connect,
    identity,
    put_in_place,
    wal_of,
    writable_path,
)
from .sqlite_tx import Gate, InlineTx, Queued, SQLiteTx, fetch_rows

log = logging.getLogger(__name__)

READERS = 1  # read connections with a thread, for snapshots (``copy-db``); the others read on the loop


class SQLiteBackend:
    """Writes go through one connection (a ``Gate`` serializes its transactions); reads through another, on the
    loop, which in WAL mode never waits for a write (``:memory:``: everything through the write connection,
    in its thread). Write transactions queued at the same time are committed together, with one wait for the
    disk (``transaction``); bookkeeping statements (``write``, ``note``) join the open group."""

    dialect = "sqlite"
    shared = False

    def __init__(self, conn: aiosqlite.Connection, readers: Sequence[aiosqlite.Connection] = (),
                 path: str | Path | None = None, synchronous: str = "FULL") -> None:
        self.conn = conn
        self._pending: list[Queued] = []  # statements for the write connection's next trip (``SQLiteTx``)
        self._lock = Gate()
        self._group: asyncio.Future[None] | None = None  # the open group of write transactions (``transaction``)
        self._readers = list(readers)
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for r in self._readers:
            self._idle.put_nowait(r)
        self.path = None if path is None or str(path) == ":memory:" else Path(path)
        self._synchronous = synchronous
        self._where = str(self.path) if self.path is not None else ""  # strings: ``changed`` runs at every commit
        self._wal_where = str(wal_of(self.path)) if self.path is not None else ""
        self._file = identity(self._where) if self.path is not None else None
        self._wal: tuple[int, int] | None = None  # the open -wal's identity, once it exists (``_guard``)
        self.lost: str | None = None  # why the open database could not be written back to its path
        # A database file: statements run on the event loop, only BEGIN and COMMIT in the write connection's
        # thread (module docstring); ``:memory:`` keeps every statement in that thread.
        self._inline = _inline(self.path) if self.path is not None else None

    def check_file(self, *, commit: bool = False) -> None:
        """Raise ``DatabaseLost`` once the database could not be written back to its path (``_guard``);
        ``commit``: also, before a COMMIT, when the path no longer names the open database and nothing could be
        written back there (the group is then rolled back: the moves a player is told failed are nowhere)."""
        if self.lost is None and commit and self.path is not None:
            why = changed(self._where, self._file)  # the file alone here; after the COMMIT also its -wal
            if why is not None:
                try:
                    writable_path(self.path)
                except OSError as e:
                    self._give_up(why, e)
        if self.lost is not None:
            raise DatabaseLost(self.lost)

    def _give_up(self, why: str, e: Exception) -> None:
        self.lost = f"the database file {self.path} was {why} while the bot ran, and writing it back failed ({e})"
        log.error("%s: no more moves are taken (nothing written now would be kept); stop the bot, put the "
                  "database back and start it again", self.lost)

    async def _guard(self, *, again: bool = False) -> None:
        """Under the lock, after a COMMIT: when the path no longer names the open database, write it back
        there and go on with it; ``DatabaseLost`` when that fails (then no write is taken any more; ``again``:
        try even so, when the bot stops)."""
        if self.path is None or (self.lost is not None and not again):
            return
        if self._wal is None:
            self._wal = identity(self._wal_where)  # created with the connections' first transaction
        why = changed(self._where, self._file, self._wal_where, self._wal)
        if why is None:
            return
        log.error("the database file %s was %s while the bot ran; writing the open database back to it",
                  self.path, why)
        try:
            await self._write_back()
        except (sqlite3.Error, OSError) as e:
            self._give_up(why, e)
            raise DatabaseLost(self.lost) from None
        log.warning("the database was written back to %s; the bot goes on with it", self.path)

    async def _write_back(self) -> None:
        """The open database into a copy beside its path (online backup, in the write connection's thread),
        then, once every connection to the old file is closed, the copy into place and the connections opened
        on it. Until the old connections are closed nothing is lost when a step fails."""
        path = self.path
        assert path is not None and self._inline is not None
        writable_path(path)
        copy = path.with_name(path.name + ".restoring")
        await self.conn._execute(backup_into, self.conn._conn, copy)
        readers = [await self._idle.get() for _ in self._readers]  # snapshots in progress end first
        for c in [*readers, self.conn]:
            await c.close()
        self._inline.close()  # reads go on through it until here; from here on the loop is not given up
        try:
            aside = put_in_place(copy, path)
        except OSError:
            self._inline = _inline(copy)  # the only place the games are now: reads go on from there
            log.error("the open database is kept in %s: stop the bot and move it to %s", copy, path)
            raise
        self._inline = _inline(path)
        if aside is not None:
            log.warning("the file that had been put at %s is kept as %s", path, aside)
        self._file, self._wal = identity(path), None
        self.conn, self._readers = await self._connect_all(path, self._synchronous, check=False)
        for r in self._readers:
            self._idle.put_nowait(r)

    @staticmethod
    async def _connect_all(path: str | Path, synchronous: str, *, check: bool = True
                           ) -> tuple[aiosqlite.Connection, list[aiosqlite.Connection]]:
        """The write connection (checked: ``check_database``) and the readers with a thread."""
        conns: list[aiosqlite.Connection] = []
        try:
            conn = await connect(path, conns)
            for pragma in ("journal_mode=WAL", f"synchronous={synchronous}", "foreign_keys=ON", "busy_timeout=5000"):
                await SQLiteTx(conn).execute(f"PRAGMA {pragma}")
            if check:
                await check_database(conn, path)
            readers = [] if str(path) == ":memory:" else [await connect(path, conns) for _ in range(READERS)]
            for reader in readers:
                await SQLiteTx(reader).execute("PRAGMA busy_timeout=5000")
                await SQLiteTx(reader).execute("PRAGMA query_only=ON")
            return conn, readers
        except BaseException:
            for c in conns:
                await c.close()  # an open connection's thread would keep the process alive
            raise

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
            check_size(path)
        try:
            conn, readers = await cls._connect_all(path, synchronous)
        except (sqlite3.Error, OSError) as e:
            raise Unusable(f"the database {path} cannot be used: {e}") from None
        try:
            return cls(conn, readers, None if memory else path, synchronous)
        except BaseException:
            for c in (conn, *readers):
                await c.close()  # an open connection's thread would keep the process alive
            raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SQLiteTx]:
        """One write transaction, committed together with the others queued at the same time (group commit):
        each runs alone in a savepoint of the group's transaction (rolled back alone when it
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
                self.check_file(commit=True)
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
                try:
                    await self._guard()  # before any transaction of the group is confirmed
                except BaseException as e:
                    group.set_exception(e if isinstance(e, Exception) else RuntimeError("commit interrupted"))
                    group.exception()
                    if not isinstance(e, Exception):
                        raise
                else:
                    group.set_result(None)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One bookkeeping statement whose count is needed, run in the open group of write transactions (begun
        when none is open) and committed with it. (Not on a second connection outside the group: there it
        could take SQLite's write lock only between two groups, which under load follow each other at once; its
        busy handler would poll for the lock, and a board's ``mark_shown`` waited p50 0.4 s, p99 2.2 s so.)"""
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
            return fetch_rows(self._inline, sql, params)
        async with self._reading() as tx:
            return await tx.fetch(sql, params)

    async def columns(self, table: str) -> list[str]:
        return [r[1] for r in await self.fetch_all(f"PRAGMA table_info({table})")]

    async def close(self) -> None:
        await self._commit_group()
        async with self._lock:
            with contextlib.suppress(DatabaseLost):
                await self._guard(again=True)  # changed since the last commit: written back before closing
            for reader in self._readers:
                await reader.close()
            await self.conn.close()
            if self._inline is not None:
                self._inline.close()


def _inline(path: Path) -> sqlite3.Connection:
    """A read connection used on the event loop: a WAL reader waits for nobody; the timeout covers a rare
    recovery."""
    db = sqlite3.connect(str(path), isolation_level=None, timeout=1.0)
    db.execute("PRAGMA query_only=ON")
    return db
