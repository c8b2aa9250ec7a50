"""The store's reads: games, actions, history, settings, timers, notices (no transaction needed)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .core import StoreBase, shard_clause
from .rows import ActionRow, FinishedGame, Game, Notice, Result, Standing, TimerRow


class StoreReads(StoreBase):
    """Read queries; see ``bot.store.Store``."""

    async def open_game_in_channel(self, channel_id: int) -> Game | None:
        """The game in the lobby or in play in this channel or thread, if any."""
        return await self._game_where("channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

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
            "SELECT game_id, idx, seat, user_id, notation, events, created_at, auto, taken_back FROM actions "
            "WHERE game_id = ? AND idx >= ? ORDER BY idx", (game_id, since))
        return [ActionRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7], r[8]) for r in rows]

    async def action_at(self, game_id: int, version: int) -> ActionRow | None:
        """The action applied to the game at ``version``, if one was and it stands (not taken back)."""
        rows = await self.fetch_all(
            "SELECT game_id, idx, seat, user_id, notation, events, created_at, auto FROM actions "
            "WHERE game_id = ? AND version = ? AND taken_back IS NULL", (game_id, version))
        if not rows:
            return None
        r = rows[0]
        return ActionRow(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], r[7])

    async def takeback_since(self, game_id: int, version: int) -> int | None:
        """The seat that took back a move at ``version`` or later (the newest such take-back), if one did."""
        row = await self._one("SELECT seat FROM actions WHERE game_id = ? AND auto = 'takeback' AND version >= ? "
                              "ORDER BY idx DESC LIMIT 1", (game_id, version))
        return int(row[0]) if row else None

    async def last_action_at(self, game_id: int, user_id: int) -> float | None:
        """When ``user_id`` last acted in the game themselves (not the bot for them), if ever."""
        row = await self._one("SELECT MAX(created_at) FROM actions WHERE game_id = ? AND user_id = ? AND auto IS NULL",
                              (game_id, user_id))
        return float(row[0]) if row and row[0] is not None else None

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

    async def next_due(self, *, shards: tuple[Sequence[int], int] | None = None) -> float | None:
        """When the earliest timer (of ``shards``' servers when given) is due (None: none). Cached until the
        next write when this process is the only writer, so polling is cheap; read anew on a shared database."""
        if self._next_due_known and not self.shared and shards is None:
            return self._next_due
        clause, params = shard_clause("g.guild_id", shards)
        row = await self._one(f"SELECT MIN(r.due_at) FROM reminders r JOIN games g ON g.id = r.game_id WHERE 1 = 1"
                              f"{clause}", params)
        due = float(row[0]) if row and row[0] is not None else None
        if shards is None:
            self._next_due, self._next_due_known = due, True
        return due

    async def timers(self, game_id: int) -> list[TimerRow]:
        rows = await self.fetch_all("SELECT game_id, kind, version, seat, due_at, sent FROM reminders "
                                    "WHERE game_id = ? ORDER BY kind", (game_id,))
        return [TimerRow(*r) for r in rows]

    async def pass_modes(self, game_id: int) -> dict[int, dict[str, Any]]:
        """Seat -> stored pass mode (``rules.autopass.AutoPass`` JSON)."""
        rows = await self.fetch_all("SELECT seat, autopass FROM pass_modes WHERE game_id = ?", (game_id,))
        return {r[0]: json.loads(r[1]) for r in rows}

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
        return [Standing(r[0], r[5], int(r[1]), int(r[2]), float(r[3]), int(r[4])) for r in rows]

    async def hands(self, game_id: int) -> dict[int, list[str]]:
        """Seat -> card type ids in hand (as of the last committed action)."""
        rows = await self.fetch_all("SELECT seat, cards FROM hands WHERE game_id = ?", (game_id,))
        return {r[0]: json.loads(r[1]) for r in rows}

    # --- the live board and direct messages ------------------------------------------------------
    async def games_to_show(self, limit: int = 500, *, shards: tuple[Sequence[int], int] | None = None) -> list[int]:
        """Games whose channel is behind: a board or final scores to show, or notices to post (only those in
        the servers of ``shards`` = (shard ids, shard count) when given)."""
        clause, params = shard_clause("guild_id", shards)
        rows = await self.fetch_all(
            "SELECT id FROM games WHERE ((shown_version < version AND status != 'lobby') "
            "OR (status = 'finished' AND final_posted = 0) "
            f"OR id IN (SELECT DISTINCT game_id FROM notices)){clause} ORDER BY id LIMIT ?", (*params, limit))
        return [r[0] for r in rows]

    async def notices(self, game_id: int) -> list[Notice]:
        rows = await self.fetch_all("SELECT id, game_id, key, params FROM notices WHERE game_id = ? ORDER BY id",
                                    (game_id,))
        return [Notice(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    async def dm_unreachable_since(self, user_id: int) -> float | None:
        """When Discord last refused a DM to the user because their DMs are closed (50007), else None."""
        row = await self._one("SELECT since FROM dm_unreachable WHERE user_id = ?", (user_id,))
        return float(row[0]) if row else None

