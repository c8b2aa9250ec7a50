"""What every part of the ``/petersburg`` cog shares: acknowledging, private answers, the error guard.

Acknowledge first: every handler defers before it reads the database or draws anything, so Discord's
3-second deadline holds under load. User mistakes (``UserError``, ``RuleError``) are answered privately in
the game's language; bugs are logged and never shown as tracebacks. Once an action is committed, no answer
may say that nothing changed (``after_commit``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import images
from bot.lobby import max_players, parts_of
from bot.service import GameService, UserError
from bot.store import LOBBY, DatabaseLost, DatabaseUnavailable, Game, Store
from bot.texts import hand_text
from bot.translator import locale_str as _
from rules import GameState, RuleError, view
from rules.i18n import error_text, language_of_locale, t

from .components import lobby_view

if TYPE_CHECKING:
    from bot.client import PetersburgBot

    from .board import BoardPoster
    from .dms import DirectMessages

log = logging.getLogger(__name__)

Interaction = discord.Interaction["PetersburgBot"]
NO_PINGS = discord.AllowedMentions.none()
ACK_WITHIN = 3.0  # seconds Discord allows for the first answer to an interaction
UNACKNOWLEDGED = "petersburg_unacknowledged"  # ``interaction.extras`` key set by ``defer`` when it failed
# ``/petersburg host …``: the host's commands (kick, replace, abort, settings, addbot), a subcommand group beside
# the other subcommands (Discord allows 25 in a group, and a group counts as one of them)
HOST = app_commands.Group(name="host", description=_("cmd.host"))


def lang_of(interaction: Interaction, game: Game | None = None, default: str = "en") -> str:
    """The language of an answer: a game speaks its own language (its board, its public messages and every
    private answer about it); an answer about no game is in the member's Discord language where the bot
    speaks it (a new lobby's language too, unless ``create`` names one), else ``default``."""
    if game is not None:
        return game.lang
    return language_of_locale(str(interaction.locale or "")) or default


class CogBase(commands.Cog):
    """Shared helpers of the cog's parts (``cogs.petersburg.Petersburg`` is made of them)."""

    bot: PetersburgBot
    poster: BoardPoster
    dms: DirectMessages

    if TYPE_CHECKING:  # made by another part of the cog (``cogs.social``)
        async def archive_threads(self) -> None: ...
        async def rename_thread(self, game: Game) -> None: ...
        async def refresh_boards(self, guild_id: int, user_id: int) -> None: ...
        async def reminder_dms(self, due: dict[int, list[tuple[Game, str, str]]]) -> None: ...
        async def run_tournaments(self) -> None: ...  # ``cogs.tournament_run``

    @property
    def service(self) -> GameService:
        assert self.bot.service is not None
        return self.bot.service

    @property
    def store(self) -> Store:
        assert self.bot.store is not None
        return self.bot.store

    @staticmethod
    def cid(interaction: Interaction) -> int:
        assert interaction.channel_id is not None
        return interaction.channel_id

    async def component_game(self, interaction: Interaction, game_id: int, *,
                             in_place: bool = False) -> tuple[Game | None, str]:
        """Acknowledge a component of game ``game_id`` (``defer``; ``in_place``: a component on a private
        message edits it), then load the game: it (None: there is none) and the language to answer in."""
        await self.defer(interaction, update=in_place and bool(interaction.message
                                                               and interaction.message.flags.ephemeral))
        game = await self.store.get_game(game_id)
        return game, lang_of(interaction, game)

    async def on_game(self, interaction: Interaction, game_id: int, work: Callable[[Game, str], Awaitable[None]], *,
                      in_place: bool = False) -> None:
        """A component of game ``game_id``: acknowledge (``component_game``), then ``work(game, lang)`` under
        ``guard`` (UserError ``no_game`` when the game is gone)."""
        game, lang = await self.component_game(interaction, game_id, in_place=in_place)
        await self.guard(interaction, lang, lambda: work(self.service.found(game), lang))

    async def defer(self, interaction: Interaction, *, update: bool = False) -> bool:
        """Acknowledge at once: ``update``, a component on a private menu, edits that menu in place; anything
        else is answered privately (a "thinking" answer that is edited afterwards). True once acknowledged.

        A failure Discord may get over (5xx, a time-out) is tried again as discord.py does (after 1 s, then
        3 s), but only while Discord's 3 s allow; otherwise the interaction is marked unacknowledged and
        ``guard`` then runs none of its work: a move the player is shown as failed is never applied,
        and their retry is a fresh move."""
        if interaction.response.is_done():
            return True
        if interaction.extras.get(UNACKNOWLEDGED):  # failed once already (a handler that defers twice)
            return False
        loop = asyncio.get_running_loop()
        began = loop.time()
        for attempt in range(5):
            try:
                if update and interaction.type == discord.InteractionType.component:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=True, thinking=True)
                return True
            except (discord.HTTPException, TimeoutError) as e:
                pause = 1 + 2 * attempt
                again = isinstance(e, TimeoutError) or e.status >= 500
                if not again or loop.time() - began + pause >= ACK_WITHIN:  # 10062: expired; 40060: answered
                    log.info("could not acknowledge interaction %s (%s): nothing is done for it",
                             interaction.id, e or type(e).__name__)
                    interaction.extras[UNACKNOWLEDGED] = True
                    return False
                await asyncio.sleep(pause)
        return False  # not reached: the last pause always passes the deadline

    async def private(self, interaction: Interaction, text: str, *, embed: discord.Embed | None = None,
                      file: discord.File | None = None, view: discord.ui.View | None = None) -> None:
        """A private answer, whether or not the interaction was acknowledged (a deferred one is edited)."""
        kw: dict[str, Any] = {"content": text[:2000]}
        if embed is not None:
            kw["embed"] = embed
        if view is not None:
            kw["view"] = view
        try:
            if not interaction.response.is_done():
                if file is not None:
                    kw["file"] = file
                await interaction.response.send_message(ephemeral=True, allowed_mentions=NO_PINGS, **kw)
                return
            kw["attachments"] = [file] if file is not None else []
            if view is None:
                kw["view"] = None
            await interaction.edit_original_response(allowed_mentions=NO_PINGS, **kw)
        except discord.HTTPException as e:
            if file is None or (e.status != 413 and e.code != 40005):  # 40005: request entity too large
                raise
            # the picture is too large for Discord: the text alone
            log.info("picture %s too large for interaction %s; answering with text", file.filename, interaction.id)
            if embed is not None and embed.image.url == f"attachment://{file.filename}":
                embed.set_image(url=None)
            await self.private(interaction, text, embed=embed, view=view)

    async def safe_private(self, interaction: Interaction, text: str) -> None:
        try:
            await self.private(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)

    async def guard(self, interaction: Interaction, lang: str, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work``; user mistakes become a private message, bugs are logged (never shown). Nothing runs for
        an interaction whose acknowledgement failed (``defer``): Discord has shown the player that it failed."""
        if interaction.extras.get(UNACKNOWLEDGED):
            await self._tell_not_done(interaction, lang)
            return
        try:
            await work()
        except (UserError, RuleError, DatabaseLost) as e:  # DatabaseLost: logged once by the store
            await self.safe_private(interaction, error_text(e.code, lang, **e.params))
        except DatabaseUnavailable as e:  # a server or connection lost: not a bug, nothing confirmed
            log.warning("database unavailable while handling %s by user %s: %s", interaction.data,
                        interaction.user.id, e)
            await self.safe_private(interaction, error_text(e.code, lang, **e.params))
        except Exception as e:
            log.exception("error handling %s by user %s", interaction.data, interaction.user.id)
            self.bot.record_bug(e)
            await self.safe_private(interaction, t("bot.bug", lang))

    async def _tell_not_done(self, interaction: Interaction, lang: str) -> None:
        """In case the acknowledgement did reach Discord after all (a time-out on the way back), its "thinking"
        answer says that nothing was done; normally Discord knows no such answer and this fails quietly."""
        with contextlib.suppress(discord.HTTPException, TimeoutError):
            await interaction.edit_original_response(content=t("bot.not_acknowledged", lang), view=None,
                                                     allowed_mentions=NO_PINGS)

    async def after_commit(self, interaction: Interaction, text: str, view: discord.ui.View | None = None) -> None:
        """The answer after a committed action: failures are logged, and never turn into "nothing changed"."""
        try:
            await self.private(interaction, text, view=view)
        except discord.HTTPException as e:
            log.info("could not confirm interaction %s (the action is stored): %s", interaction.id, e)
        except Exception as e:
            log.exception("confirming interaction %s failed (the action is stored)", interaction.id)
            self.bot.record_bug(e)

    async def channel_lang(self, interaction: Interaction, *, latest: bool = False, public: bool = False) -> str:
        """The language of the channel's open game (``latest``: else of its newest game), else the user's
        (``public``, an answer everyone in the channel sees: the bot's ``LANGUAGE``, never one member's)."""
        cid = self.cid(interaction)
        game = await (self.store.latest_game_in_channel(cid) if latest else self.store.open_game_in_channel(cid))
        if game is None and public:
            return self.bot.config.language
        return lang_of(interaction, game, self.bot.config.language)

    async def game_lang(self, interaction: Interaction, game_id: int) -> str:
        """The language of an answer about game ``game_id`` (``lang_of``; the member's where it is gone)."""
        return lang_of(interaction, await self.store.get_game(game_id), self.bot.config.language)

    async def on_channel_game(self, interaction: Interaction, work: Callable[[Game, str], Awaitable[None]], *,
                              latest: bool = False) -> None:
        """A command on the channel's game: acknowledge, then ``work(game, lang)`` under ``guard`` with the game
        open in the channel (``latest``: else its newest one) and the language to answer in."""
        await self.defer(interaction)
        lang = await self.channel_lang(interaction, latest=latest)

        async def run() -> None:
            cid = self.cid(interaction)
            await work(await (self.service.latest_in_channel(cid) if latest else self.service.game_in_channel(cid)),
                       lang)

        await self.guard(interaction, lang, run)

    async def channel_game(self, interaction: Interaction) -> tuple[Game | None, str]:
        """Acknowledge, then the game open in the interaction's channel and the language to answer in; when
        there is none, the player is told so privately and the game is None."""
        await self.defer(interaction)
        game = await self.store.open_game_in_channel(self.cid(interaction))
        lang = lang_of(interaction, game, self.bot.config.language)
        if game is None:
            await self.safe_private(interaction, error_text("no_game", lang))
        return game, lang

    def channel(self, game: Game) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    async def lobby_text(self, game: Game) -> str:
        lang = game.lang
        players = ", ".join(f"<@{s.user_id}>" if s.user_id else s.name for s in game.seats)
        money = t("bot.money_open" if game.ruleset.get("open_money", True) else "bot.money_hidden", lang)
        parts = ", ".join(t(f"bot.part_{x}", lang) for x in parts_of(game.ruleset))
        extras = ", " + t("bot.lobby_parts", lang, parts=parts) if parts else ""
        return t("bot.lobby", lang, host=f"<@{game.host_id}>", edition=game.ruleset.get("edition", 2),
                 money=money + extras, players=players, n=len(game.seats), max=max_players(game))

    def lobby_controls(self, game: Game) -> discord.ui.View:
        return lobby_view(game.id, game.lang, int(game.ruleset.get("edition", 2)), parts_of(game.ruleset))

    async def refresh_lobby(self, game: Game) -> None:
        if game.board_message_id is None or game.shown_version >= 0:
            return
        try:
            msg = self.channel(game).get_partial_message(game.board_message_id)
            if game.status == LOBBY:
                await msg.edit(content=await self.lobby_text(game), view=self.lobby_controls(game))
            else:
                await msg.edit(view=None)
        except discord.HTTPException as e:
            log.info("could not update lobby message of game %s: %s", game.id, e)

    async def push_hand(self, game: Game, st: GameState, seat: int) -> None:
        """DM a seat its hand (text, and the picture once drawn) in the background; never stalls the game."""
        uid = game.user_at(seat)
        if uid is None:
            return
        v = view(st, seat)
        text = t("bot.dm_hand", game.lang, channel=f"<#{game.channel_id}>", game=game.id) + "\n" + hand_text(
            v, game.lang)
        lang, pictures = game.lang, self.bot.config.render_images

        async def draw() -> tuple[str, bytes] | None:
            png = await images.hand_png(v, lang, background=True) if pictures else None
            return ("hand.png", png) if png is not None else None

        if await self.dms.reachable(uid):
            self.dms.push(uid, text, draw=draw)
