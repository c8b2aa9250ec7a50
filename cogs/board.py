"""The live board: one message per game, kept current, and what else must reach the channel after a commit.

The store says what the channel must show (``Game.needs_board``: the game's version is ahead of the board
shown; stored notices; final scores not yet posted), in the same transaction as each commit. The poster
brings a channel up to date, one game at a time (a lock per game, and a claim in the database when several
processes share it: ``board_claim``), from the newest state:
- the board is edited in place while it is still among the channel's last few messages, else posted anew
  and the old one deleted; the old board keeps its buttons until the new one is there;
- the player to decide is pinged by one short turn message, replaced when the turn passes to someone else;
  not while they play live (``cogs.presence``: then only once the live window has passed without a move),
  never for a computer player; when Discord refuses that message for good (e.g. a missing permission) the
  player is told by DM instead;
- failures are retried with backoff (also after a restart: ``catch_up``), and what is wrong (a missing
  permission, the channel gone) is told once to the channel, or to the host by DM when the channel itself
  is unusable.
Public messages are built from the spectator's view only (``rules.view(st, None)``): nothing secret.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot import images
from bot.ratings_view import final_rating_field
from bot.store import ABORTED, ACTIVE, FINISHED, DatabaseLost, Game
from bot.texts import final_text
from rules import GameState, view
from rules.i18n import t

from .board_claim import claimed, new_owner
from .dms import transient
from .presence import Presence
from .public import PublicBoard, embed_of, names_of, notice_text, public_board, turn_text
from .runner import PerGame
from .seen import SeenVersions

if TYPE_CHECKING:
    from bot.client import PetersburgBot

log = logging.getLogger(__name__)

NEAR = 4  # the board is edited in place while at most this many messages came after it
RECENT_ACTIONS = 6  # actions whose events the board lists (the rest: /petersburg log)
RETRY_FIRST, RETRY_MAX = 2.0, 300.0  # seconds between tries of a failing post (doubling)
PINGS = discord.AllowedMentions(users=True, roles=False, everyone=False)
NO_PINGS = discord.AllowedMentions.none()
MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL, UNKNOWN_MESSAGE = 50001, 50013, 10003, 10008
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


class Problem(Exception):
    """The channel could not be brought up to date; ``text`` says why for people."""

    def __init__(self, key: str, text: str, *, channel_usable: bool = True) -> None:
        super().__init__(key)
        self.key, self.text, self.channel_usable = key, text, channel_usable


class BoardPoster(PerGame):
    """Brings each game's channel up to date (``kick``: in the background, retrying until it works); see the
    module docstring."""

    def __init__(self, bot: PetersburgBot) -> None:
        super().__init__()
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._after: dict[int, set[int]] = {}  # channel -> ids of messages seen after its board
        self._boards: dict[int, int] = {}  # channel -> board message id (as this process knows it)
        self.presence = Presence(lambda: self.store.clock())
        self._wakes: dict[int, asyncio.Task[None]] = {}  # game -> a look again once a live player's window ends
        self._wake_when: dict[int, float] = {}  # game -> when that look is due
        self._sleeping_until: dict[int, float] = {}  # game -> when its task's current sleep ends
        self._own: set[int] = set()  # turn messages (not counted as pushing the board up)
        self.after_shown: Callable[[Game], None] | None = None  # e.g. a computer player's turn comes next
        self._owner = new_owner()  # this process's name in the games' board claims (bot.store: claim_board)
        self.seen = SeenVersions()  # what players may have seen, for typed commands (cogs.seen)

    @property
    def store(self) -> Any:
        assert self.bot.store is not None
        return self.bot.store

    # --- scheduling -------------------------------------------------------------------------------
    async def show(self, game_id: int, *, repost: bool = False, refresh: bool = False) -> Problem | None:
        """Bring the channel up to date now and say whether it worked (a failure is retried later).
        ``repost``: show the board anew at the bottom of the channel even if it is current; ``refresh``: draw
        it again where it is (something on it changed without a new version, e.g. a pass mode)."""
        try:
            await self._attempt(game_id, repost=repost, refresh=refresh)
        except Problem as p:
            self.kick(game_id)
            return p
        return None

    async def catch_up(self) -> None:
        """At startup: every game whose channel is behind (a crash between commit and post, a failure)."""
        for game_id in await self.store.games_to_show(shards=self.bot.shard_filter()):
            self.kick(game_id)
        if self.bot.config.live_minutes > 0:  # a turn left untold for a live player: its wake was in memory
            for game in await self.store.list_games(status=ACTIVE, limit=10_000):
                if game.turn_message_id is None and game.turn_user_id is None:
                    self.kick(game.id)

    async def run(self, game_id: int) -> None:
        delay = RETRY_FIRST
        while True:
            self.again(game_id)  # the kicks so far are served by this round
            try:
                await self._attempt(game_id)
            except Problem:
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)
                continue
            except DatabaseLost:  # logged once by the store (issue 17, item 3)
                return
            except Exception as e:  # a bug: logged, and the game is tried again later
                log.exception("bringing game %s up to date failed", game_id)
                self.bot.record_bug(e)
                return
            if not self.again(game_id):
                return

    # --- counting what pushes the board up ----------------------------------------------------------
    def saw(self, message: discord.Message) -> None:
        """A message arrived in some channel (gateway event): count it if it came after a board."""
        board = self._boards.get(message.channel.id)
        if board is None or message.id <= board or message.id in self._own:
            return
        after = self._after.setdefault(message.channel.id, set())
        if len(after) <= NEAR:
            after.add(message.id)

    async def _near_bottom(self, channel: discord.PartialMessageable, board_id: int) -> bool:
        """Whether the board is still among the channel's last few messages."""
        if self._boards.get(channel.id) == board_id:
            return len(self._after.get(channel.id, ())) <= NEAR
        try:  # not seen by this process (a restart): look
            ids = [m.id async for m in channel.history(limit=NEAR + 2)]
        except discord.HTTPException:
            return False
        if board_id not in ids:
            return False
        newer = {i for i in ids if i > board_id} - self._own
        self._boards[channel.id] = board_id
        self._after[channel.id] = newer
        return len(newer) <= NEAR

    def _placed(self, channel_id: int, board_id: int) -> None:
        if self._boards.get(channel_id) != board_id:
            self._boards[channel_id] = board_id
            self._after[channel_id] = set()

    # --- one attempt ------------------------------------------------------------------------------
    async def remind(self, game_id: int, version: int, text: str, user_id: int) -> bool:
        """A reminder replaces the turn message (pinging again), so reminders do not pile up either. Only while
        the game is still at ``version`` (the turn the reminder was for); False when it moved on."""
        async with self._locks.setdefault(game_id, asyncio.Lock()), claimed(self.store, game_id, self._owner):
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

    async def _attempt(self, game_id: int, *, repost: bool = False, refresh: bool = False) -> None:
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock, claimed(self.store, game_id, self._owner):
            game = await self.store.get_game(game_id)
            if game is None:
                return
            channel = self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)
            try:
                for notice in await self.store.notices(game.id):
                    await self._send(game, channel, notice_text(game, notice))
                    await self.store.drop_notice(notice.id)
                if game.needs_board() or ((repost or refresh) and game.status == ACTIVE):
                    if game.status == ABORTED:
                        await self._retire(game, channel)
                    elif game.state is not None:
                        await self._board(game, channel, repost=repost)
                elif game.status == ACTIVE and game.state is not None:  # the turn not told yet (a retry, a wake)
                    await self._turn(game, channel, GameState.from_json(game.state), reposted=False, untold_only=True)
                if game.status == FINISHED and not game.final_posted:
                    await self._final(game, channel)
            except Problem as p:
                self.seen.not_shown(game.id)
                await self._tell(game, channel, p)
                raise
        if game.status == ACTIVE and self.after_shown is not None:
            self.after_shown(game)

    async def _board(self, game: Game, channel: discord.PartialMessageable, *, repost: bool = False) -> None:
        """Show the board of the game's version (edit in place or post anew), then the turn message."""
        st = GameState.from_json(game.state or {})
        rows = await self.store.recent_actions(game.id, RECENT_ACTIONS)
        modes = await self.bot.service.pass_modes(game.id) if self.bot.service is not None else {}
        pb = public_board(game, st, [(r.events, r.auto) for r in rows], modes)
        png = await images.board_png(pb.spectator, game.lang, pb.last_action) if self.bot.config.render_images \
            else None
        old = game.board_message_id if game.shown_version >= 0 else None
        board_id: int | None = None
        self.seen.showing(game.id, game.version)  # visible from the edit on, stored as shown after it
        if old is not None and not repost and await self._near_bottom(channel, old):
            board_id = await self._edit_board(channel, old, pb, png)
        if board_id is None:
            board_id = await self._post_board(game, channel, pb, png)
            if old is not None:
                await self._remove(channel, old, game)
            elif game.board_message_id is not None:  # the lobby, or a board of the bot's older kind
                await self._strip(channel, game.board_message_id, game)
        self._placed(game.channel_id, board_id)
        await self.store.mark_shown(game.id, game.version, board_id)
        game.board_message_id, game.shown_version = board_id, game.version
        await self._turn(game, channel, st, reposted=board_id != old)

    async def _edit_board(self, channel: discord.PartialMessageable, board_id: int, pb: PublicBoard,
                          png: bytes | None) -> int | None:
        """Edit the board in place; None when it is gone (post anew). Other failures are a Problem."""
        embed = pb.embed.copy()
        files = []
        if png is not None:
            files = [discord.File(io.BytesIO(png), filename="board.png")]
            embed.set_image(url="attachment://board.png")
        try:
            await channel.get_partial_message(board_id).edit(content="", embed=embed, attachments=files, view=pb.view)
        except discord.NotFound:
            return None
        except discord.HTTPException as e:
            if png is not None and e.status in (403, 413):
                return await self._edit_board(channel, board_id, pb, None)
            raise self._problem(channel, e) from None
        return board_id

    async def _post_board(self, game: Game, channel: discord.PartialMessageable, pb: PublicBoard,
                          png: bytes | None) -> int:
        embed = pb.embed.copy()
        kw: dict[str, Any] = {}
        if png is not None:
            kw["file"] = discord.File(io.BytesIO(png), filename="board.png")
            embed.set_image(url="attachment://board.png")
        try:
            msg = await channel.send(embed=embed, view=pb.view, allowed_mentions=NO_PINGS, **kw)
        except discord.HTTPException as e:
            if png is not None and e.status in (403, 413):  # no Attach Files, or too large: the text board
                if e.status == 403:
                    await self._tell(game, channel, self._problem(channel, e))
                return await self._post_board(game, channel, pb, None)
            raise self._problem(channel, e) from None
        return msg.id

    async def _remove(self, channel: discord.PartialMessageable, message_id: int, game: Game) -> None:
        """Delete an old board (or at least take its buttons off)."""
        msg = channel.get_partial_message(message_id)
        try:
            await msg.delete()
            return
        except discord.NotFound:
            return
        except discord.HTTPException as e:
            log.info("could not delete old board %s of game %s: %s", message_id, game.id, e)
        await self._strip(channel, message_id, game)

    async def _strip(self, channel: discord.PartialMessageable, message_id: int, game: Game) -> None:
        try:
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as e:
            log.info("could not clear message %s of game %s: %s", message_id, game.id, e)

    async def _turn(self, game: Game, channel: discord.PartialMessageable, st: GameState, *, reposted: bool,
                    untold_only: bool = False) -> None:
        """One turn message pinging the player to decide, replaced when that changes (none at the end, none for a
        computer player, none while the player plays live). ``untold_only``: only if this turn was not told yet.

        A transient failure (5xx, 429) is a Problem (the poster tries again); a lasting one (e.g. 403) tells the
        player by DM instead and whoever is told of the board's problems, once."""
        text, uid = (None, None) if st.finished else turn_text(game, st)
        # told already: this player was pinged (or told another way); or, with nobody to ping, the channel
        # holds the waiting message exactly when there is one to hold
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
        try:
            msg = await channel.send(text[:2000], allowed_mentions=PINGS)
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
        for task in self._wakes.values():
            task.cancel()
        self._wakes.clear()
        self._wake_when.clear()
        self._sleeping_until.clear()

    def _wake_at(self, game_id: int, when: float) -> None:
        """Look at the game again at ``when`` (a live player's window ends: ping them if they have not moved).

        One sleeping task per game at most: a later ``when`` (the usual case, a move of a live player) only
        moves the target, and the task sleeps on when it wakes early; only an earlier one replaces the task.
        Cancelling and creating a task at every move left a cancelled timer behind at every move."""
        self._wake_when[game_id] = when
        task = self._wakes.get(game_id)
        if task is not None and not task.done() and self._sleeping_until.get(game_id, when) <= when:
            return
        if task is not None:
            task.cancel()

        async def wake() -> None:
            while True:
                target = self._wake_when.get(game_id)
                if target is None:
                    return
                delay = target - self.store.clock()
                if delay < 0:
                    break
                self._sleeping_until[game_id] = target
                await asyncio.sleep(delay + 1.0)
            self._wakes.pop(game_id, None)
            self._wake_when.pop(game_id, None)
            self._sleeping_until.pop(game_id, None)
            self.kick(game_id)

        self._wakes[game_id] = asyncio.create_task(wake())

    async def _remove_quietly(self, channel: discord.PartialMessageable, message_id: int) -> None:
        self._own.discard(message_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException as e:
            log.info("could not delete message %s: %s", message_id, e)

    async def _retire(self, game: Game, channel: discord.PartialMessageable) -> None:
        """An aborted game: its board loses its buttons, its turn message goes."""
        if game.board_message_id is not None:
            await self._strip(channel, game.board_message_id, game)
        if game.turn_message_id is not None:
            await self._remove_quietly(channel, game.turn_message_id)
            await self.store.set_turn_message(game.id, None, None)
        await self.store.mark_shown(game.id, game.version, game.board_message_id)

    async def _final(self, game: Game, channel: discord.PartialMessageable) -> None:
        st = GameState.from_json(game.state or {})
        v = view(st, None)
        embed = embed_of(final_text(v, game.lang, names_of(game)), colour=0xD69E2E)
        ratings = await final_rating_field(self.store, game, game.lang)  # bot.ratings_view
        if ratings is not None:
            embed.add_field(name=ratings[0], value=ratings[1], inline=False)
        kw: dict[str, Any] = {"embed": embed}
        if self.bot.config.render_images:
            png = await images.final_png(v, game.lang)
            if png is not None:
                kw["file"] = discord.File(io.BytesIO(png), filename="final.png")
                embed.set_image(url="attachment://final.png")
        await self._send(game, channel, t("bot.final_intro", game.lang), **kw)
        await self.store.set_final_posted(game.id)

    async def _send(self, game: Game, channel: discord.PartialMessageable, text: str, **kw: Any) -> discord.Message:
        try:
            msg = await channel.send(text[:2000], allowed_mentions=NO_PINGS, **kw)
        except discord.HTTPException as e:
            if "file" in kw and e.status in (403, 413):
                kw.pop("file")
                kw["embed"].set_image(url=None)
                return await self._send(game, channel, text, **kw)
            raise self._problem(channel, e) from None
        return msg

    # --- telling people what is wrong ---------------------------------------------------------------
    def _problem(self, channel: discord.PartialMessageable, e: discord.HTTPException) -> Problem:
        if e.status == 404 or e.code in (MISSING_ACCESS, UNKNOWN_CHANNEL):
            return Problem("channel", f"{e.status} {e.code}", channel_usable=False)
        if e.status == 403:
            missing = self._missing(channel.id)
            return Problem("perm:" + ",".join(missing), f"{e.status} {e.text or e.code}",
                           channel_usable=bool(missing) and "send_messages" not in missing
                           and "view_channel" not in missing)
        return Problem(f"http:{e.status}", f"{e.status} {e.code}")

    def _missing(self, channel_id: int) -> list[str]:
        """The permissions the bot lacks in the channel (when the channel is cached), in Discord's words."""
        ch = self.bot.get_channel(channel_id)
        guild = getattr(ch, "guild", None)
        me = getattr(guild, "me", None)
        if ch is None or me is None or not hasattr(ch, "permissions_for"):
            return []
        perms = ch.permissions_for(me)
        return [p for p in NEEDED if not getattr(perms, p)]

    @staticmethod
    def _reason(p: Problem, lang: str) -> str:
        """Why, for people: the missing permissions by name; when the bot cannot see which (its view of the
        channel's permissions allows everything, e.g. an overwrite it has not seen), Discord's answer and the
        permissions it needs."""
        key = p.key.removeprefix("turn:")
        if not key.startswith("perm:"):
            return p.text
        missing = [x for x in key.removeprefix("perm:").split(",") if x] or list(NEEDED)
        names = ", ".join(t(f"perm.{x}", lang) for x in missing)
        return names if key != "perm:" else t("bot.perm_unknown", lang, error=p.text, needed=names)

    async def _tell(self, game: Game, channel: discord.PartialMessageable, p: Problem) -> None:
        """Say once (per kind of problem) what keeps the board from showing: in the channel if it can be used,
        else to the host by DM."""
        if game.board_problem == p.key or p.key.removeprefix("turn:").startswith("http:5"):
            return  # told already, or Discord's own trouble (retried quietly)
        await self.store.set_board_problem(game.id, p.key)
        game.board_problem = p.key
        text = t("bot.turn_problem" if p.key.startswith("turn:") else "bot.board_problem", game.lang, game=game.id,
                 channel=f"<#{game.channel_id}>", problem=self._reason(p, game.lang))
        if p.channel_usable:
            try:
                await channel.send(text[:2000], allowed_mentions=NO_PINGS)
                return
            except discord.HTTPException:
                pass
        cog = self.bot.get_cog("Petersburg")
        dms = getattr(cog, "dms", None)
        if dms is not None:
            await dms.send(game.host_id, text, force=True)
