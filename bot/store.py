"""SQLite persistence (aiosqlite, WAL) with versioned migrations.

Every write that changes a game bumps ``games.version`` in an ``UPDATE ... WHERE version = ?``
(optimistic check) inside one transaction, so an accepted action is stored exactly once together
with the new state, its action row and the changed hands, or not at all.

Besides games, seats, actions (``auto``: why the bot took one) and hands: ``reminders`` holds the
current turn's reminder and time-out (keyed by game and version, so any action voids them; a due one is
claimed with an UPDATE before it is sent), ``pass_modes`` the players' ``rules.autopass.AutoPass``,
``results`` each finished game's scores (history, leaderboard) and ``guild_settings`` a server's timer
defaults.

Adding a migration: append ``Migration(<next number>, "<name>", "<SQL>")`` (or a coroutine function
taking the connection) to ``MIGRATIONS``; ``Store.open`` applies the missing ones in order.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from .schema import MIGRATIONS, Migration, dumps, run, run_many, split_sql, write_results
from .timers import Timer

log = logging.getLogger(__name__)

LOBBY, ACTIVE, FINISHED, ABORTED = "lobby", "active", "finished", "aborted"
OPEN_STATUSES = (LOBBY, ACTIVE)


# --- rows ---------------------------------------------------------------------------------------
@dataclass(slots=True)
class Seat:
    seat: int
    user_id: int | None  # None: an empty seat (kicked or left) waiting for a replacement, or a computer's
    name: str
    computer: str | None = None  # a computer player's level (``rules.ai``) when a computer holds the seat


@dataclass(slots=True)
class Game:
    """One row of ``games`` plus its seats (in seat order). ``state`` is GameState JSON or None (lobby)."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    ruleset: dict[str, Any]
    seed: int
    lang: str
    status: str
    version: int
    state: dict[str, Any] | None
    board_message_id: int | None
    created_at: float
    updated_at: float
    seats: list[Seat] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # the host's timer settings (minutes)
    shown_version: int = -1  # the version the channel's board shows (-1: no board yet)
    turn_message_id: int | None = None  # the message that pings the player to decide
    turn_user_id: int | None = None  # whom it pings
    final_posted: bool = False
    board_problem: str | None = None  # the posting problem last told to the channel or host

    def needs_board(self) -> bool:
        """Whether the channel must be brought up to date (a board, the final scores, a stripped board)."""
        return self.status != LOBBY and self.shown_version < self.version

    def seat_of(self, user_id: int) -> int | None:
        """The seat number of ``user_id`` or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def user_at(self, seat: int) -> int | None:
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        return None

    def computer_at(self, seat: int) -> str | None:
        """The level of the computer player holding ``seat``, if one does."""
        for s in self.seats:
            if s.seat == seat:
                return s.computer
        return None

    def humans(self) -> int:
        return sum(1 for s in self.seats if s.user_id is not None)


@dataclass(slots=True)
class ActionRow:
    game_id: int
    idx: int
    seat: int
    user_id: int | None
    notation: str
    events: list[dict[str, Any]]
    created_at: float
    auto: str | None = None  # None: by the player; else why the bot acted (forced, mode_*, timeout)


@dataclass(slots=True)
class TimerRow:
    """A stored reminder or time-out of the turn at game version ``version``."""

    game_id: int
    kind: str
    version: int
    seat: int
    due_at: float
    sent: int


@dataclass(slots=True)
class Result:
    """A seat's final score in a finished game."""

    seat: int
    user_id: int | None
    name: str
    vp: int
    rubles: int
    winner: bool
    computer: str | None = None


@dataclass(slots=True)
class FinishedGame:
    id: int
    finished_at: float
    edition: int
    results: list[Result]  # best first


@dataclass(slots=True)
class Standing:
    """One member's line of a server's leaderboard."""

    user_id: int
    name: str
    games: int
    wins: int
    average: float
    best: int


class StoreError(Exception):
    """Base class of the store's expected failures."""


