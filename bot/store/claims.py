"""Board claims and the bot's processes on a shared database (PostgreSQL with several processes).

The board poster claims a game's channel for an attempt (``claim_board``: an owner and a lease in the game's
row), so two processes never post the same board, notice or turn message twice. The owner is a process
registered in ``bot_processes`` (``register_process``) that beats every few seconds (``beat``). A claim is
taken from another owner only when that owner cannot be posting any more:

- it is registered and marked dead (a process on the same machine saw that its pid has ended or belongs to
  another process now: ``mark_dead``), or its heartbeat is older than ``stale`` seconds (a process on another
  machine, or one that lost the database; it stops posting itself before that: ``cogs.board_claim``);
- it is not registered (a process of an older version, or a test's name) and its lease has run out.

A live, beating owner's claim is never taken, however long it holds it. Heartbeats use the database's clock,
so processes on machines whose clocks disagree still agree on whose heartbeat is stale.
"""

from __future__ import annotations

import uuid

from .core import StoreBase

FORGET_AFTER = 86_400.0  # seconds after its last heartbeat a process's row is deleted


class StoreClaims(StoreBase):
    """Board claims and process heartbeats; see the module docstring."""

    def _now_sql(self) -> str:
        """The database's clock in seconds since the epoch, as SQL."""
        if self.dialect == "postgresql":
            return "EXTRACT(EPOCH FROM clock_timestamp())::double precision"
        return "((julianday('now') - 2440587.5) * 86400.0)"

    async def claim_board(self, game_id: int, owner: str, seconds: float, *, stale: float = 15.0) -> bool:
        """Take the right to update the game's channel for ``seconds`` (several processes: one poster at a
        time per game); True when ``owner`` holds it (again) now. ``stale``: seconds without a heartbeat after
        which a registered owner counts as gone."""
        now, db_now = self.clock(), self._now_sql()
        count = await self.write(
            "UPDATE games SET board_owner = ?, board_lease = ? WHERE id = ? AND (board_owner IS NULL "
            "OR board_owner = ? OR (board_owner NOT IN (SELECT id FROM bot_processes WHERE dead = 0 AND "
            f"beat_at >= {db_now} - ?) AND (board_lease < ? OR board_owner IN (SELECT id FROM bot_processes))))",
            (owner, now + seconds, game_id, owner, stale, now))
        return count == 1

    async def release_board(self, game_id: int, owner: str) -> None:
        await self.note("UPDATE games SET board_owner = NULL, board_lease = NULL WHERE id = ? AND "
                         "board_owner = ?", (game_id, owner))

    # --- the processes ---------------------------------------------------------------------------
    async def register_process(self, machine: str, pid: int, started: str) -> str:
        """A new process (its first heartbeat now); returns its id. Rows of processes gone for a day go."""
        process_id = uuid.uuid4().hex
        db_now = self._now_sql()
        async with self.transaction() as tx:
            await tx.execute(f"DELETE FROM bot_processes WHERE beat_at < {db_now} - ?", (FORGET_AFTER,))
            await tx.execute(f"INSERT INTO bot_processes (id, machine, pid, started, beat_at, dead) "
                             f"VALUES (?, ?, ?, ?, {db_now}, 0)", (process_id, machine, pid, started))
        return process_id

    async def beat(self, process_id: str) -> bool:
        """The process's heartbeat; False when it has been marked dead (it must not post under its claims)."""
        return await self.write(f"UPDATE bot_processes SET beat_at = {self._now_sql()} WHERE id = ? AND dead = 0",
                                (process_id,)) == 1

    async def processes_on(self, machine: str) -> list[tuple[str, int, str]]:
        """(id, pid, start time) of the processes not marked dead on ``machine``."""
        rows = await self.fetch_all("SELECT id, pid, started FROM bot_processes WHERE machine = ? AND dead = 0",
                                    (machine,))
        return [(str(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def mark_dead(self, process_id: str) -> None:
        """The process has ended (seen by a process on its machine): its claims are free at once."""
        await self.write("UPDATE bot_processes SET dead = 1 WHERE id = ?", (process_id,))

    async def unregister_process(self, process_id: str) -> None:
        """A process that stops: its claims are released and its row goes."""
        async with self.transaction() as tx:
            await tx.execute("UPDATE games SET board_owner = NULL, board_lease = NULL WHERE board_owner = ?",
                             (process_id,))
            await tx.execute("DELETE FROM bot_processes WHERE id = ?", (process_id,))
