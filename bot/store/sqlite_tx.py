"""Statements on SQLite connections: a write connection's transactions (``SQLiteTx``, trips to its thread), the
lock its transactions share (``Gate``) and reads on the event loop (``InlineTx``); see ``bot.store.sqlite``."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import aiosqlite

from .backend import Row
from .rows import IntegrityError, VersionConflict

T = TypeVar("T")


Queued = tuple[str, Any, bool, "str | None"]  # (sql, params or rows, many, the conflict's message)


class SQLiteTx:
    """Statements on an aiosqlite connection (``Tx``). Each trip to the connection's thread runs one statement
    whose answer is needed (execute, read the rows or the count, close the cursor there) after those queued
    before it whose answer is not (``run``, ``executemany``, a savepoint's ``SAVEPOINT`` and ``RELEASE``, the
    bookkeeping of ``SQLiteBackend.note``): under load every trip waits for the connection's thread to get the
    interpreter and then for a turn of the event loop, while the write connection's lock is held, so a move's
    transaction is one trip instead of seven or eight. A queued statement that fails
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
        return await self._run(fetch_rows, sql, params)

    async def fetch_many(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        return await self._run(_fetch_many, queries)

    async def lock(self, key: int) -> None:
        """Nothing to do: BEGIN IMMEDIATE already made this transaction the only writer."""


class Gate:
    """A lock whose release wakes every waiter for the next turn of the event loop; each checks again and the
    first takes it. ``asyncio.Lock`` hands over to one waiter per turn: with a busy loop (a few ms a turn)
    transactions that run on the loop without suspending queued behind one another for a turn each, 0.2 s p50
    under load; here all those waiting run in one turn, one after the other."""

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
        return fetch_rows(self.db, sql, params)

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


def fetch_rows(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[Row]:
    cur = db.execute(sql, params)
    try:
        return [tuple(r) for r in cur.fetchall()]
    finally:
        cur.close()


def _fetch_many(db: sqlite3.Connection, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
    return [fetch_rows(db, sql, params) for sql, params in queries]
