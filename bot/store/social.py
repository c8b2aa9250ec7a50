"""The store's queries for rematches, games in threads, a member's games and time away."""

from __future__ import annotations

from collections.abc import Sequence

from .core import StoreBase, shard_clause
from .rows import Game


class StoreSocial(StoreBase):
    """Rematch lobbies, threads to archive, a member's games and lobbies, time away; see ``bot.store.Store``."""

    async def open_rematch(self, game_id: int) -> Game | None:
        """The open lobby (or game) that is the rematch of ``game_id``, if any."""
        return await self._game_where("rematch_of = ? AND status IN ('lobby', 'active')", (game_id,))

    async def threads_to_archive(self, before: float, limit: int = 20, *,
                                 shards: tuple[Sequence[int], int] | None = None) -> list[tuple[int, int]]:
        """(game id, thread id) of games in threads of their own that ended before ``before`` and whose
        thread is not archived yet (finished games once their final scores are posted); only those in the
        servers of ``shards`` = (shard ids, shard count) when given."""
        clause, params = shard_clause("guild_id", shards)
        rows = await self.fetch_all(
            "SELECT id, channel_id FROM games WHERE parent_id IS NOT NULL AND archived = 0 AND updated_at < ? "
            f"AND (status = 'aborted' OR (status = 'finished' AND final_posted = 1)){clause} ORDER BY id LIMIT ?",
            (before, *params, limit))
        return [(int(r[0]), int(r[1])) for r in rows]

    async def set_archived(self, game_id: int) -> None:
        await self.note("UPDATE games SET archived = 1 WHERE id = ?", (game_id,))

    async def guild_open_games(self, guild_id: int, limit: int = 200) -> list[Game]:
        """The server's lobbies and games in play, oldest first."""
        rows = await self.fetch_all("SELECT id FROM games WHERE guild_id = ? AND status IN ('lobby', 'active') "
                                    "ORDER BY id LIMIT ?", (guild_id, limit))
        games = [await self.get_game(int(r[0])) for r in rows]
        return [g for g in games if g is not None]

    # --- time away --------------------------------------------------------------------------------------
    async def set_away(self, guild_id: int, user_id: int, until: float | None) -> bool:
        """The member is away from the server's games until ``until`` (None: back); whether a row changed."""
        async with self.transaction() as tx:
            if until is None:
                return await tx.execute("DELETE FROM away WHERE guild_id = ? AND user_id = ?",
                                        (guild_id, user_id)) > 0
            await tx.execute("INSERT INTO away VALUES (?, ?, ?) ON CONFLICT (guild_id, user_id) "
                             "DO UPDATE SET until = excluded.until", (guild_id, user_id, until))
        return True

    async def away_until(self, guild_id: int | None, user_ids: Sequence[int]) -> dict[int, float]:
        """Of ``user_ids``, who is away from the server's games now, and until when."""
        ids = [u for u in user_ids if u is not None]
        if guild_id is None or not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self.fetch_all(f"SELECT user_id, until FROM away WHERE guild_id = ? AND until > ? "
                                    f"AND user_id IN ({marks})", (guild_id, self.clock(), *ids))
        return {int(r[0]): float(r[1]) for r in rows}

    async def back_if_away(self, guild_id: int | None, user_id: int) -> bool:
        """The member acted in a game of the server: their time away ends (whether they were away). Read first:
        at almost every move nobody is away, and a write would cost a group commit of its own (SQLite: a trip
        to the write connection's thread for BEGIN and one for COMMIT, and a wait for the disk)."""
        if guild_id is None:
            return False
        if not await self.fetch_all("SELECT 1 FROM away WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)):
            return False
        return await self.write("DELETE FROM away WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)) > 0
