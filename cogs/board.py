"""The live board: one message per game, kept current, and what else must reach the channel after a commit.

The store says what the channel must show (``Game.needs_board``: the game's version is ahead of the board
shown; stored notices; final scores not yet posted), in the same transaction as each commit. The poster
brings a channel up to date, one game at a time (a lock per game, and a claim in the database when several
processes share it: ``board_claim``), from the newest state:
- the board is edited in place while it is still among the channel's last few messages, else posted anew
  and the old one deleted; the old board keeps its buttons until the new one is there;
- the player to decide is pinged by one short turn message (``cogs.board_turns``);
- failures are retried with backoff (also after a restart: ``catch_up``), and what is wrong (a missing
  permission, the channel gone) is told once (``cogs.board_problems``).
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
from bot.social import away_marks
from bot.store import ABORTED, ACTIVE, FINISHED, DatabaseLost, Game
from bot.texts import final_text
from rules import GameState, view
from rules.i18n import t

from .board_claim import Busy, Claims
from .board_problems import NO_PINGS, Problem
from .board_turns import TurnMessages
from .presence import Presence
from .public import RECENT_ACTIONS, PublicBoard, embed_of, names_of, notice_text, public_board
from .replays import open_view
from .seen import SeenVersions

if TYPE_CHECKING:
    from bot.client import PetersburgBot

log = logging.getLogger(__name__)

NEAR = 4  # the board is edited in place while at most this many messages came after it
RETRY_FIRST, RETRY_MAX = 2.0, 300.0  # seconds between tries of a failing post (doubling)


class BoardPoster(TurnMessages):
    """Brings each game's channel up to date (``kick``: in the background, retrying until it works); see the
    module docstring."""

    def __init__(self, bot: PetersburgBot) -> None:
        super().__init__()
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._after: dict[int, set[int]] = {}  # channel -> ids of messages seen after its board
        self._boards: dict[int, int] = {}  # channel -> board message id (as this process knows it)
        self.presence = Presence(lambda: self.store.clock())
        self._wake_when: dict[int, float] = {}  # game -> a look again once a live player's window ends, when due
        self._waker: asyncio.Task[None] | None = None  # sleeps until the earliest of them (``_wake_at``)
        self._waker_until = 0.0  # when its current sleep ends
        self._own: set[int] = set()  # turn messages (not counted as pushing the board up)
        self.after_shown: Callable[[Game], None] | None = None  # e.g. a computer player's turn comes next
        self.claims = Claims(lambda: self.store)  # this process's board claims (several processes: board_claim)
        self._reposts: set[int] = set()  # games whose board a command asked to show anew, not done yet
        self.seen = SeenVersions()  # what players may have seen, for typed commands (cogs.seen)

    # --- scheduling -------------------------------------------------------------------------------
    async def show(self, game_id: int, *, repost: bool = False, refresh: bool = False,
                   within: float | None = None) -> Problem | None:
        """Bring the channel up to date now and say whether it worked (a failure is retried later).
        ``repost``: show the board anew at the bottom of the channel even if it is current; ``refresh``: draw
        it again where it is (something on it changed without a new version, e.g. a pass mode). ``within``:
        ``Busy`` when the channel could not be had in that many seconds (another attempt, maybe of another
        process, is updating it): the board is then shown in the background as asked."""
        try:
            await self._attempt(game_id, repost=repost, refresh=refresh, within=within)
        except Problem as p:
            self.kick(game_id)
            return p
        except Busy:
            if repost:
                self._reposts.add(game_id)
            self.kick(game_id)
            raise
        return None

    async def catch_up(self) -> None:
        """At startup: every game whose channel is behind (a crash between commit and post, a failure), of the
        servers of this process's shards (another process serves the others)."""
        await self.claims.start()  # registered before anything is claimed: a dead predecessor's claims are free
        shards = self.bot.shard_filter()
        for game_id in await self.store.games_to_show(shards=shards):
            self.kick(game_id)
        # a turn left untold: its next try (a transient failure), or a live player's wake, was in memory
        for game in await self.store.list_games(status=ACTIVE, limit=10_000, shards=shards):
            if game.turn_message_id is None and game.turn_user_id is None:
                self.kick(game.id)

    async def run(self, game_id: int) -> None:
        delay = RETRY_FIRST
        while True:
            self.again(game_id)  # the kicks so far are served by this round
            try:
                await self._attempt(game_id, repost=game_id in self._reposts)
                self._reposts.discard(game_id)
            except Problem:
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)
                continue
            except DatabaseLost:  # logged once by the store
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
    async def _attempt(self, game_id: int, *, repost: bool = False, refresh: bool = False,
                       within: float | None = None) -> None:
        async with self._held(game_id, within):
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
        pb = public_board(game, st, [(r.events, r.auto) for r in rows], modes, await away_marks(self.store, game))
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
        if game.turn_message_id is None and game.shown_version < game.version:
            game.turn_user_id = None  # told for an older turn, with nothing in the channel (as mark_shown)
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
        kw: dict[str, Any] = {"embed": embed, "view": open_view(game.id, game.lang)}
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

