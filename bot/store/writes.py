"""The store's writes: each one transaction; every change to a game is guarded by its version."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..ratings import rate_finished
from ..schema import dumps, write_results
from ..timers import Timer
from .backend import Tx, fetch_one
from .core import StoreBase, shard_clause
from .rows import (
    ACTIVE,
    FINISHED,
    OPEN_STATUSES,
    TAKEBACK,
    ChannelBusy,
    Game,
    IntegrityError,
    NotFound,
    Seat,
    TimerRow,
)

_HANDS = "INSERT INTO hands VALUES (?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET cards = excluded.cards"


async def _write_timers(tx: Tx, game_id: int, version: int, timers: Sequence[Timer]) -> None:
    """Replace the game's timers by those of the turn at ``version``."""
    await tx.run("DELETE FROM reminders WHERE game_id = ?", (game_id,))
    await tx.executemany("INSERT INTO reminders (game_id, kind, version, seat, due_at, sent) VALUES (?, ?, ?, ?, ?, ?)",
                         [(game_id, tm.kind, version, tm.seat, tm.due_at, tm.sent) for tm in timers])


class StoreWrites(StoreBase):
    """Write transactions; see ``bot.store.Store``."""

    async def create_game(self, *, guild_id: int | None, channel_id: int, host_id: int, host_name: str,
                          ruleset: dict[str, Any], seed: int, lang: str, parent_id: int | None = None,
                          rematch_of: int | None = None, computers: Sequence[Seat] = (),
                          settings: dict[str, Any] | None = None) -> Game:
        """A new lobby with the host in seat 0 (and ``computers`` after it); ChannelBusy if the channel has an
        open game or ``rematch_of`` has an open rematch. ``parent_id``: the game's thread is in that channel."""
        now = self.clock()
        try:
            async with self.transaction() as tx:
                [(game_id,)] = await tx.fetch(
                    "INSERT INTO games (guild_id, channel_id, host_id, ruleset, seed, lang, status, version, "
                    "created_at, updated_at, parent_id, rematch_of, settings) "
                    "VALUES (?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?, ?, ?) RETURNING id",
                    (guild_id, channel_id, host_id, dumps(ruleset), seed, lang, now, now, parent_id, rematch_of,
                     dumps(settings) if settings else None))
                await tx.executemany("INSERT INTO seats (game_id, seat, user_id, name, computer) "
                                     "VALUES (?, ?, ?, ?, ?)", [(game_id, 0, host_id, host_name, None),
                                      *((game_id, n + 1, None, s.name, s.computer) for n, s in enumerate(computers))])
        except IntegrityError:
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
        async with self.transaction() as tx:
            version = await self._bump(tx, game_id, expected_version, self.clock(), **fields)
            await tx.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await tx.executemany("INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)",
                                 [(game_id, i, s.user_id, s.name, s.computer) for i, s in enumerate(seats)])
        return version

    async def start_game(self, game_id: int, expected_version: int, *, ruleset: dict[str, Any],
                         state: dict[str, Any], hands: dict[int, list[str]], timers: Sequence[Timer] = (),
                         notices: Sequence[tuple[str, dict[str, Any]]] = ()) -> int:
        """Lobby -> active with the initial state, the first turn's timers and channel notices; returns the new
        version."""
        async with self.transaction() as tx:
            version = await self._bump(tx, game_id, expected_version, self.clock(), status=ACTIVE,
                                       ruleset=dumps(ruleset), state=dumps(state))
            await tx.executemany(_HANDS,
                                   [(game_id, s, dumps(c)) for s, c in hands.items()])
            await _write_timers(tx, game_id, version, timers)
            await self._add_notices(tx, game_id, notices)
        return version

    async def record_action(self, game_id: int, expected_version: int, *, seat: int, user_id: int | None,
                            notation: str, events: list[dict[str, Any]], state: dict[str, Any],
                            hands: dict[int, list[str]], status: str = ACTIVE, auto: str | None = None,
                            timers: Sequence[Timer] = (), clear_pass: Sequence[int] = (),
                            notices: Sequence[tuple[str, dict[str, Any]]] = ()) -> int:
        """Store one accepted action atomically: new state and status, the action row (``auto``: why the bot
        took it), changed hands, the next turn's timers (replacing the old turn's), pass modes used up, the
        results and ratings (``bot.ratings``) when the game is over, and channel ``notices`` (text key,
        parameters) to post.

        Raises VersionConflict (nothing written) if the game moved on since ``expected_version``.
        """
        now = self.clock()
        async with self.transaction() as tx:
            version = await self._bump(tx, game_id, expected_version, now, state=dumps(state), status=status)
            await tx.run(
                "INSERT INTO actions (game_id, idx, seat, user_id, notation, events, created_at, auto, version) "
                "VALUES (?, (SELECT COUNT(*) FROM actions WHERE game_id = ?), ?, ?, ?, ?, ?, ?, ?)",
                (game_id, game_id, seat, user_id, notation, dumps(events), now, auto, expected_version))
            self._fault("action_written")
            if hands:
                await tx.executemany(_HANDS,
                                       [(game_id, s, dumps(c)) for s, c in hands.items()])
            self._fault("hands_written")
            await _write_timers(tx, game_id, version, timers if status == ACTIVE else ())
            if clear_pass:
                await tx.executemany("DELETE FROM pass_modes WHERE game_id = ? AND seat = ?",
                               [(game_id, s) for s in clear_pass])
            if status == FINISHED:
                await tx.execute("DELETE FROM pass_modes WHERE game_id = ?", (game_id,))
                await write_results(tx, game_id, state)
                await rate_finished(tx, game_id)
            await self._add_notices(tx, game_id, notices)
        return version

    async def take_back(self, game_id: int, expected_version: int, *, seat: int, user_id: int, first: int,
                        event: dict[str, Any], state: dict[str, Any], hands: dict[int, list[str]],
                        timers: Sequence[Timer] = (), pass_modes: dict[int, dict[str, Any]] | None = None) -> int:
        """Take back the game's actions from row ``first`` on (``bot.takeback``), atomically: the state before
        them, a new version (menus opened meanwhile are stale), their rows marked (kept for the log and the
        replay), the take-back's own row (``auto`` 'takeback', ``event`` its one event), the changed hands, the
        turn's timers and pass modes used up by the actions taken back given back (seat -> mode).

        Raises VersionConflict (nothing written) if the game moved on since ``expected_version``."""
        now = self.clock()
        async with self.transaction() as tx:
            version = await self._bump(tx, game_id, expected_version, now, state=dumps(state), status=ACTIVE)
            [(idx,)] = await tx.fetch("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,))
            undone = await tx.fetch("SELECT idx, events FROM actions WHERE game_id = ? AND idx >= ? AND taken_back IS "
                                    "NULL AND COALESCE(auto, '') <> ? ORDER BY idx", (game_id, first, TAKEBACK))
            marked = []
            for i, events in undone:  # the first event of each is marked for the log (rules.describe)
                evs = json.loads(events)
                if evs:
                    evs[0]["undone"] = True
                marked.append((idx, dumps(evs), game_id, i))
            await tx.executemany("UPDATE actions SET taken_back = ?, events = ? WHERE game_id = ? AND idx = ?", marked)
            await tx.run(
                "INSERT INTO actions (game_id, idx, seat, user_id, notation, events, created_at, auto, version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, idx, seat, user_id, TAKEBACK, dumps([event]), now, TAKEBACK, expected_version))
            if hands:
                await tx.executemany(_HANDS, [(game_id, s, dumps(c)) for s, c in hands.items()])
            await _write_timers(tx, game_id, version, timers)
            if pass_modes:
                await tx.executemany("INSERT INTO pass_modes VALUES (?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE "
                                     "SET autopass = excluded.autopass",
                                     [(game_id, s, dumps(m)) for s, m in pass_modes.items()])
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
        async with self.transaction() as tx:
            version = await self._bump(tx, game_id, expected_version, self.clock(), **fields)
            takeover = ", takeover = 1" if computer is not None else ""  # a computer takes over (bot.ratings)
            count = await tx.execute(f"UPDATE seats SET user_id = ?, name = ?, computer = ?{takeover} WHERE "
                                     "game_id = ? AND seat = ?", (user_id, name, computer, game_id, seat))
            if count != 1:
                raise NotFound(f"game {game_id} has no seat {seat}")
            await tx.execute("DELETE FROM pass_modes WHERE game_id = ? AND seat = ?", (game_id, seat))
            if timers is not None:
                await _write_timers(tx, game_id, version, timers)
            await self._add_notices(tx, game_id, notices)
        return version

    async def set_status(self, game_id: int, expected_version: int, status: str,
                         notices: Sequence[tuple[str, dict[str, Any]]] = ()) -> int:
        """Change the status (e.g. to aborted; its timers and pass modes go); returns the new version."""
        async with self.transaction() as tx:
            version = await self._bump(tx, game_id, expected_version, self.clock(), status=status)
            if status not in OPEN_STATUSES:
                await tx.execute("DELETE FROM reminders WHERE game_id = ?", (game_id,))
                await tx.execute("DELETE FROM pass_modes WHERE game_id = ?", (game_id,))
            await self._add_notices(tx, game_id, notices)
            return version

    async def _add_notices(self, tx: Tx, game_id: int,
                           notices: Sequence[tuple[str, dict[str, Any]]]) -> None:
        if notices:
            now = self.clock()
            await tx.executemany("INSERT INTO notices (game_id, key, params, created_at) VALUES (?, ?, ?, ?)",
                           [(game_id, key, dumps(params), now) for key, params in notices])

    # --- settings, timers, pass modes -------------------------------------------------------------
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        async with self.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE "
                      "SET settings = excluded.settings, updated_at = excluded.updated_at",
                      (guild_id, dumps(settings), self.clock()))

    async def set_game_settings(self, game_id: int, settings: dict[str, Any]) -> None:
        """The game's own timer settings (no version change: the board's buttons stay valid)."""
        async with self.transaction() as tx:
            await tx.execute("UPDATE games SET settings = ? WHERE id = ?", (dumps(settings), game_id))

    async def due_timers(self, now: float, limit: int = 50, *,
                         shards: tuple[Sequence[int], int] | None = None) -> list[TimerRow]:
        """Timers due at ``now`` whose turn is still current (stale ones are deleted), of the servers of
        ``shards`` = (shard ids, shard count) when given. Several pollers may see the same timer: acting on
        one starts with ``claim_timer`` (reminders) or the game's version check (time-outs)."""
        clause, params = shard_clause("g.guild_id", shards)
        async with self.transaction() as tx:
            await tx.execute("DELETE FROM reminders WHERE due_at <= ? AND NOT EXISTS (SELECT 1 FROM games g "
                      "WHERE g.id = reminders.game_id AND g.version = reminders.version AND g.status = 'active')",
                      (now,))
            rows = await tx.fetch(
                "SELECT r.game_id, r.kind, r.version, r.seat, r.due_at, r.sent FROM reminders r JOIN games g "
                f"ON g.id = r.game_id WHERE r.due_at <= ?{clause} ORDER BY r.due_at LIMIT ?", (now, *params, limit))
        return [TimerRow(*r) for r in rows]

    async def claim_timer(self, timer: TimerRow, next_due: float | None) -> bool:
        """Atomically take a due timer before acting on it: only if the game is still at its version and
        nobody claimed it meanwhile. It then repeats at ``next_due`` (None: it is deleted)."""
        where = ("game_id = ? AND kind = ? AND version = ? AND due_at = ? AND EXISTS (SELECT 1 FROM games g "
                 "WHERE g.id = reminders.game_id AND g.version = reminders.version AND g.status = 'active')")
        params = (timer.game_id, timer.kind, timer.version, timer.due_at)
        async with self.transaction() as tx:
            if next_due is None:
                count = await tx.execute(f"DELETE FROM reminders WHERE {where}", params)
            else:
                count = await tx.execute(f"UPDATE reminders SET sent = sent + 1, due_at = ? WHERE {where}",
                                     (next_due, *params))
        return count == 1

    async def reschedule(self, game_id: int, version: int, timers: Sequence[Timer]) -> bool:
        """Replace the timers of the current turn (after a settings change); False if the game moved on."""
        async with self.transaction() as tx:
            if await fetch_one(tx, "SELECT 1 FROM games WHERE id = ? AND version = ? AND status = 'active'",
                               (game_id, version)) is None:
                return False
            await _write_timers(tx, game_id, version, timers)
        return True

    async def set_pass_mode(self, game_id: int, seat: int, autopass: dict[str, Any] | None) -> None:
        """Store a seat's pass mode (None: clear it)."""
        async with self.transaction() as tx:
            if autopass is None:
                await tx.execute("DELETE FROM pass_modes WHERE game_id = ? AND seat = ?", (game_id, seat))
            else:
                await tx.execute("INSERT INTO pass_modes VALUES (?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE "
                                 "SET autopass = excluded.autopass",
                          (game_id, seat, dumps(autopass)))

    # --- the live board and direct messages ------------------------------------------------------
    async def drop_notice(self, notice_id: int) -> None:
        async with self.transaction() as tx:
            await tx.execute("DELETE FROM notices WHERE id = ?", (notice_id,))

    async def mark_shown(self, game_id: int, version: int, board_message_id: int | None) -> None:
        """The channel shows the board of ``version`` in ``board_message_id`` (no version change); a problem of
        the board is over (one of the turn message, ``turn:…``, stays until a turn message is posted). A turn
        told with no turn message in the channel (by DM, or to a player then seen playing live) was told for
        the version shown before: past it, the player to decide is untold (``cogs.board_turns``)."""
        await self.note("UPDATE games SET shown_version = CASE WHEN shown_version > ? THEN shown_version "
                         "ELSE ? END, board_message_id = ?, board_problem = CASE WHEN board_problem LIKE "
                         "'turn:%' THEN board_problem END, turn_user_id = CASE WHEN turn_message_id IS NULL "
                         "AND shown_version < ? THEN NULL ELSE turn_user_id END WHERE id = ?",
                         (version, version, board_message_id, version, game_id))

    async def set_turn_message(self, game_id: int, message_id: int | None, user_id: int | None) -> None:
        await self.note("UPDATE games SET turn_message_id = ?, turn_user_id = ? WHERE id = ?",
                         (message_id, user_id, game_id))

    async def set_final_posted(self, game_id: int) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE games SET final_posted = 1 WHERE id = ?", (game_id,))

    async def set_board_problem(self, game_id: int, problem: str | None) -> None:
        async with self.transaction() as tx:
            await tx.execute("UPDATE games SET board_problem = ? WHERE id = ?", (problem, game_id))

    # --- direct messages ------------------------------------------------------------------------
    async def set_dm_unreachable(self, user_id: int, unreachable: bool) -> None:
        async with self.transaction() as tx:
            if unreachable:
                await tx.execute("INSERT INTO dm_unreachable VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE "
                                 "SET since = excluded.since", (user_id, self.clock()))
            else:
                await tx.execute("DELETE FROM dm_unreachable WHERE user_id = ?", (user_id,))

    async def set_board_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the message that shows the current board (no version change)."""
        async with self.transaction() as tx:
            await tx.execute("UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id))
