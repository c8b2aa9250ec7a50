"""The PostgreSQL backend (asyncpg pool): any number of bot processes on one database.

Transactions run at READ COMMITTED. What makes several processes safe is in the SQL itself: a change to
a game is an ``UPDATE games ... WHERE id = ? AND version = ?`` that takes the game's row lock, so of two
racing transactions the second waits, re-checks the version after the first commits, changes nothing and
the store raises ``VersionConflict``; a timer is claimed by an ``UPDATE``/``DELETE`` whose ``WHERE`` names
the due time it read, so only one claimer matches.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from typing import Any

import asyncpg

from .backend import Row
from .rows import DatabaseUnavailable, IntegrityError, Unusable, VersionConflict
from .urls import redact


@lru_cache(maxsize=512)
def to_pg(sql: str) -> str:
    """``?`` placeholders -> ``$1``, ``$2``...; ``IS ?`` -> ``IS NOT DISTINCT FROM ?`` (our SQL has no ``?``
    inside literals)."""
    sql = re.sub(r"\bIS \?", "IS NOT DISTINCT FROM ?", sql)
    parts = sql.split("?")
    return parts[0] + "".join(f"${i}{p}" for i, p in enumerate(parts[1:], 1))


def _count(status: str) -> int:
    """Rows changed from a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


LOST = (OSError, asyncpg.PostgresConnectionError, asyncpg.exceptions.OperatorInterventionError)


@contextmanager
def reachable(body: list[BaseException] | None = None) -> Iterator[None]:
    """A server that cannot be reached, shut down or restarted, or a connection lost in the middle (also of
    the COMMIT): ``DatabaseUnavailable``, never a confirmation. What the block's caller
    raised itself (``body``: the exception a transaction's own code raised) passes as it is."""
    try:
        yield
    except LOST as e:
        if body and body[0] is e:
            raise
        raise DatabaseUnavailable(f"{type(e).__name__}: {e}") from None
    except asyncpg.InterfaceError as e:
        if "closed" not in str(e) or (body and body[0] is e):
            raise
        raise DatabaseUnavailable(f"{type(e).__name__}: {e}") from None


class PostgresTx:
    """A transaction on one pooled connection (``Tx``)."""

    dialect = "postgresql"

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            with reachable():
                return _count(await self.conn.execute(to_pg(sql), *params))
        except asyncpg.IntegrityConstraintViolationError as e:
            raise IntegrityError(str(e)) from None

    async def run(self, sql: str, params: Sequence[Any] = (), *, conflict: str | None = None) -> None:
        count = await self.execute(sql, params)
        if conflict is not None and count != 1:
            raise VersionConflict(conflict)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            with reachable():
                await self.conn.executemany(to_pg(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as e:
            raise IntegrityError(str(e)) from None

    async def fetch_many(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        return [await self.fetch(sql, params) for sql, params in queries]

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            with reachable():
                return [tuple(r) for r in await self.conn.fetch(to_pg(sql), *params)]
        except asyncpg.IntegrityConstraintViolationError as e:
            raise IntegrityError(str(e)) from None

    async def lock(self, key: int) -> None:
        await self.conn.execute("SELECT pg_advisory_xact_lock($1)", key)


class PostgresBackend:
    """A pool of connections; every transaction takes one for its duration."""

    dialect = "postgresql"
    shared = True

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PostgresBackend:
        """Connect to ``url``; ``Unusable`` with the reason when the server cannot be used."""
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, command_timeout=60)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as e:
            raise Unusable(f"the database {redact(url)} cannot be used: {e}") from None
        assert pool is not None
        return cls(pool)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTx]:
        body: list[BaseException] = []  # the block's own exception (its statements translate theirs)
        with reachable(body):
            async with self.pool.acquire() as conn, conn.transaction():
                try:
                    yield PostgresTx(conn)
                except BaseException as e:
                    body.append(e)
                    raise

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        with reachable():
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute("SET LOCAL synchronous_commit TO OFF")
                return await PostgresTx(conn).execute(sql, params)

    async def note(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.write(sql, params)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[PostgresTx]:
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
            yield PostgresTx(conn)

    @asynccontextmanager
    async def reader(self) -> AsyncIterator[PostgresTx]:
        body: list[BaseException] = []
        with reachable(body):
            async with self.pool.acquire() as conn:
                try:
                    yield PostgresTx(conn)
                except BaseException as e:
                    body.append(e)
                    raise

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        with reachable():
            async with self.pool.acquire() as conn:
                return await PostgresTx(conn).fetch(sql, params)

    async def columns(self, table: str) -> list[str]:
        rows = await self.fetch_all("SELECT column_name FROM information_schema.columns WHERE table_schema = "
                                    "current_schema() AND table_name = ? ORDER BY ordinal_position", (table,))
        return [r[0] for r in rows]

    async def close(self) -> None:
        await self.pool.close()

