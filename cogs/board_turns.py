"""The turn message of the board poster (``cogs.board``): the player to decide is pinged by one short
message, replaced when the turn passes to someone else (and by each reminder, so they do not pile up either);
not while they play live (``cogs.presence``: then only once the live window has passed without a move, a look
again at that time), never for a computer player; when Discord refuses that message for good (e.g. a missing
permission) the player is told by DM instead, for that turn: a turn told with no message in the channel is
told for the version shown then (``Store.mark_shown`` makes the next version's player to decide untold), so
the player's next turn, deciding again included, tries the channel first.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from bot.store import ACTIVE, Game
from rules import GameState
from rules.i18n import t

from .board_claim import Busy, Claims
from .board_problems import NO_PINGS, BoardProblems, Problem
from .dms import transient
from .presence import Presence
from .public import turn_text
from .runner import PerGame

log = logging.getLogger(__name__)

PINGS = discord.AllowedMentions(users=True, roles=False, everyone=False)


class TurnMessages(BoardProblems, PerGame):
    """The board poster's part that pings the player to decide (``BoardPoster`` is made of it)."""

    _locks: dict[int, asyncio.Lock]
    _after: dict[int, set[int]]
    _own: set[int]
    claims: Claims
    presence: Presence
    _waker: asyncio.Task[None] | None
    _waker_until: float
    _wake_when: dict[int, float]

    async def remind(self, game_id: int, version: int, text: str, user_id: int) -> bool:
        """A reminder replaces the turn message (pinging again), so reminders do not pile up either. Only while
        the game is still at ``version`` (the turn the reminder was for); False when it moved on."""
        async with self._held(game_id):
            game = await self.store.get_game(game_id)
            if game is None or game.version != version or game.status != ACTIVE:
                return False
            channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            if game.turn_message_id is not None:
                await self._remove_quietly(channel, game.turn_message_id)
            new_id = None
            try:
                msg = await channel.send(text[:2000], allowed_mentions=PINGS)
                new_id = msg.id
                self._own.add(msg.id)
                self._after.get(game.channel_id, set()).discard(msg.id)
            except discord.HTTPException as e:
                log.warning("could not post the reminder of game %s: %s", game.id, e)
            await self.store.set_turn_message(game.id, new_id, user_id)
            return True

    @asynccontextmanager
    async def _held(self, game_id: int, within: float | None = None) -> AsyncIterator[None]:
        """The game's channel for this attempt: its lock in this process, then its claim in the database
        (``Busy`` when not had within ``within`` seconds)."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        start = time.monotonic()
        if within is None:
            await lock.acquire()
        else:
            try:
                await asyncio.wait_for(lock.acquire(), within)
            except TimeoutError:
                raise Busy(f"game {game_id}") from None
        try:
            left = None if within is None else max(0.0, within - (time.monotonic() - start))
            async with self.claims.claimed(game_id, within=left):
                yield
        finally:
            lock.release()

    async def _turn(self, game: Game, channel: discord.PartialMessageable, st: GameState, *, reposted: bool,
                    untold_only: bool = False) -> None:
        """One turn message pinging the player to decide, replaced when that changes (none at the end, none for a
        computer player, none while the player plays live). ``untold_only``: only if this turn was not told yet.

        A transient failure (5xx, 429) is a Problem (the poster tries again); a lasting one (e.g. 403) tells the
        player by DM instead and whoever is told of the board's problems, once."""
        text, uid = (None, None) if st.finished else turn_text(game, st)
        # told already: this player was pinged (or told another way at this version: see the module docstring);
        # or, with nobody to ping, the channel holds the waiting message exactly when there is one to hold
        told = uid == game.turn_user_id and (uid is not None or (text is None) == (game.turn_message_id is None))
        if told and (untold_only or not reposted):
            return
        live_until = await self._live_until(game, uid) if uid is not None else None
        if game.turn_message_id is not None:
            await self._remove_turn(channel, game)
        if text is None or live_until is not None:
            keep = uid if told else None  # told already (and reposted): stays told
            if game.turn_message_id is not None or game.turn_user_id != keep:
                await self.store.set_turn_message(game.id, None, keep)
                game.turn_message_id, game.turn_user_id = None, keep
            if live_until is not None and keep is None:
                self._wake_at(game.id, live_until)
            return
        # a member away from the server's games (``/petersburg away``) is named but not pinged: no reminders
        away = uid is not None and uid in await self.store.away_until(game.guild_id, [uid])
        try:
            msg = await channel.send(text[:2000], allowed_mentions=NO_PINGS if away else PINGS)
        except discord.HTTPException as e:
            if game.turn_user_id is not None:
                await self.store.set_turn_message(game.id, None, None)
                game.turn_user_id = None
            if transient(e):
                raise Problem(f"http:{e.status}", f"{e.status} {e.text}") from None
            log.warning("could not post the turn message of game %s: %s", game.id, e)
            if uid is not None:
                await self._turn_elsewhere(game, channel, uid, e)
            return
        self._own.add(msg.id)
        self._after.get(game.channel_id, set()).discard(msg.id)
        await self.store.set_turn_message(game.id, msg.id, uid)
        game.turn_message_id, game.turn_user_id = msg.id, uid
        if game.board_problem is not None and game.board_problem.startswith("turn:"):
            await self.store.set_board_problem(game.id, None)  # it works again
            game.board_problem = None

    async def _remove_turn(self, channel: discord.PartialMessageable, game: Game) -> None:
        """Delete the game's turn message; a transient failure is a Problem (tried again, so the channel never
        keeps two), a lasting one leaves it (logged)."""
        assert game.turn_message_id is not None
        try:
            await channel.get_partial_message(game.turn_message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as e:
            if transient(e):
                raise Problem(f"http:{e.status}", f"{e.status} {e.text}") from None
            log.info("could not delete turn message %s of game %s: %s", game.turn_message_id, game.id, e)
        self._own.discard(game.turn_message_id)
        await self.store.set_turn_message(game.id, None, None)
        game.turn_message_id, game.turn_user_id = None, None

    async def _turn_elsewhere(self, game: Game, channel: discord.PartialMessageable, uid: int,
                              error: discord.HTTPException) -> None:
        """The turn message cannot be posted: the player is told by DM (unless their DMs are closed; the board
        still names them), and the problem is reported once like the board's."""
        cog = self.bot.get_cog("Petersburg")
        dms = getattr(cog, "dms", None)
        if dms is not None:
            await dms.send(uid, t("bot.turn_dm", game.lang, channel=f"<#{game.channel_id}>", game=game.id))
        await self.store.set_turn_message(game.id, None, uid)
        game.turn_message_id, game.turn_user_id = None, uid
        p = self._problem(channel, error)
        await self._tell(game, channel, Problem("turn:" + p.key, p.text, channel_usable=p.channel_usable))

    async def _live_until(self, game: Game, uid: int) -> float | None:
        """Until when ``uid`` counts as playing live in the game (None: away). See ``cogs.presence``."""
        window = 60.0 * self.bot.config.live_minutes
        if window <= 0:
            return None
        now = self.store.clock()
        seen = self.presence.last_seen(game.channel_id, uid)
        if seen is not None and seen + window > now:  # seen here lately: no need to read the action log
            return seen + window
        acted = await self.store.last_action_at(game.id, uid)  # another process, or before a restart
        until = max(x for x in (seen, acted, now - window) if x is not None) + window
        return until if until > now else None

    def stop(self) -> None:
        """The bot closes: no more looks again."""
        if self._waker is not None:
            self._waker.cancel()
        self._waker = None
        self._wake_when.clear()

    def _wake_at(self, game_id: int, when: float) -> None:
        """Look at the game again at ``when`` (a live player's window ends: ping them if they have not moved).

        One sleeping task for every game (``_wakes_due``), asleep until the earliest look is due: a move of a
        live player only moves its game's look later, and only a look earlier than that sleep's end wakes the
        task anew. A task (and a timer) a game would keep one timer per live game pending, which every timer
        callback of the loop's harness in the load benchmarks searches (SimCord keeps the bot's timers in a
        list)."""
        self._wake_when[game_id] = when
        task = self._waker
        if task is not None and not task.done():
            if self._waker_until <= when:
                return
            task.cancel()
        self._waker_until = when  # the new task sleeps until the earliest look, this one at the latest
        self._waker = asyncio.create_task(self._wakes_due())

    async def _wakes_due(self) -> None:
        """Kick each game whose look again is due, then sleep until the next one (none left: the task ends)."""
        while self._wake_when:
            now = self.store.clock()
            for game_id in [g for g, when in self._wake_when.items() if when < now]:
                del self._wake_when[game_id]
                self.kick(game_id)
            if not self._wake_when:
                break
            self._waker_until = min(self._wake_when.values())
            await asyncio.sleep(self._waker_until - now + 1.0)
        self._waker = None

    async def _remove_quietly(self, channel: discord.PartialMessageable, message_id: int) -> None:
        self._own.discard(message_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as e:
            log.info("could not delete message %s: %s", message_id, e)