class VersionConflict(StoreError):
    """The game changed since it was read (another action won the race)."""


class ChannelBusy(StoreError):
    """The channel already has a game in the lobby or in play."""


class NotFound(StoreError):
    """No such game (or seat)."""


class Unusable(StoreError):
    """The database cannot be used (unreadable, damaged, read-only): the bot must not start."""


@dataclass(slots=True)
class Notice:
    """A channel message stored with a commit (text key and parameters), posted until it succeeds."""

    id: int
    game_id: int
    key: str
    params: dict[str, Any]


_GAME_COLS = ("id, guild_id, channel_id, host_id, ruleset, seed, lang, status, version, state, "
              "board_message_id, created_at, updated_at, settings, shown_version, turn_message_id, turn_user_id, "
              "final_posted, board_problem")


def _game(row: Sequence[Any], seats: list[Seat]) -> Game:
    return Game(
        id=row[0], guild_id=row[1], channel_id=row[2], host_id=row[3], ruleset=json.loads(row[4]),
        seed=row[5], lang=row[6], status=row[7], version=row[8],
        state=json.loads(row[9]) if row[9] is not None else None,
        board_message_id=row[10], created_at=row[11], updated_at=row[12], seats=seats,
        settings=json.loads(row[13]) if row[13] else {}, shown_version=row[14], turn_message_id=row[15],
        turn_user_id=row[16], final_posted=bool(row[17]), board_problem=row[18],
    )


async def _write_timers(conn: aiosqlite.Connection, game_id: int, version: int, timers: Sequence[Timer]) -> None:
    """Replace the game's timers by those of the turn at ``version``."""
    await run(conn, "DELETE FROM reminders WHERE game_id = ?", (game_id,))
    await run_many(conn, "INSERT INTO reminders (game_id, kind, version, seat, due_at, sent) VALUES (?, ?, ?, ?, ?, ?)",
                   [(game_id, tm.kind, version, tm.seat, tm.due_at, tm.sent) for tm in timers])


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
    async with conn.execute("PRAGMA quick_check") as cur:
        rows = [str(r[0]) for r in await cur.fetchall()]
    if rows != ["ok"]:
        raise Unusable(f"the database {path} is damaged (PRAGMA quick_check: {'; '.join(rows[:3])}); restore a "
                       "backup or move the file away to start with an empty one")
    try:
        await run(conn, "BEGIN IMMEDIATE")
        await run(conn, "CREATE TABLE IF NOT EXISTS _write_probe (x INTEGER)")
        await run(conn, "ROLLBACK")
    except sqlite3.OperationalError as e:
        raise Unusable(f"the database {path} cannot be written ({e}); check the permissions of the file and "
                       "its folder") from None


