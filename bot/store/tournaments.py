"""The store's tournaments: the tournament, its entrants, rounds and tables (``bot.schema_tournaments``).

Exactly once, across restarts and processes: a round is started by one transaction that moves
``tournaments.round`` on from the round it read (``start_round``: the loser of a race changes nothing) and
inserts the round with all its tables; a table's thread and game are each set once (``WHERE … IS NULL`` and
unique indexes), its game is created in the transaction that links it (``create_table_game``), its result
recorded once (``set_table_result``), and a round is done once (``finish_round``). On a shared database the
process creating a table's thread and game holds the table's claim (``claim_table``, as ``claim_board``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..schema import dumps
from ..timers import Timer
from .core import StoreBase, shard_clause
from .rows import ChannelBusy, IntegrityError, Result, Seat

SIGNUP, RUNNING, DONE, CANCELLED = "signup", "running", "finished", "cancelled"
T_COLS = ("id, guild_id, channel_id, host_id, name, format, settings, status, round, seed, message_id, "
          "standings_message_id, created_at, updated_at")
TABLE_COLS = "tournament_id, round, table_no, players, thread_id, game_id, result"


@dataclass(slots=True)
class Tournament:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    name: str
    format: str
    settings: dict[str, Any]
    status: str
    round: int
    seed: int
    message_id: int | None
    standings_message_id: int | None
    created_at: float
    updated_at: float


@dataclass(slots=True)
class Entrant:
    user_id: int
    name: str
    seed: int | None  # place in the rating order at the start
    dropped: int | None  # the round from which they are no longer drawn
    joined_at: float


@dataclass(slots=True)
class RoundRow:
    round: int
    stage: str
    byes: list[int]
    deadline: float
    started_at: float
    hurried: bool
    done: bool


@dataclass(slots=True)
class TableRow:
    tournament_id: int
    round: int
    table_no: int
    players: list[int]  # seat order
    thread_id: int | None
    game_id: int | None
    result: dict[str, Any] | None = field(default=None)


def _tournament(r: Sequence[Any]) -> Tournament:
    return Tournament(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7], r[8], r[9], r[10], r[11], r[12],
                      r[13])


def _table(r: Sequence[Any]) -> TableRow:
    return TableRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5], json.loads(r[6]) if r[6] else None)


class _Lost(Exception):
    """Rolls a transaction back: another process did it first."""


class StoreTournaments(StoreBase):
    """Tournaments; see the module docstring."""

    async def create_tournament(self, *, guild_id: int, channel_id: int, host_id: int, name: str, format: str,
                                settings: dict[str, Any], seed: int) -> Tournament:
        """A new tournament in sign-up; ChannelBusy when the channel has one open."""
        now = self.clock()
        try:
            async with self.transaction() as tx:
                [(tid,)] = await tx.fetch(
                    f"INSERT INTO tournaments ({T_COLS.removeprefix('id, ')}) VALUES "
                    "(?, ?, ?, ?, ?, ?, 'signup', 0, ?, NULL, NULL, ?, ?) RETURNING id",
                    (guild_id, channel_id, host_id, name, format, dumps(settings), seed, now, now))
        except IntegrityError:
            raise ChannelBusy(f"channel {channel_id} already has an open tournament") from None
        made = await self.get_tournament(int(tid))
        assert made is not None
        return made

    async def get_tournament(self, tid: int) -> Tournament | None:
        rows = await self.fetch_all(f"SELECT {T_COLS} FROM tournaments WHERE id = ?", (tid,))
        return _tournament(rows[0]) if rows else None

    async def open_tournament_in_channel(self, channel_id: int) -> Tournament | None:
        rows = await self.fetch_all(f"SELECT {T_COLS} FROM tournaments WHERE channel_id = ? AND status IN "
                                    "('signup', 'running')", (channel_id,))
        return _tournament(rows[0]) if rows else None

    async def latest_tournament_in_channel(self, channel_id: int) -> Tournament | None:
        rows = await self.fetch_all(f"SELECT {T_COLS} FROM tournaments WHERE channel_id = ? ORDER BY id DESC "
                                    "LIMIT 1", (channel_id,))
        return _tournament(rows[0]) if rows else None

    async def tournament_named(self, guild_id: int, name: str) -> Tournament | None:
        """The server's latest tournament of this name (any case), or None."""
        rows = await self.fetch_all(f"SELECT {T_COLS} FROM tournaments WHERE guild_id = ? AND LOWER(name) = LOWER(?) "
                                    "ORDER BY id DESC LIMIT 1", (guild_id, name.strip()))
        return _tournament(rows[0]) if rows else None

    async def tournaments_in(self, guild_id: int, limit: int = 25) -> list[Tournament]:
        """The server's tournaments, the latest first."""
        rows = await self.fetch_all(f"SELECT {T_COLS} FROM tournaments WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                                    (guild_id, limit))
        return [_tournament(r) for r in rows]

    async def running_tournaments(self, *, shards: tuple[Sequence[int], int] | None = None) -> list[Tournament]:
        """The tournaments in play (in the servers of ``shards`` when given), oldest first."""
        clause, params = shard_clause("guild_id", shards)
        rows = await self.fetch_all(f"SELECT {T_COLS} FROM tournaments WHERE status = 'running'{clause} "
                                    "ORDER BY id", params)
        return [_tournament(r) for r in rows]

    async def entrants(self, tid: int) -> list[Entrant]:
        """The entrants, in seed order once started (else in the order they joined)."""
        rows = await self.fetch_all("SELECT user_id, name, seed, dropped, joined_at FROM tournament_entrants "
                                    "WHERE tournament_id = ? ORDER BY COALESCE(seed, 0), joined_at, user_id",
                                    (tid,))
        return [Entrant(*r) for r in rows]

    async def add_entrant(self, tid: int, user_id: int, name: str, *, limit: int) -> bool:
        """Sign up (while the sign-up is open and fewer than ``limit`` have); False when nothing changed."""
        return await self.write(
            "INSERT INTO tournament_entrants (tournament_id, user_id, name, seed, dropped, joined_at) "
            "SELECT ?, ?, ?, NULL, NULL, ? WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = "
            "'signup') AND (SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = ?) < ? "
            "ON CONFLICT (tournament_id, user_id) DO NOTHING",
            (tid, user_id, name, self.clock(), tid, tid, limit)) == 1

    async def remove_entrant(self, tid: int, user_id: int) -> bool:
        """Leave during the sign-up; False when nothing changed."""
        return await self.write(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ? AND EXISTS "
            "(SELECT 1 FROM tournaments WHERE id = ? AND status = 'signup')", (tid, user_id, tid)) == 1

    async def drop_entrant(self, tid: int, user_id: int, from_round: int) -> bool:
        """An entrant is no longer drawn from ``from_round`` on; False when nothing changed."""
        return await self.write("UPDATE tournament_entrants SET dropped = ? WHERE tournament_id = ? AND "
                                "user_id = ? AND dropped IS NULL", (from_round, tid, user_id)) == 1

    async def set_tournament_status(self, tid: int, status: str, *, was: Sequence[str]) -> bool:
        marks = ", ".join("?" for _ in was)
        return await self.write(f"UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ? AND status IN "
                                f"({marks})", (status, self.clock(), tid, *was)) == 1

    async def set_tournament_settings(self, tid: int, settings: dict[str, Any]) -> bool:
        """New options, during the sign-up only."""
        return await self.write("UPDATE tournaments SET settings = ?, updated_at = ? WHERE id = ? AND status = "
                                "'signup'", (dumps(settings), self.clock(), tid)) == 1

    async def set_tournament_message(self, tid: int, *, announcement: int | None = None,
                                     standings: int | None = None) -> None:
        if announcement is not None:
            await self.write("UPDATE tournaments SET message_id = ? WHERE id = ?", (announcement, tid))
        if standings is not None:
            await self.write("UPDATE tournaments SET standings_message_id = ? WHERE id = ?", (standings, tid))

    # --- rounds and tables ---------------------------------------------------------------------------
    async def start_round(self, tid: int, *, after: int, stage: str, byes: Sequence[int],
                          tables: Sequence[Sequence[int]], deadline: float,
                          seeds: Sequence[int] | None = None) -> bool:
        """Round ``after + 1`` with its tables, exactly once: False when the tournament is no longer at round
        ``after`` (another process started it) or not open. ``seeds``: the entrants in seed order (round 1)."""
        now, rnd = self.clock(), after + 1
        try:
            async with self.transaction() as tx:
                moved = await tx.execute("UPDATE tournaments SET round = ?, status = 'running', updated_at = ? "
                                         "WHERE id = ? AND round = ? AND status IN ('signup', 'running')",
                                         (rnd, now, tid, after))
                if moved != 1:
                    raise _Lost
                await tx.execute("INSERT INTO tournament_rounds (tournament_id, round, stage, byes, deadline, "
                                 "started_at) VALUES (?, ?, ?, ?, ?, ?)",
                                 (tid, rnd, stage, dumps(list(byes)), deadline, now))
                await tx.executemany("INSERT INTO tournament_tables (tournament_id, round, table_no, players) "
                                     "VALUES (?, ?, ?, ?)",
                                     [(tid, rnd, i + 1, dumps(list(t))) for i, t in enumerate(tables)])
                if seeds is not None:
                    await tx.executemany("UPDATE tournament_entrants SET seed = ? WHERE tournament_id = ? AND "
                                         "user_id = ?", [(i + 1, tid, u) for i, u in enumerate(seeds)])
        except (_Lost, IntegrityError):
            return False
        return True

    async def rounds(self, tid: int) -> list[RoundRow]:
        rows = await self.fetch_all("SELECT round, stage, byes, deadline, started_at, hurried, done FROM "
                                    "tournament_rounds WHERE tournament_id = ? ORDER BY round", (tid,))
        return [RoundRow(r[0], r[1], json.loads(r[2]), r[3], r[4], bool(r[5]), bool(r[6])) for r in rows]

    async def tournament_tables(self, tid: int, rnd: int | None = None) -> list[TableRow]:
        where, params = ("tournament_id = ?", [tid]) if rnd is None else ("tournament_id = ? AND round = ?",
                                                                          [tid, rnd])
        rows = await self.fetch_all(f"SELECT {TABLE_COLS} FROM tournament_tables WHERE {where} "
                                    "ORDER BY round, table_no", params)
        return [_table(r) for r in rows]

    async def table_of_game(self, game_id: int) -> TableRow | None:
        rows = await self.fetch_all(f"SELECT {TABLE_COLS} FROM tournament_tables WHERE game_id = ?", (game_id,))
        return _table(rows[0]) if rows else None

    async def claim_table(self, t: TableRow, owner: str, seconds: float, *, stale: float = 15.0) -> bool:
        """Take the right to create the table's thread and game for ``seconds`` (as ``claim_board``)."""
        db_now = "EXTRACT(EPOCH FROM clock_timestamp())::double precision" if self.dialect == "postgresql" else \
            "((julianday('now') - 2440587.5) * 86400.0)"
        return await self.write(
            "UPDATE tournament_tables SET owner = ?, lease = ? WHERE tournament_id = ? AND round = ? AND "
            "table_no = ? AND game_id IS NULL AND (owner IS NULL OR owner = ? OR (owner NOT IN (SELECT id FROM "
            f"bot_processes WHERE dead = 0 AND beat_at >= {db_now} - ?) AND (lease < ? OR owner IN (SELECT id "
            "FROM bot_processes))))",
            (owner, self.clock() + seconds, t.tournament_id, t.round, t.table_no, owner, stale,
             self.clock())) == 1

    async def set_table_thread(self, t: TableRow, thread_id: int) -> bool:
        """The table's thread, set once; False when it had one already."""
        try:
            return await self.write("UPDATE tournament_tables SET thread_id = ? WHERE tournament_id = ? AND "
                                    "round = ? AND table_no = ? AND thread_id IS NULL",
                                    (thread_id, t.tournament_id, t.round, t.table_no)) == 1
        except IntegrityError:
            return False

    async def create_table_game(self, t: TableRow, *, guild_id: int, parent_id: int, seats: Sequence[Seat],
                                ruleset: dict[str, Any], seed: int, lang: str, state: dict[str, Any],
                                hands: dict[int, list[str]], timers: Sequence[Timer], settings: dict[str, Any],
                                notices: Sequence[tuple[str, dict[str, Any]]] = ()) -> int | None:
        """The table's game, started, in its thread, linked to the table in the same transaction: its id, or
        None when the table has a game already (or the thread an open one)."""
        from .writes import _HANDS, _write_timers

        assert t.thread_id is not None
        now = self.clock()
        host = next((s.user_id for s in seats if s.user_id is not None), seats[0].user_id)
        try:
            async with self.transaction() as tx:
                free = await tx.execute("UPDATE tournament_tables SET lease = lease WHERE tournament_id = ? AND "
                                        "round = ? AND table_no = ? AND game_id IS NULL",
                                        (t.tournament_id, t.round, t.table_no))
                if free != 1:
                    raise _Lost
                [(game_id,)] = await tx.fetch(
                    "INSERT INTO games (guild_id, channel_id, host_id, ruleset, seed, lang, status, version, state, "
                    "created_at, updated_at, parent_id, settings) VALUES (?, ?, ?, ?, ?, ?, 'active', 1, ?, ?, ?, ?, "
                    "?) RETURNING id",
                    (guild_id, t.thread_id, host, dumps(ruleset), seed, lang, dumps(state), now, now, parent_id,
                     dumps(settings) if settings else None))
                await tx.executemany("INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES "
                                     "(?, ?, ?, ?, ?)", [(game_id, s.seat, s.user_id, s.name, s.computer)
                                                         for s in seats])
                await tx.executemany(_HANDS, [(game_id, s, dumps(c)) for s, c in hands.items()])
                await _write_timers(tx, game_id, 1, timers)
                if notices:
                    await tx.executemany("INSERT INTO notices (game_id, key, params, created_at) VALUES "
                                         "(?, ?, ?, ?)", [(game_id, k, dumps(p), now) for k, p in notices])
                await tx.execute("UPDATE tournament_tables SET game_id = ?, owner = NULL, lease = NULL WHERE "
                                 "tournament_id = ? AND round = ? AND table_no = ?",
                                 (game_id, t.tournament_id, t.round, t.table_no))
        except (_Lost, IntegrityError):
            return None
        return int(game_id)

    async def tables_to_make(self, *, shards: tuple[Sequence[int], int] | None = None) -> list[TableRow]:
        """Tables of running tournaments' current rounds that have no game yet."""
        clause, params = shard_clause("t.guild_id", shards)
        rows = await self.fetch_all(
            f"SELECT {', '.join('x.' + c for c in TABLE_COLS.split(', '))} FROM tournament_tables x JOIN "
            "tournaments t ON t.id = x.tournament_id WHERE t.status = 'running' AND x.round = t.round AND "
            f"x.game_id IS NULL{clause} ORDER BY x.tournament_id, x.table_no", params)
        return [_table(r) for r in rows]

    async def tables_ended(self, *, shards: tuple[Sequence[int], int] | None = None) -> list[tuple[TableRow, str]]:
        """(table, its game's status) of tables whose game has ended and whose result is not recorded yet."""
        clause, params = shard_clause("t.guild_id", shards)
        rows = await self.fetch_all(
            f"SELECT {', '.join('x.' + c for c in TABLE_COLS.split(', '))}, g.status FROM tournament_tables x "
            "JOIN tournaments t ON t.id = x.tournament_id JOIN games g ON g.id = x.game_id WHERE t.status = "
            f"'running' AND x.result IS NULL AND g.status IN ('finished', 'aborted'){clause} "
            "ORDER BY x.tournament_id, x.round, x.table_no", params)
        return [(_table(r[:7]), str(r[7])) for r in rows]

    async def set_table_result(self, t: TableRow, result: dict[str, Any]) -> bool:
        """The table's result, recorded once; False when it had one."""
        return await self.write("UPDATE tournament_tables SET result = ? WHERE tournament_id = ? AND round = ? "
                                "AND table_no = ? AND result IS NULL",
                                (dumps(result), t.tournament_id, t.round, t.table_no)) == 1

    async def game_results(self, game_id: int) -> list[Result]:
        rows = await self.fetch_all("SELECT seat, user_id, name, vp, rubles, winner, computer FROM results "
                                    "WHERE game_id = ? ORDER BY seat", (game_id,))
        return [Result(r[0], r[1], r[2], r[3], r[4], bool(r[5]), r[6]) for r in rows]

    async def finish_round(self, tid: int, rnd: int) -> bool:
        """The round is done, once: True for the one call that marks it (every table has its result)."""
        return await self.write(
            "UPDATE tournament_rounds SET done = 1 WHERE tournament_id = ? AND round = ? AND done = 0 AND NOT "
            "EXISTS (SELECT 1 FROM tournament_tables WHERE tournament_id = ? AND round = ? AND result IS NULL)",
            (tid, rnd, tid, rnd)) == 1

    async def rounds_past_deadline(self, now: float, *, shards: tuple[Sequence[int], int] | None = None
                                   ) -> list[tuple[int, int]]:
        """(tournament, round) of rounds in play whose deadline has passed and whose games are not hurried yet."""
        clause, params = shard_clause("t.guild_id", shards)
        rows = await self.fetch_all(
            "SELECT r.tournament_id, r.round FROM tournament_rounds r JOIN tournaments t ON t.id = "
            f"r.tournament_id WHERE t.status = 'running' AND r.done = 0 AND r.hurried = 0 AND r.deadline <= ?{clause}",
            (now, *params))
        return [(int(r[0]), int(r[1])) for r in rows]

    async def claim_announcement(self, tid: int, rnd: int) -> bool:
        """True for the one call that may announce the round (whichever process started it)."""
        return await self.write("UPDATE tournament_rounds SET announced = 1 WHERE tournament_id = ? AND round = ? "
                                "AND announced = 0", (tid, rnd)) == 1

    async def set_hurried(self, tid: int, rnd: int) -> bool:
        return await self.write("UPDATE tournament_rounds SET hurried = 1 WHERE tournament_id = ? AND round = ? "
                                "AND hurried = 0", (tid, rnd)) == 1

    async def extend_round(self, tid: int, rnd: int, deadline: float) -> bool:
        return await self.write("UPDATE tournament_rounds SET deadline = ?, hurried = 0 WHERE tournament_id = ? "
                                "AND round = ? AND done = 0", (deadline, tid, rnd)) == 1
