"""The store's core: opening either backend, migrations, transactions and the version check."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Self

import aiosqlite

from ..schema import MIGRATIONS, Migration, run_script
from .backend import Backend, Row, Tx, fetch_one
from .rows import GAME_COLS, Game, Seat, Unusable, game_from_row
from .sqlite import SQLiteBackend

log = logging.getLogger(__name__)

MIGRATION_LOCK = 0x5350_0001  # advisory lock key: one process migrates at a time
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def parse_database(target: str | Path) -> tuple[str, str]:
    """(dialect, path or URL) of ``DATABASE_URL``/``DATABASE_PATH``: ``postgresql://…`` or
    ``postgres://…``, ``sqlite:///relative/path``, ``sqlite:////absolute/path`` or a plain file path (``~``
    expanded). ``Unusable`` for another scheme or no file name."""
    text = str(target)
    if text.startswith(POSTGRES_SCHEMES):
        return "postgresql", text
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    elif "://" in text:
        raise Unusable(f"unknown database URL scheme in {text.split('://', 1)[0]}://… "
                       "(use postgresql://… or sqlite:///path)")
    if not text.strip():
        raise Unusable("no database file named (e.g. sqlite:///data/petersburg.sqlite3)")
    return "sqlite", os.path.expanduser(text)


def shard_clause(column: str, shards: tuple[Sequence[int], int] | None) -> tuple[str, list[int]]:
    """SQL that keeps rows whose guild ``column`` belongs to one of ``shards`` = (shard ids, shard count),
    Discord's ``(guild_id >> 22) % shard_count`` (games outside a server count as shard 0); ``("", [])``
    for all."""
    if shards is None:
        return "", []
    ids, count = shards
    marks = ", ".join("?" for _ in ids)
    return f" AND ((COALESCE({column}, 0) >> 22) % ?) IN ({marks})", [count, *ids]


class StoreBase:
    """Opening, migrating, transactions and reading games; see ``bot.store.Store``.

    ``fault_hook`` (tests only) is called with a checkpoint name inside write transactions; raising
    there simulates a crash before commit.
    """

    def __init__(self, backend: Backend | aiosqlite.Connection, clock: Callable[[], float] = time.time) -> None:
        self._backend: Backend = SQLiteBackend(backend) if isinstance(backend, aiosqlite.Connection) else backend
        self.clock = clock
        self.fault_hook: Callable[[str], None] | None = None
        self._next_due: float | None = None
        self._next_due_known = False  # forgotten at every write transaction

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._backend.dialect

    @property
    def shared(self) -> bool:
        """Whether other processes may write to the database (then nothing read is cached)."""
        return self._backend.shared

    # --- lifecycle ------------------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL", clock: Callable[[], float] = time.time,
                   pool_size: int = 10, existing: bool = False) -> Self:
        """Open, check and migrate the database at ``path``: a SQLite file (folders and file are created unless
        ``existing``: a command that reads a database refuses a mistyped path) or a ``postgresql://`` URL
        (``pool_size`` connections at most).

        Raises ``Unusable`` with a message for a person when the database cannot be opened or written, is not
        a database, or fails ``PRAGMA quick_check``: the bot must stop then, not limp on."""
        dialect, target = parse_database(path)
        if existing and dialect == "sqlite" and target != ":memory:" and not Path(target).is_file():
            raise Unusable(f"there is no database at {target}")
        backend: Backend
        if dialect == "postgresql":
            from .postgres import PostgresBackend

            backend = await PostgresBackend.open(target, pool_size=pool_size)
        else:
            backend = await SQLiteBackend.open(target, synchronous=synchronous)
        try:
            store = cls(backend, clock)
            await store.migrate()
        except BaseException:
            await backend.close()
            raise
        return store

    async def close(self) -> None:
        await self._backend.close()

    async def __aenter__(self) -> Self:
        """``async with await Store.open(...) as store``: closed when the block ends, however it ends."""
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def migrate(self, migrations: Sequence[Migration] | None = None) -> int:
        """Apply missing migrations in order, each in its own transaction; returns the schema version. Two
        processes starting at once take turns (an advisory lock on PostgreSQL, the write lock on SQLite)."""
        steps = sorted(MIGRATIONS if migrations is None else migrations, key=lambda m: m.version)
        async with self._backend.transaction() as tx:
            await tx.lock(MIGRATION_LOCK)
            await run_script(tx, "CREATE TABLE IF NOT EXISTS schema_version "
                             "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
        current = 0
        for m in [*steps, None]:
            async with self._backend.transaction() as tx:
                await tx.lock(MIGRATION_LOCK)
                row = await fetch_one(tx, "SELECT COALESCE(MAX(version), 0) FROM schema_version")
                current = int(row[0]) if row else 0
                if m is None or m.version <= current:
                    continue
                if isinstance(m.apply, str):
                    await run_script(tx, m.apply)
                else:
                    await m.apply(tx)
                await tx.execute("INSERT INTO schema_version VALUES (?, ?, ?)", (m.version, m.name, self.clock()))
            log.info("database migrated to version %d (%s)", m.version, m.name)
        return current

    async def schema_version(self) -> int:
        row = await self._one("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(row[0]) if row else 0

    # --- low-level helpers (also for later features) ------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``async with store.transaction() as tx:`` one atomic write (``tx.execute(sql, params)``)."""
        self._next_due_known = False
        try:
            async with self._backend.transaction() as tx:
                yield tx
                self._fault("before_commit")
        finally:
            self._next_due_known = False

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One bookkeeping statement, written without waiting for the disk (``Backend.write``); the number of
        rows it changed."""
        return await self._backend.write(sql, params)

    async def note(self, sql: str, params: Sequence[Any] = ()) -> None:
        """``write`` without the count (``Backend.note``: on SQLite it costs no trip of its own)."""
        await self._backend.note(sql, params)

    def snapshot(self) -> AbstractAsyncContextManager[Tx]:
        """``async with store.snapshot() as tx:`` reads that all see one moment (``tx.fetch``)."""
        return self._backend.snapshot()

    async def columns(self, table: str) -> list[str]:
        """The table's column names in order."""
        return await self._backend.columns(table)

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Run a read query (for features built on top of the store)."""
        return await self._backend.fetch_all(sql, params)

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self._backend.fetch_all(sql, params)
        return rows[0] if rows else None

    def _fault(self, point: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(point)

    @staticmethod
    async def _bump(tx: Tx, game_id: int, expected_version: int, now: float, **fields: Any) -> int:
        """UPDATE the game with an optimistic version check; returns the new version. The UPDATE takes the
        game's row lock, so a racing transaction (another connection or process) waits, then finds the
        version moved on: VersionConflict (raised by the statement's trip on SQLite, at once on PostgreSQL)."""
        sets = "".join(f", {k} = ?" for k in fields)
        await tx.run(f"UPDATE games SET version = version + 1, updated_at = ?{sets} WHERE id = ? AND version = ?",
                     (now, *fields.values(), game_id, expected_version),
                     conflict=f"game {game_id} is no longer at version {expected_version}")
        return expected_version + 1

    async def get_game(self, game_id: int) -> Game | None:
        """The game with its seats, or None."""
        return await self._game_where("id = ?", (game_id,))

    async def _game_where(self, where: str, params: Sequence[Any]) -> Game | None:
        """The one game ``where`` selects (None: none), with its seats: one trip to the database (a game is
        read several times per move)."""
        async with self._backend.reader() as tx:
            games, seats = await tx.fetch_many([
                (f"SELECT {GAME_COLS} FROM games WHERE {where}", params),
                (f"SELECT seat, user_id, name, computer FROM seats "
                 f"WHERE game_id IN (SELECT id FROM games WHERE {where}) "
                 "ORDER BY seat", params)])
        return game_from_row(games[0], [Seat(*r) for r in seats]) if games else None
