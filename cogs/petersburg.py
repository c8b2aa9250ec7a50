"""The ``/petersburg`` command group and the board's buttons: parse input, call the game service (which
calls the rules core and persists), render, reply. No rules here: choices come from rules.legal_moves
and every action is validated by rules.apply."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import images
from bot.client import PetersburgBot
from bot.lobby import COMPUTER_LEVELS, max_players, parts_of
from bot.service import UserError
from bot.store import ACTIVE, LOBBY, Game
from bot.texts import card_text, hand_text
from bot.translator import locale_str as _
from rules import view
from rules.cards import all_types, find_type
from rules.i18n import LANGUAGES, error_text, t

from .base import HOST, NO_PINGS, Interaction, lang_of
from .board import BoardPoster
from .board_claim import Busy
from .components import DYNAMIC_ITEMS
from .computers import ComputerCommands, ComputerPlayers, computer_name
from .dms import DirectMessages
from .host import HostCommands
from .info import InfoCommands
from .play import PlayCommands
from .review_items import REVIEW_ITEMS
from .reviews import ReviewCommands
from .social import SocialCommands
from .takeback import TakeBackCommands
from .tournament import TournamentCommands
from .tournament_items import TOURNAMENT_ITEMS

log = logging.getLogger(__name__)
__all__ = ["HOST", "Petersburg", "setup"]

BOARD_WAIT = 3.0  # seconds /petersburg board waits for the channel before it answers that the board follows


@app_commands.guild_only()
class Petersburg(PlayCommands, TakeBackCommands, HostCommands, InfoCommands, ComputerCommands, ReviewCommands,
                 SocialCommands, TournamentCommands, commands.GroupCog,
                 group_name="petersburg", group_description=_("cmd.group")):
    """Saint Petersburg: lobby, turns, hands, host tools."""

    def __init__(self, bot: PetersburgBot) -> None:
        self.bot = bot
        self.poster = BoardPoster(bot)
        self.dms = DirectMessages(bot)
        self.computers = ComputerPlayers(bot, self)
        self.poster.after_shown = self.computers.shown  # a computer's turn starts once the board shows it
        super().__init__()

    async def cog_load(self) -> None:
        """Catch up at startup: every game whose channel is behind gets its board (once connected)."""
        self._catch_up = asyncio.create_task(self._catch_up_when_ready())

    async def cog_unload(self) -> None:
        # the catch-up waits before it resumes reviews: a closed bot's must not wake on a closed store
        self._catch_up.cancel()
        self.poster.stop()
        await asyncio.gather(self.poster.drain(), self.computers.drain())
        self.replays.stop()
        if self._reviewer is not None:
            await self._reviewer.stop()
        await self.poster.claims.stop()

    async def _catch_up_when_ready(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self.poster.catch_up()
            await self.computers.catch_up()
            await self.resume_reviews()
        except Exception as e:
            log.exception("catching up the boards failed")
            self.bot.record_bug(e)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        self.poster.saw(message)
        if not message.author.bot:  # someone writing in a game's channel is there (cogs.presence)
            self.poster.presence.saw(message.channel.id, message.author.id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Any command, button, menu or autocomplete: the user is at the board of this channel's game."""
        self.poster.presence.saw(interaction.channel_id, interaction.user.id)

    async def _lobby(self, interaction: Interaction, game_id: int) -> tuple[Game, str] | None:
        """Acknowledge a lobby control and load its game; None (answered privately) once it is no lobby."""
        game, lang = await self.component_game(interaction, game_id)
        if game is None or game.status != LOBBY:
            await self.safe_private(interaction, error_text("already_started" if game else "no_game", lang))
            return None
        return game, lang

    async def on_lobby_button(self, interaction: Interaction, game_id: int, what: str) -> None:
        found = await self._lobby(interaction, game_id)
        if found is None:
            return
        game, lang = found
        await self.guard(interaction, lang, lambda: self._lobby_flow(what)(interaction, game.channel_id))

    async def _lobby_command(self, interaction: Interaction, what: str) -> None:
        """``/petersburg join``, ``leave`` or ``start``: what the lobby's button does, in this channel."""
        await self.defer(interaction)
        lang = await self.channel_lang(interaction)
        await self.guard(interaction, lang, lambda: self._lobby_flow(what)(interaction, self.cid(interaction)))

    # --- lobby flows --------------------------------------------------------------------------
    def _lobby_flow(self, what: str) -> Callable[[Interaction, int], Awaitable[None]]:
        """Join, leave or start (``what``) in a channel's game."""
        return {"join": self._join, "leave": self._leave}.get(what, self._start)

    async def _join(self, interaction: Interaction, channel_id: int) -> None:
        game, seat = await self.service.join(channel_id, interaction.user.id, interaction.user.display_name)
        lang = game.lang
        if game.status == LOBBY:
            await self.private(interaction, t("bot.joined", lang, n=len(game.seats), max=max_players(game)))
            await self.refresh_lobby(game)
        else:
            self.poster.kick(game.id)
            await self.private(interaction, t("bot.took_seat", lang, seat=seat + 1))
            await self.push_hand(game, self.service.state(game), seat)

    async def _leave(self, interaction: Interaction, channel_id: int) -> None:
        game = await self.service.leave(channel_id, interaction.user.id)
        lang = game.lang
        await self.private(interaction, t("bot.left", lang))
        if game.state is None:
            if game.status != LOBBY:
                await self.channel(game).send(t("bot.lobby_closed", lang))
            await self.refresh_lobby(game)
            return
        self.poster.kick(game.id)

    async def _start(self, interaction: Interaction, channel_id: int) -> None:
        await self.defer(interaction)
        game, st = await self.service.start(channel_id, interaction.user.id)
        self.poster.kick(game.id)
        lang = game.lang
        await self.refresh_lobby(game)
        if game.parent_id is not None:  # the game's own thread: named after all its players now
            await self.rename_thread(game)
        unreachable = []
        for s in game.seats:
            if s.user_id is None:  # a computer player
                continue
            v = view(st, s.seat)
            text = t("bot.dm_welcome", lang) + "\n\n" + t("bot.dm_hand", lang, channel=f"<#{game.channel_id}>",
                                                           game=game.id) + "\n" + hand_text(v, lang)
            png = await images.hand_png(v, lang) if self.bot.config.render_images else None
            sent = await self.dms.send(s.user_id, text, ("hand.png", png) if png is not None else None)
            if not sent and not await self.dms.reachable(s.user_id):  # closed, not a passing failure
                unreachable.append(f"<@{s.user_id}>")
        if unreachable:
            try:
                await self.channel(game).send(t("bot.dm_closed", lang, players=", ".join(unreachable))[:2000],
                                               allowed_mentions=NO_PINGS)
            except discord.HTTPException as e:
                log.info("could not tell game %s about closed DMs: %s", game.id, e)
        await self.private(interaction, t("bot.started_ok", lang))

    # --- commands: lobby --------------------------------------------------------------------------
    @app_commands.command(name="create", description=_("cmd.create"))
    @app_commands.describe(edition=_("opt.edition"), money=_("opt.money"), language=_("opt.language"),
                           computers=_("opt.computers"), level=_("opt.level"), market=_("opt.market"),
                           thread=_("opt.thread"))
    @app_commands.choices(edition=[app_commands.Choice(name=_("choice.edition1"), value=1),
                                   app_commands.Choice(name=_("choice.edition2"), value=2)])
    @app_commands.choices(money=[app_commands.Choice(name=_("choice.money_open"), value="open"),
                                 app_commands.Choice(name=_("choice.money_hidden"), value="hidden")])
    @app_commands.choices(language=[app_commands.Choice(name=t("language.name", code), value=code)
                                    for code in LANGUAGES])
    @app_commands.choices(level=[app_commands.Choice(name=_(f"choice.level_{lv}"), value=lv)
                                 for lv in COMPUTER_LEVELS])
    async def create(self, interaction: Interaction, edition: int = 2, money: str = "open",
                     language: str | None = None, computers: app_commands.Range[int, 0, 3] = 0,
                     level: str = "normal", market: bool = False, thread: bool | None = None) -> None:
        """Open a lobby in this channel or thread (a public message with Join/Leave/Start), with
        ``computers`` computer players of ``level`` already seated; ``market``: with the Market (2nd edition,
        up to five players); ``thread``: in a new thread of this channel (default: the server's setting)."""
        await self.defer(interaction)
        lang = language if language in LANGUAGES else lang_of(interaction, default=self.bot.config.language)

        async def work() -> None:
            assert interaction.channel_id is not None
            channel_id, parent_id = interaction.channel_id, None
            user = interaction.user
            if await self.wants_thread(interaction, thread):
                seats = [user.display_name, *(computer_name(level, lang) for _n in range(computers))]
                parent_id, channel_id = channel_id, await self.open_thread(
                    interaction, channel_id, seats, lang,
                    lambda where: t("bot.thread_line", lang, host=user.mention, thread=where))
            game = await self.service.create(guild_id=interaction.guild_id, channel_id=channel_id,
                                             user_id=user.id, name=user.display_name,
                                             edition=edition, open_money=money != "hidden", lang=lang,
                                             expansions=("market",) if market else (), parent_id=parent_id)
            for _n in range(computers):
                game = await self.service.add_computer(game.channel_id, user.id, level, computer_name(level, lang))
            msg = await self.channel(game).send(await self.lobby_text(game), view=self.lobby_controls(game))
            await self.store.set_board_message(game.id, msg.id)
            if parent_id is None:
                await self.private(interaction, t("bot.lobby_opened", lang))
                return
            await self.private(interaction, t("bot.thread_opened", lang, thread=f"<#{channel_id}>"))

        await self.guard(interaction, lang, work)

    async def on_lobby_computer(self, interaction: Interaction, game_id: int, value: str) -> None:
        """The lobby's computer menu: add one of a level, or remove the last one (host)."""
        found = await self._lobby(interaction, game_id)
        if found is None:
            return
        game, lang = found

        async def work() -> None:
            if value == "remove":
                changed = await self.service.remove_computer(game.channel_id, interaction.user.id)
                await self.refresh_lobby(changed)
                await self.private(interaction, t("bot.computer_removed", lang, n=len(changed.seats)))
            else:
                await self.add_computer(interaction, value, lang)

        await self.guard(interaction, lang, work)

    async def on_lobby_parts(self, interaction: Interaction, game_id: int, keys: list[str]) -> None:
        """The lobby's expansions and modules (host): the rules core accepts the combination or says why not."""
        found = await self._lobby(interaction, game_id)
        if found is None:
            return
        game, lang = found

        async def work() -> None:
            changed = await self.service.set_parts(game.id, interaction.user.id, keys)
            await self.refresh_lobby(changed)
            chosen = ", ".join(t(f"bot.part_{k}", lang) for k in parts_of(changed.ruleset)) or t("bot.parts_none", lang)
            await self.private(interaction, t("bot.parts_set", lang, parts=chosen))

        await self.guard(interaction, lang, work)

    @app_commands.command(name="join", description=_("cmd.join"))
    async def join(self, interaction: Interaction) -> None:
        """Join the game in this channel."""
        await self._lobby_command(interaction, "join")

    @app_commands.command(name="leave", description=_("cmd.leave"))
    async def leave(self, interaction: Interaction) -> None:
        """Leave the lobby, or give up your seat in a game in play."""
        await self._lobby_command(interaction, "leave")

    @app_commands.command(name="start", description=_("cmd.start"))
    async def start(self, interaction: Interaction) -> None:
        """Host: start with 2-4 players."""
        await self._lobby_command(interaction, "start")

    # --- commands: information ----------------------------------------------------------------------
    @app_commands.command(name="board", description=_("cmd.board"))
    async def board(self, interaction: Interaction) -> None:
        """Post the current board again at the bottom of the channel (and say if that failed)."""
        async def work(game: Game, lang: str) -> None:
            if game.status != ACTIVE:
                raise UserError("not_started")
            try:
                problem = await self.poster.show(game.id, repost=True, within=BOARD_WAIT)
            except Busy:  # another attempt holds the channel: the board follows as soon as it is done
                await self.private(interaction, t("bot.board_busy", lang))
                return
            if problem is None:
                await self.private(interaction, t("bot.board_posted", lang))
            else:
                await self.private(interaction, t("bot.board_failed", lang, problem=problem.text))

        await self.on_channel_game(interaction, work)

    @app_commands.command(name="hand", description=_("cmd.hand"))
    async def hand(self, interaction: Interaction) -> None:
        """Your hand, privately."""
        async def work(game: Game, lang: str) -> None:
            await self.show_hand(interaction, game)

        await self.on_channel_game(interaction, work)

    @app_commands.command(name="card", description=_("cmd.card"))
    @app_commands.describe(name=_("opt.card"))
    async def card(self, interaction: Interaction, name: str) -> None:
        """A card's picture (when available) and data."""
        await self.defer(interaction)
        game = await self.store.open_game_in_channel(self.cid(interaction))
        lang = lang_of(interaction, game, self.bot.config.language)
        edition = int(game.ruleset.get("edition", 2)) if game is not None else 2

        async def work() -> None:
            ct = find_type(edition, name)
            if ct is None:
                raise UserError("no_such_card_name", name=name)
            file = None
            if self.bot.config.render_images:
                png = await images.card_png(ct.id, edition, lang)
                if png is not None:
                    file = discord.File(io.BytesIO(png), filename="card.png")
            await self.private(interaction, card_text(ct.id, edition, lang), file=file)

        await self.guard(interaction, lang, work)

    @card.autocomplete("name")
    async def card_autocomplete(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = await self.store.open_game_in_channel(self.cid(interaction))
        lang = lang_of(interaction, game, self.bot.config.language)
        edition = int(game.ruleset.get("edition", 2)) if game is not None else 2
        needle = current.casefold()
        out = []
        for ct in all_types(edition):
            label = ct.name(lang)
            if needle in label.casefold() or needle in ct.name_en.casefold():
                out.append(app_commands.Choice(name=label[:100], value=ct.id))
        return out[:25]

    @app_commands.command(name="rules", description=_("cmd.rules"))
    async def rules(self, interaction: Interaction) -> None:
        """Short help, how the ratings count games (docs/ratings.md), time away, rematches and threads, taking back,
        replays and reviews, and tournaments (docs/tournaments.md)."""
        await self.defer(interaction)
        lang = await self.channel_lang(interaction)
        ratings = discord.Embed(title=t("bot.rules_ratings_title", lang), description=t("bot.rules_ratings", lang))
        for part in ("after", "away", "tournaments"):
            ratings.add_field(name=t(f"bot.rules_{part}_title", lang), value=t(f"bot.rules_{part}", lang)[:1024],
                              inline=False)
        await self.guard(interaction, lang, lambda: self.private(interaction, t("bot.rules_help", lang),
                                                                 embed=ratings))

    @app_commands.command(name="pass", description=_("cmd.pass"))
    @app_commands.describe(mode=_("opt.pass_mode"))
    @app_commands.choices(mode=[app_commands.Choice(name=_("choice.pass_turn"), value="turn"),
                                app_commands.Choice(name=_("choice.pass_display"), value="display"),
                                app_commands.Choice(name=_("choice.pass_phase"), value="phase"),
                                app_commands.Choice(name=_("choice.pass_off"), value="off")])
    async def pass_(self, interaction: Interaction, mode: str | None = None) -> None:
        """Pass now, or set a pass mode (this turn, until the display changes, rest of the phase) or cancel it."""
        if mode is None:
            await self.play_text(interaction, "", "pass")
            return
        game, _ = await self.channel_game(interaction)
        if game is not None:
            await self.on_pass_mode(interaction, game.id, mode)

    async def on_pass_mode(self, interaction: Interaction, game_id: int, mode: str) -> None:
        """Set or cancel (``off``) the user's pass mode; if it applies right now, the pass happens at once."""
        _, lang = await self.component_game(interaction, game_id)

        async def work() -> None:
            if mode not in ("turn", "display", "phase", "off"):
                raise UserError("stale_board")
            _, out = await self.service.set_pass_mode(game_id, interaction.user.id, None if mode == "off" else mode)
            if out is None:  # the board names the pass modes in use
                await self.poster.show(game_id, refresh=True)
            else:
                self.poster.kick(game_id)
            text = t(f"bot.pass_mode_set_{mode}", lang)
            if out is not None:
                text += "\n" + t("bot.passed_now", lang)
                for seat in out.all_changed_hands():
                    await self.push_hand(out.game, out.state, seat)
                await self.after_commit(interaction, text)
                return
            await self.private(interaction, text)

        await self.guard(interaction, lang, work)

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """Errors outside the handlers' own guard (checks, option conversion)."""
        lang = lang_of(interaction, default=self.bot.config.language)
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            await self.safe_private(interaction, t("bot.not_allowed", lang))
            return
        original = getattr(error, "original", error)
        log.error("command error", exc_info=original)
        self.bot.record_bug(original)
        await self.safe_private(interaction, t("bot.bug", lang))


async def setup(bot: PetersburgBot) -> None:
    """Extension entry point: the cog and the persistent (dynamic) buttons."""
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *REVIEW_ITEMS, *TOURNAMENT_ITEMS)
    await bot.add_cog(Petersburg(bot))

