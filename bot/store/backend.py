"""What the store needs from a database: transactions, reads and a few dialect facts.

Two implementations share this interface: ``sqlite.SQLiteBackend`` (aiosqlite, one process) and
``postgres.PostgresBackend`` (asyncpg, any number of processes). SQL is written once with ``?``
placeholders; the PostgreSQL backend rewrites it (``$1``..., ``IS ?`` -> ``IS NOT DISTINCT FROM``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

Row = tuple[Any, ...]


class Tx(Protocol):
    """One open transaction (or, for reads, a consistent snapshot)."""

    dialect: str  # "sqlite" or "postgresql"

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows it changed (-1 when that means nothing)."""
        ...

    async def run(self, sql: str, params: Sequence[Any] = (), *, conflict: str | None = None) -> None:
        """Run one statement whose count is not needed; SQLite sends it with the transaction's next trip to
        its connection's thread (``sqlite.SQLiteTx``), so a failure may raise there, still in the transaction.
        ``conflict``: the statement must change exactly one row, else ``VersionConflict(conflict)``."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement per row (SQLite: with the next trip, like ``run``)."""
        ...

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def fetch_many(self, queries: Sequence[tuple[str, Sequence[Any]]]) -> list[list[Row]]:
        """The rows of each query, in order (SQLite: in one trip to its connection's thread)."""
        ...

    async def lock(self, key: int) -> None:
        """Serialize with other transactions taking the same key until this one ends (PostgreSQL: an
        advisory transaction lock; SQLite: nothing to do, its write transactions are already serial)."""
        ...


class Backend(Protocol):
    """A database the store runs on."""

    dialect: str  # "sqlite" or "postgresql"
    shared: bool  # other processes may write to it (caches must not outlive a call)

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: committed when the block ends, rolled back when it raises."""
        ...

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement of bookkeeping that is redone if it is lost, written without waiting for the disk:
        on SQLite in the open group of write transactions (one wait for the disk for the
        group), on PostgreSQL with ``synchronous_commit`` off. Returns the number of rows it changed."""
        ...

    async def note(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Like ``write`` when the count is not needed (SQLite: it rides along with the next statement sent to the
        write connection, costing no trip of its own)."""
        ...

    def snapshot(self) -> AbstractAsyncContextManager[Tx]:
        """A read-only transaction that sees one consistent state (for copying a live database)."""
        ...

    def reader(self) -> AbstractAsyncContextManager[Tx]:
        """A read connection for a few queries in a row (no transaction)."""
        ...

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def columns(self, table: str) -> list[str]:
        """The table's column names in order."""
        ...

    async def close(self) -> None: ...


async def fetch_one(tx: Tx, sql: str, params: Sequence[Any] = ()) -> Row | None:
    rows = await tx.fetch(sql, params)
    return rows[0] if rows else None


async def aiter_rows(tx: Tx, sql: str, params: Sequence[Any], batch: int) -> AsyncIterator[list[Row]]:
    """The rows of an ORDER BY query in batches of ``batch`` (LIMIT/OFFSET appended)."""
    offset = 0
    while True:
        rows = await tx.fetch(f"{sql} LIMIT ? OFFSET ?", (*params, batch, offset))
        if not rows:
            return
        yield rows
        offset += len(rows)