class Store:
    """The bot's database. Writes go through one connection (an asyncio lock serializes its transactions);
    reads through a second one, so that in WAL mode they never queue behind a write (``:memory:``
    databases share one connection).

    ``fault_hook`` (tests only) is called with a checkpoint name inside write transactions; raising
    there simulates a crash before commit.
    """

    def __init__(self, conn: aiosqlite.Connection, clock: Callable[[], float] = time.time,
                 reader: aiosqlite.Connection | None = None) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._reader = reader or conn
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self.clock = clock
        self.fault_hook: Callable[[str], None] | None = None
        self._next_due: float | None = None
        self._next_due_known = False  # forgotten at every write transaction

    # --- lifecycle ------------------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL",
                   clock: Callable[[], float] = time.time) -> Store:
        """Open (creating folders and file), check and migrate the database at ``path``.

        Raises ``Unusable`` with a message for a person when the file cannot be opened or written, is not a
        database, or fails ``PRAGMA quick_check``: the bot must stop then, not limp on."""
        memory = str(path) == ":memory:"
        if not memory:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise Unusable(f"cannot create the folder of the database {path}: {e.strerror or e}") from None
        conns: list[aiosqlite.Connection] = []
        if not memory:
            _check_size(path)
        try:
            conn = await cls._connect(path, conns)
            await run(conn, "PRAGMA journal_mode=WAL")
            await run(conn, f"PRAGMA synchronous={synchronous}")
            await run(conn, "PRAGMA foreign_keys=ON")
            await run(conn, "PRAGMA busy_timeout=5000")
            await _check(conn, path)
            reader = None if memory else await cls._connect(path, conns)
            if reader is not None:
                await run(reader, "PRAGMA busy_timeout=5000")
                await run(reader, "PRAGMA query_only=ON")
            store = cls(conn, clock, reader)
            await store.migrate()
            return store
        except (sqlite3.Error, OSError) as e:
            for c in conns:
                await c.close()
            raise Unusable(f"the database {path} cannot be used: {e}") from None
        except BaseException:
            for c in conns:
                await c.close()  # an open connection's thread would keep the process alive
            raise

    @staticmethod
    async def _connect(path: str | Path, conns: list[aiosqlite.Connection]) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conns.append(conn)
        return conn

    async def close(self) -> None:
        async with self._lock:
            if self._reader is not self._conn:
                await self._reader.close()
            await self._conn.close()

    async def migrate(self, migrations: Sequence[Migration] | None = None) -> int:
        """Apply missing migrations in order; returns the schema version."""
        steps = sorted(MIGRATIONS if migrations is None else migrations, key=lambda m: m.version)
        async with self._lock:
            await run(self._conn, "CREATE TABLE IF NOT EXISTS schema_version "
                      "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
            async with self._conn.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cur:
                row = await cur.fetchone()
            current = int(row[0]) if row else 0
            for m in steps:
                if m.version <= current:
                    continue
                await run(self._conn, "BEGIN IMMEDIATE")
                try:
                    if isinstance(m.apply, str):
                        for stmt in split_sql(m.apply):
                            await run(self._conn, stmt)
                    else:
                        await m.apply(self._conn)
                    await run(self._conn, "INSERT INTO schema_version VALUES (?, ?, ?)",
                                             (m.version, m.name, self.clock()))
                    await run(self._conn, "COMMIT")
                except BaseException:
                    await run(self._conn, "ROLLBACK")
                    raise
                log.info("database migrated to version %d (%s)", m.version, m.name)
                current = m.version
            return current

    async def schema_version(self) -> int:
        row = await self._one("SELECT COALESCE(MAX(version), 0) FROM schema_version")
        return int(row[0]) if row else 0

    # --- low-level helpers (also for later features) ------------------------------------------------
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with store.transaction() as conn:`` one atomic write (BEGIN IMMEDIATE ... COMMIT)."""
        async with self._lock:
            self._next_due_known = False
            await run(self._conn, "BEGIN IMMEDIATE")
            try:
                yield self._conn
                if self.fault_hook is not None:
                    self.fault_hook("before_commit")
                await run(self._conn, "COMMIT")
            except BaseException:
                await run(self._conn, "ROLLBACK")
                raise
            finally:
                self._next_due_known = False

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Run a read query (for features built on top of the store)."""
        async with self._read_lock, self._reader.execute(sql, params) as cur:
            return [tuple(r) for r in await cur.fetchall()]

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        async with self._read_lock, self._reader.execute(sql, params) as cur:
            row = await cur.fetchone()
        return tuple(row) if row is not None else None

    def _fault(self, point: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(point)

    @staticmethod
    async def _bump(conn: aiosqlite.Connection, game_id: int, expected_version: int, now: float,
                    **fields: Any) -> int:
        """UPDATE the game with an optimistic version check; returns the new version."""
        sets = "".join(f", {k} = ?" for k in fields)
        count, _ = await run(
            conn, f"UPDATE games SET version = version + 1, updated_at = ?{sets} WHERE id = ? AND version = ?",
            (now, *fields.values(), game_id, expected_version))
        if count != 1:
            raise VersionConflict(f"game {game_id} is no longer at version {expected_version}")
        return expected_version + 1

    # --- reads ----------------------------------------------------------------------------------
    async def get_game(self, game_id: int) -> Game | None:
        """The game with its seats, or None."""
        async with self._read_lock:
            async with self._reader.execute(f"SELECT {_GAME_COLS} FROM games WHERE id = ?", (game_id,)) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            async with self._reader.execute("SELECT seat, user_id, name, computer FROM seats WHERE game_id = ? "
                                            "ORDER BY seat", (game_id,)) as cur:
                seats = [Seat(*r) for r in await cur.fetchall()]
        return _game(tuple(row), seats)

    async def open_game_in_channel(self, channel_id: int) -> Game | None:
        """The game in the lobby or in play in this channel or thread, if any."""
        row = await self._one("SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                              (channel_id,))
        return await self.get_game(row[0]) if row else None

    async def list_games(self, *, status: str | Sequence[str] | None = None, guild_id: int | None = None,
                         limit: int = 100) -> list[Game]:
        """Games (newest first) filtered by status and/or guild, with seats."""
        where: list[str] = []
        params: list[Any] = []
        if status is not None:
            sts = [status] if isinstance(status, str) else list(status)
            where.append(f"status IN ({','.join('?' * len(sts))})")
            params.extend(sts)
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        sql = "SELECT id FROM games" + (" WHERE " + " AND ".join(where) if where else "")
        sql += " ORDER BY id DESC LIMIT ?"
        ids = [r[0] for r in await self.fetch_all(sql, (*params, limit))]
        games = [await self.get_game(i) for i in ids]
        return [g for g in games if g is not None]

    async def user_games(self, user_id: int, *, status: str | Sequence[str] | None = None,
                         limit: int = 100) -> list[Game]:
        """Games in which ``user_id`` holds a seat (newest first)."""
        sql = "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ?"
        params: list[Any] = [user_id]
        if status is not None:
            sts = [status] if isinstance(status, str) else list(status)
            sql += f" AND g.status IN ({','.join('?' * len(sts))})"
            params.extend(sts)
        sql += " ORDER BY g.id DESC LIMIT ?"
        ids = [r[0] for r in await self.fetch_all(sql, (*params, limit))]
        games = [await self.get_game(i) for i in ids]
        return [g for g in games if g is not None]

    async def actions(self, game_id: int, since: int = 0) -> list[ActionRow]:
        """The game's accepted actions in order (``idx`` from 0), from index ``since`` on."""
        rows = await self.fetch_all(
            "SELECT game_id, idx, seat, user_id, notation, events, created_at, auto FROM actions "
            "WHERE game_id = ? AND idx >= ? ORDER BY idx", (game_id, since))
        return [ActionRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7]) for r in rows]

    async def action_at(self, game_id: int, version: int) -> ActionRow | None:
        """The action applied to the game at ``version``, if one was."""
        rows = await self.fetch_all(
            "SELECT game_id, idx, seat, user_id, notation, events, created_at, auto FROM actions "
            "WHERE game_id = ? AND version = ?", (game_id, version))
        if not rows:
            return None
        r = rows[0]
        return ActionRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7])

    async def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]:
        """The game's last ``limit`` actions, oldest first."""
        rows = await self.fetch_all("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
        total = int(rows[0][0]) if rows else 0
        return await self.actions(game_id, since=max(0, total - limit))

    async def latest_game_in_channel(self, channel_id: int) -> Game | None:
        """The open game of the channel, else its newest finished or aborted one."""
        row = await self._one("SELECT id FROM games WHERE channel_id = ? ORDER BY "
                              "status IN ('lobby', 'active') DESC, id DESC LIMIT 1", (channel_id,))
        return await self.get_game(row[0]) if row else None

    # --- settings, timers, pass modes -------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The server's default timer settings (only those it set)."""
        row = await self._one("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return json.loads(row[0]) if row else {}

    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        async with self.transaction() as conn:
            await run(conn, "INSERT INTO guild_settings VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE "
                      "SET settings = excluded.settings, updated_at = excluded.updated_at",
                      (guild_id, dumps(settings), self.clock()))

    async def set_game_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        """The game's own timer settings (no version change: the board's buttons stay valid)."""
        async with self.transaction() as conn:
            await run(conn, "UPDATE games SET settings = ? WHERE id = ?", (dumps(settings), game_id))

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self.fetch_all("SELECT game_id, kind, version, seat, due_at, sent FROM reminders "
                                    "WHERE game_id = ? ORDER BY kind", (game_id,))
        return [TimerRow(*r) for r in rows]

    async def due_timers(self, now: float, limit: int = 50) -> list[TimerRow]:
        """Timers due at ``now`` whose turn is still current (stale ones are deleted)."""
        async with self.transaction() as conn:
            await run(conn, "DELETE FROM reminders WHERE due_at <= ? AND NOT EXISTS (SELECT 1 FROM games g "
                      "WHERE g.id = reminders.game_id AND g.version = reminders.version AND g.status = 'active')",
                      (now,))
            async with conn.execute(
                    "SELECT game_id, kind, version, seat, due_at, sent FROM reminders WHERE due_at <= ? "
                    "ORDER BY due_at LIMIT ?", (now, limit)) as cur:
                return [TimerRow(*r) for r in await cur.fetchall()]

    async def next_due(self) -> float | None:
        """When the earliest timer is due (None: none). Cached until the next write, so polling is cheap."""
        if not self._next_due_known:
            row = await self._one("SELECT MIN(due_at) FROM reminders")
            self._next_due = float(row[0]) if row and row[0] is not None else None
            self._next_due_known = True
        return self._next_due

    async def claim_timer(self, timer: TimerRow, next_due: float | None) -> bool:
        """Atomically take a due timer before acting on it: only if the game is still at its version and
        nobody claimed it meanwhile. It then repeats at ``next_due`` (None: it is deleted)."""
        where = ("game_id = ? AND kind = ? AND version = ? AND due_at = ? AND EXISTS (SELECT 1 FROM games g "
                 "WHERE g.id = reminders.game_id AND g.version = reminders.version AND g.status = 'active')")
        params = (timer.game_id, timer.kind, timer.version, timer.due_at)
        async with self.transaction() as conn:
            if next_due is None:
                count, _ = await run(conn, f"DELETE FROM reminders WHERE {where}", params)
            else:
                count, _ = await run(conn, f"UPDATE reminders SET sent = sent + 1, due_at = ? WHERE {where}",
                                     (next_due, *params))
        return count == 1

    async def reschedule(self, game_id: int, version: int, timers: Sequence[Timer]) -> bool:
        """Replace the timers of the current turn (after a settings change); False if the game moved on."""
        async with self.transaction() as conn:
            async with conn.execute("SELECT 1 FROM games WHERE id = ? AND version = ? AND status = 'active'",
                                    (game_id, version)) as cur:
                if await cur.fetchone() is None:
                    return False
            await _write_timers(conn, game_id, version, timers)
        return True

    async def pass_modes(self, game_id: int) -> dict[int, dict[str, Any]]:
        """Seat -> stored pass mode (``rules.autopass.AutoPass`` JSON)."""
        rows = await self.fetch_all("SELECT seat, autopass FROM pass_modes WHERE game_id = ?", (game_id,))
        return {r[0]: json.loads(r[1]) for r in rows}

    async def set_pass_mode(self, game_id: int, seat: int, autopass: dict[str, Any] | None) -> None:
        """Store a seat's pass mode (None: clear it)."""
        async with self.transaction() as conn:
            if autopass is None:
                await run(conn, "DELETE FROM pass_modes WHERE game_id = ? AND seat = ?", (game_id, seat))
            else:
                await run(conn, "INSERT OR REPLACE INTO pass_modes VALUES (?, ?, ?)",
                          (game_id, seat, dumps(autopass)))

    # --- history ----------------------------------------------------------------------------------
    async def results(self, game_id: int) -> list[Result]:
        rows = await self.fetch_all("SELECT seat, user_id, name, vp, rubles, winner, computer FROM results "
                                    "WHERE game_id = ? ORDER BY vp DESC, rubles DESC, seat", (game_id,))
        return [Result(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]

    async def finished_games(self, guild_id: int | None, limit: int = 10) -> list[FinishedGame]:
        """The server's most recently finished games with their results."""
        rows = await self.fetch_all(
            "SELECT id, updated_at, ruleset FROM games WHERE guild_id IS ? AND status = 'finished' "
            "ORDER BY updated_at DESC, id DESC LIMIT ?", (guild_id, limit))
        return [FinishedGame(r[0], r[1], int(json.loads(r[2]).get("edition", 2)), await self.results(r[0]))
                for r in rows]

    async def leaderboard(self, guild_id: int | None, limit: int = 15) -> list[Standing]:
        """Per member over the server's finished games among people only (games with a computer player are
        ranked apart, i.e. not here): games, wins (ties count for each), average and best VP."""
        rows = await self.fetch_all(
            "SELECT r.user_id, COUNT(*) AS n, SUM(r.winner) AS wins, AVG(r.vp) AS average, MAX(r.vp), "
            "(SELECT r2.name FROM results r2 WHERE r2.user_id = r.user_id ORDER BY r2.game_id DESC LIMIT 1) "
            "FROM results r JOIN games g ON g.id = r.game_id "
            "WHERE g.guild_id IS ? AND g.status = 'finished' AND r.user_id IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM results c WHERE c.game_id = g.id AND c.computer IS NOT NULL) "
            "GROUP BY r.user_id ORDER BY wins DESC, average DESC, n DESC, r.user_id LIMIT ?", (guild_id, limit))
        return [Standing(r[0], r[5], r[1], r[2], float(r[3]), r[4]) for r in rows]

    async def hands(self, game_id: int) -> dict[int, list[str]]:
        """Seat -> card type ids in hand (as of the last committed action)."""
        rows = await self.fetch_all("SELECT seat, cards FROM hands WHERE game_id = ?", (game_id,))
        return {r[0]: json.loads(r[1]) for r in rows}

    # --- writes ---------------------------------------------------------------------------------
    async def create_game(self, *, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                          ruleset: dict[str, Any], seed: int, lang: str) -> Game:
        """A new lobby with the host in seat 0; ChannelBusy if the channel has an open game."""
        now = self.clock()
        try:
            async with self.transaction() as conn:
                _, game_id = await run(
                    conn, "INSERT INTO games (guild_id, channel_id, host_id, ruleset, seed, lang, status, version, "
                    "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?)",
                    (guild_id, channel_id, host_id, dumps(ruleset), seed, lang, now, now))
                await run(conn, "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                          (game_id, host_id, host_name))
        except aiosqlite.IntegrityError:
            raise ChannelBusy(f"channel {channel_id} already has an open game") from None
        game = await self.get_game(game_id)
        assert game is not None
        return game

    async def update_lobby(self, game_id: int, expected_version: int, seats: Sequence[Seat],
                           *, host_id: int | None = None, ruleset: dict[str, Any] | None = None) -> int:
        """Replace the lobby's seat list (people and computer players) in join order; returns the new version."""
        fields: dict[str, Any] = {}
        if host_id is not None:
            fields["host_id"] = host_id
        if ruleset is not None:
            fields["ruleset"] = dumps(ruleset)
        async with self.transaction() as conn:
            version = await self._bump(conn, game_id, expected_version, self.clock(), **fields)
            await run(conn, "DELETE FROM seats WHERE game_id = ?", (game_id,))
            await run_many(conn, "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)",
                           [(game_id, i, s.user_id, s.name, s.computer) for i, s in enumerate(seats)])
        return version

    async def start_game(self, game_id: int, expected_version: int, *, ruleset: dict[str, Any],
                         state: dict[str, Any], hands: dict[int, list[str]], timers: Sequence[Timer] = (),
                         notices: Sequence[tuple[str, dict[str, Any]]] = ()) -> int:
        """Lobby -> active with the initial state, the first turn's timers and channel notices; returns the new
        version."""
        async with self.transaction() as conn:
            version = await self._bump(conn, game_id, expected_version, self.clock(), status=ACTIVE,
                                       ruleset=dumps(ruleset), state=dumps(state))
            await run_many(conn, "INSERT OR REPLACE INTO hands VALUES (?, ?, ?)",
                                   [(game_id, s, dumps(c)) for s, c in hands.items()])
            await _write_timers(conn, game_id, version, timers)
            await self._add_notices(conn, game_id, notices)
        return version

    async def record_action(self, game_id: int, expected_version: int, *, seat: int, user_id: int | None,
                            notation: str, events: list[dict[str, Any]], state: dict[str, Any],
                            hands: dict[int, list[str]], status: str = ACTIVE, auto: str | None = None,
                            timers: Sequence[Timer] = (), clear_pass: Sequence[int] = (),
                            notices: Sequence[tuple[str, dict[str, Any]]] = ()) -> int:
        """Store one accepted action atomically: new state and status, the action row (``auto``: why the bot
        took it), changed hands, the next turn's timers (replacing the old turn's), pass modes used up, and
        the results when the game is over, and channel ``notices`` (text key, parameters) to post.

        Raises VersionConflict (nothing written) if the game moved on since ``expected_version``.
        """
        now = self.clock()
        async with self.transaction() as conn:
            version = await self._bump(conn, game_id, expected_version, now, state=dumps(state), status=status)
            await run(
                conn, "INSERT INTO actions (game_id, idx, seat, user_id, notation, events, created_at, auto, version) "
                "VALUES (?, (SELECT COUNT(*) FROM actions WHERE game_id = ?), ?, ?, ?, ?, ?, ?, ?)",
                (game_id, game_id, seat, user_id, notation, dumps(events), now, auto, expected_version))
            self._fault("action_written")
            if hands:
                await run_many(conn, "INSERT OR REPLACE INTO hands VALUES (?, ?, ?)",
                                       [(game_id, s, dumps(c)) for s, c in hands.items()])
            self._fault("hands_written")
            await _write_timers(conn, game_id, version, timers if status == ACTIVE else ())
            if clear_pass:
                await run_many(conn, "DELETE FROM pass_modes WHERE game_id = ? AND seat = ?",
                               [(game_id, s) for s in clear_pass])
            if status == FINISHED:
                await run(conn, "DELETE FROM pass_modes WHERE game_id = ?", (game_id,))
                await write_results(conn, game_id, state)
            await self._add_notices(conn, game_id, notices)
        return version

    async def set_seat(self, game_id: int, expected_version: int, seat: int, user_id: int | None, name: str,
                       *, state: dict[str, Any] | None = None, timers: Sequence[Timer] | None = None,
                       host_id: int | None = None, notices: Sequence[tuple[str, dict[str, Any]]] = (),
                       computer: str | None = None) -> int:
        """Give a seat to another user (None: empty it, or ``computer``: a computer player of that level);
        optionally store the state with the new name, the turn's new timers, a new host and channel notices.
        The seat's pass mode is cleared (it was the previous holder's)."""
        fields: dict[str, Any] = {} if state is None else {"state": dumps(state)}
        if host_id is not None:
            fields["host_id"] = host_id
        async with self.transaction() as conn:
            version = await self._bump(conn, game_id, expected_version, self.clock(), **fields)
            count, _ = await run(conn, "UPDATE seats SET user_id = ?, name = ?, computer = ? WHERE game_id = ? AND "
                                 "seat = ?", (user_id, name, computer, game_id, seat))
            if count != 1:
                raise NotFound(f"game {game_id} has no seat {seat}")
            await run(conn, "DELETE FROM pass_modes WHERE game_id = ? AND seat = ?", (game_id, seat))
            if timers is not None:
                await _write_timers(conn, game_id, version, timers)
            await self._add_notices(conn, game_id, notices)
        return version

    async def set_status(self, game_id: int, expected_version: int, status: str,
                         notices: Sequence[tuple[str, dict[str, Any]]] = ()) -> int:
        """Change the status (e.g. to aborted; its timers and pass modes go); returns the new version."""
        async with self.transaction() as conn:
            version = await self._bump(conn, game_id, expected_version, self.clock(), status=status)
            if status not in OPEN_STATUSES:
                await run(conn, "DELETE FROM reminders WHERE game_id = ?", (game_id,))
                await run(conn, "DELETE FROM pass_modes WHERE game_id = ?", (game_id,))
            await self._add_notices(conn, game_id, notices)
            return version

    async def _add_notices(self, conn: aiosqlite.Connection, game_id: int,
                           notices: Sequence[tuple[str, dict[str, Any]]]) -> None:
        if notices:
            now = self.clock()
            await run_many(conn, "INSERT INTO notices (game_id, key, params, created_at) VALUES (?, ?, ?, ?)",
                           [(game_id, key, dumps(params), now) for key, params in notices])

    # --- the live board (what the channel must show; see bot.schema.LIVE_BOARD_SCHEMA) -----------
    async def games_to_show(self, limit: int = 500) -> list[int]:
        """Games whose channel is behind: a board or final scores to show, or notices to post."""
        rows = await self.fetch_all(
            "SELECT id FROM games WHERE (shown_version < version AND status != 'lobby') "
            "OR (status = 'finished' AND final_posted = 0) "
            "OR id IN (SELECT DISTINCT game_id FROM notices) ORDER BY id LIMIT ?", (limit,))
        return [r[0] for r in rows]

    async def notices(self, game_id: int) -> list[Notice]:
        rows = await self.fetch_all("SELECT id, game_id, key, params FROM notices WHERE game_id = ? ORDER BY id",
                                    (game_id,))
        return [Notice(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    async def drop_notice(self, notice_id: int) -> None:
        async with self.transaction() as conn:
            await run(conn, "DELETE FROM notices WHERE id = ?", (notice_id,))

    async def mark_shown(self, game_id: int, version: int, board_message_id: int | None) -> None:
        """The channel shows the board of ``version`` in ``board_message_id`` (no version change)."""
        async with self.transaction() as conn:
            await run(conn, "UPDATE games SET shown_version = MAX(shown_version, ?), board_message_id = ?, "
                      "board_problem = NULL WHERE id = ?", (version, board_message_id, game_id))

    async def set_turn_message(self, game_id: int, message_id: int | None, user_id: int | None) -> None:
        async with self.transaction() as conn:
            await run(conn, "UPDATE games SET turn_message_id = ?, turn_user_id = ? WHERE id = ?",
                      (message_id, user_id, game_id))

    async def set_final_posted(self, game_id: int) -> None:
        async with self.transaction() as conn:
            await run(conn, "UPDATE games SET final_posted = 1 WHERE id = ?", (game_id,))

    async def set_board_problem(self, game_id: int, problem: str | None) -> None:
        async with self.transaction() as conn:
            await run(conn, "UPDATE games SET board_problem = ? WHERE id = ?", (problem, game_id))

    # --- direct messages ------------------------------------------------------------------------
    async def dm_unreachable_since(self, user_id: int) -> float | None:
        """When Discord last refused a DM to the user because their DMs are closed (50007), else None."""
        row = await self._one("SELECT since FROM dm_unreachable WHERE user_id = ?", (user_id,))
        return float(row[0]) if row else None

    async def set_dm_unreachable(self, user_id: int, unreachable: bool) -> None:
        async with self.transaction() as conn:
            if unreachable:
                await run(conn, "INSERT OR REPLACE INTO dm_unreachable VALUES (?, ?)", (user_id, self.clock()))
            else:
                await run(conn, "DELETE FROM dm_unreachable WHERE user_id = ?", (user_id,))

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the message that shows the current board (no version change)."""
        async with self.transaction() as conn:
            await run(conn, "UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id))
