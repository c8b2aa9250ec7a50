"""The ``/petersburg`` command group and the board's buttons: parse input, call the game service (which
calls the rules core and persists), render, reply. No rules here: choices come from rules.legal_moves
and every action is validated by rules.apply."""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import images
from bot.client import PetersburgBot
from bot.service import GameService, Outcome, UserError
from bot.store import ACTIVE, LOBBY, Game, TimerRow
from bot.texts import (
    BoardText,
    action_headline,
    board_text,
    card_text,
    describe_action,
    duration,
    event_lines,
    final_text,
    hand_text,
    history_text,
    leaderboard_text,
    log_text,
    stats_text,
    timing_text,
)
from bot.timers import AUTOPASS, parse_minutes
from bot.translator import locale_str as _
from rules import Action, GameState, RuleError, catalogue, format_action, legal_moves, view
from rules.autopass import expired
from rules.i18n import LANGUAGES, error_text, t

from .components import DYNAMIC_ITEMS, GROUP, board_view, decode, lobby_view, target_view

log = logging.getLogger(__name__)

Interaction = discord.Interaction[PetersburgBot]

MAX_BOARD_LINES = 16  # lines of "what happened" on a board; the rest is in /petersburg log
DURATION_SUGGESTIONS = (0, 15, 30, 60, 120, 240, 480, 720, 1440, 2880, 10080)
NO_PINGS = discord.AllowedMentions.none()


def _lang_of(interaction: Interaction, game: Game | None = None, default: str = "en") -> str:
    if game is not None:
        return game.lang
    loc = str(interaction.locale or "")
    return "de" if loc.startswith("de") else default


def _embed(bt: BoardText, colour: int = 0x2B6CB0) -> discord.Embed:
    e = discord.Embed(title=bt.title[:256], description=bt.description or None, colour=colour)
    for name, value in bt.fields[:25]:
        e.add_field(name=name, value=value or "—", inline=True)
    if bt.footer:
        e.set_footer(text=bt.footer[:2048])
    return e


def _clip(text: str, limit: int = 2000) -> str:
    """At most ``limit`` characters, cut after a whole line."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit("\n", 1)[0]


def _names(game: Game) -> list[str]:
    return [s.name for s in game.seats]


def _mentions(game: Game) -> list[str]:
    return [f"<@{s.user_id}>" if s.user_id else f"{s.name} ({t('bot.seat_empty', game.lang)})" for s in game.seats]


@app_commands.guild_only()
class Petersburg(commands.GroupCog, group_name="petersburg", group_description=_("cmd.group")):
    """Saint Petersburg: lobby, turns, hands, host tools."""

    def __init__(self, bot: PetersburgBot) -> None:
        self.bot = bot
        self.dm_closed: set[int] = set()  # users whose DMs failed; they use the My hand button
        super().__init__()

    @property
    def service(self) -> GameService:
        assert self.bot.service is not None
        return self.bot.service

    # --- replies ------------------------------------------------------------------------------
    async def _defer(self, interaction: Interaction) -> None:
        if not interaction.response.is_done():
            if interaction.type == discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)

    async def _private(self, interaction: Interaction, text: str, *, embed: discord.Embed | None = None,
                       file: discord.File | None = None, view: discord.ui.View | None = None) -> None:
        """An ephemeral answer, whether or not the interaction was deferred."""
        kw: dict[str, Any] = {"content": text[:2000]}
        if embed is not None:
            kw["embed"] = embed
        if file is not None:
            kw["file"] = file
        if view is not None:
            kw["view"] = view
        if not interaction.response.is_done():
            await interaction.response.send_message(ephemeral=True, **kw)
        elif interaction.type == discord.InteractionType.component:
            await interaction.followup.send(ephemeral=True, **kw)
        else:
            if "file" in kw:
                kw["attachments"] = [kw.pop("file")]
            await interaction.edit_original_response(**kw)

    async def _guard(self, interaction: Interaction, lang: str, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work``; user mistakes become a private message, bugs are logged (never shown)."""
        try:
            await work()
        except UserError as e:
            await self._safe_private(interaction, error_text(e.code, lang, **e.params))
        except RuleError as e:
            await self._safe_private(interaction, error_text(e.code, lang, **e.params))
        except Exception as e:
            log.exception("error handling %s by user %s", interaction.data, interaction.user.id)
            self.bot.record_bug(e)
            await self._safe_private(interaction, t("bot.bug", lang))

    async def _safe_private(self, interaction: Interaction, text: str) -> None:
        try:
            await self._private(interaction, text)
        except discord.HTTPException:
            log.warning("could not answer interaction %s", interaction.id)

    # --- presentation -------------------------------------------------------------------------
    def _channel(self, game: Game) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(game.channel_id, guild_id=game.guild_id)

    async def _strip_old(self, game: Game, keep: int | None = None) -> None:
        """Remove the buttons of the previous board message."""
        old = game.board_message_id
        if old is None or old == keep:
            return
        try:
            await self._channel(game).get_partial_message(old).edit(view=None)
        except discord.HTTPException as e:
            log.info("could not clear old board %s of game %s: %s", old, game.id, e)

    async def post_board(self, game: Game, st: GameState, last: Sequence[str] = (),
                         last_action: str | None = None) -> discord.Message | None:
        """Post the current board (text, plus a picture when ``render`` exists) with the controls for the
        player to decide, take the buttons off the previous board and remember the new message."""
        lang = game.lang
        spectator = view(st, None)
        bt = board_text(spectator, lang, names=_names(game), mentions=_mentions(game), last=last)
        if not st.finished:
            modes = [f"{game.seats[seat].name} ({t(f'bot.mode_{ap.mode}', lang)})"
                     for seat, ap in sorted((await self.service.pass_modes(game.id)).items())
                     if not expired(st, ap)]
            if modes:
                bt.description = (bt.description + "\n" + t("bot.pass_modes_line", lang,
                                                             players=", ".join(modes)))[:4000]
        embed = _embed(bt)
        kw: dict[str, Any] = {"embed": embed}
        if self.bot.config.render_images:
            png = await images.board_png(spectator, lang, last_action)
            if png is not None:
                kw["file"] = discord.File(io.BytesIO(png), filename="board.png")
                embed.set_image(url="attachment://board.png")
        content = ""
        if st.finished:
            content = t("bot.game_over", lang)
        else:
            seat = st.decider
            uid = game.user_at(seat)
            content = t("bot.turn_ping", lang, mention=f"<@{uid}>" if uid else game.seats[seat].name)
            if uid is None:
                content += "\n" + t("bot.seat_waiting", lang, seat=seat + 1)
            kw["view"] = board_view(game.id, game.version, st, lang)
        await self._strip_old(game)
        try:
            msg = await self._channel(game).send(content[:2000], **kw)
        except discord.HTTPException as e:
            log.warning("could not post the board of game %s: %s", game.id, e)
            return None
        await self.bot.store.set_board_message(game.id, msg.id)  # type: ignore[union-attr]
        game.board_message_id = msg.id
        if st.finished:
            await self.post_final(game, st)
        return msg

    async def post_final(self, game: Game, st: GameState) -> None:
        lang = game.lang
        v = view(st, None)
        embed = _embed(final_text(v, lang, _names(game)), colour=0xD69E2E)
        kw: dict[str, Any] = {"embed": embed}
        if self.bot.config.render_images:
            png = await images.final_png(v, lang)
            if png is not None:
                kw["file"] = discord.File(io.BytesIO(png), filename="final.png")
                embed.set_image(url="attachment://final.png")
        try:
            await self._channel(game).send(t("bot.final_intro", lang), **kw)
        except discord.HTTPException as e:
            log.warning("could not post the final scores of game %s: %s", game.id, e)

    async def _present(self, out: Outcome) -> None:
        """After a committed action and its automatic passes (under the game's lock): the new board with
        what happened, in the words of ``rules.describe``."""
        game, st, lang = out.game, out.state, out.game.lang
        names = _names(game)
        ed = st.ruleset.edition
        hidden = range(st.n) if not st.ruleset.open_money and not st.finished else ()
        lines: list[str] = []
        for o in out.chain():
            lines.extend(event_lines(o.events, names, ed, lang, auto=o.auto, hidden=hidden))
        if len(lines) > MAX_BOARD_LINES:
            lines = [t("bot.more_in_log", lang, n=len(lines) - MAX_BOARD_LINES + 1),
                     *lines[-(MAX_BOARD_LINES - 1):]]
        last = action_headline(out.chain()[-1].events, names, ed, lang)
        await self.post_board(game, st, lines, last)

    async def push_hands(self, game: Game, st: GameState, seats: Sequence[int]) -> list[int]:
        """DM each of ``seats`` their hand; returns the seats that could not be reached (never raises)."""
        failed = []
        for seat in seats:
            uid = game.user_at(seat)
            if uid is None or uid in self.dm_closed:
                failed.append(seat)
                continue
            if not await self._dm(uid, game, st, seat):
                failed.append(seat)
        return failed

    async def _dm(self, uid: int, game: Game, st: GameState, seat: int, intro: str | None = None) -> bool:
        lang = game.lang
        v = view(st, seat)
        text = (intro + "\n\n" if intro else "") + t("bot.dm_hand", lang, channel=f"<#{game.channel_id}>",
                                                     game=game.id) + "\n" + hand_text(v, lang)
        try:
            kw: dict[str, Any] = {}
            if self.bot.config.render_images:
                png = await images.hand_png(v, lang)
                if png is not None:
                    kw["file"] = discord.File(io.BytesIO(png), filename="hand.png")
            channel = await self.bot.create_dm(discord.Object(id=uid))
            await channel.send(text[:2000], **kw)
            return True
        except discord.Forbidden:
            log.info("user %s does not accept DMs", uid)
        except discord.HTTPException as e:
            log.warning("DM to user %s failed: %s", uid, e)
        self.dm_closed.add(uid)
        return False

    async def _lobby_text(self, game: Game) -> str:
        lang = game.lang
        players = ", ".join(f"<@{s.user_id}>" for s in game.seats)
        money = t("bot.money_open" if game.ruleset.get("open_money", True) else "bot.money_hidden", lang)
        return t("bot.lobby", lang, host=f"<@{game.host_id}>", edition=game.ruleset.get("edition", 2),
                 money=money, players=players, n=len(game.seats))

    async def _refresh_lobby(self, game: Game) -> None:
        if game.board_message_id is None:
            return
        try:
            msg = self._channel(game).get_partial_message(game.board_message_id)
            if game.status == LOBBY:
                await msg.edit(content=await self._lobby_text(game), view=lobby_view(game.id, game.lang))
            else:
                await msg.edit(view=None)
        except discord.HTTPException as e:
            log.info("could not update lobby message of game %s: %s", game.id, e)

    # --- acting -------------------------------------------------------------------------------
    async def act(self, interaction: Interaction, game_id: int, action: Action | str,
                  version: int | None = None, lang: str = "en") -> None:
        """Apply one action for the interaction's user; answer privately on mistakes."""
        started = time.perf_counter()
        await self._defer(interaction)

        async def work() -> None:
            out = await self.service.act(game_id, interaction.user.id, action, version=version, after=self._present)
            if interaction.type != discord.InteractionType.component:
                await self._private(interaction, t("bot.done", lang, action=describe_action(
                    out.action, out.state.ruleset.edition, lang, out.price)))
            elif interaction.message is not None and interaction.message.flags.ephemeral:
                await interaction.edit_original_response(content=t("bot.done", lang, action=describe_action(
                    out.action, out.state.ruleset.edition, lang, out.price)), view=None)
            self.bot.record_timing(started)
            if out.all_changed_hands():
                await self.push_hands(out.game, out.state, out.all_changed_hands())

        await self._guard(interaction, lang, work)

    async def on_choice(self, interaction: Interaction, game_id: int, version: int, value: str) -> None:
        """A select option or action button of a board (or of the target choice)."""
        game = await self.bot.store.get_game(game_id)  # type: ignore[union-attr]
        lang = game.lang if game is not None else _lang_of(interaction)
        if value.startswith(GROUP):
            await self._guard(interaction, lang, lambda: self._ask_target(interaction, game_id, version,
                                                                          value[1:], lang))
            return
        try:
            action = decode(value)
        except ValueError:
            await self._safe_private(interaction, error_text("stale_board", lang))
            return
        await self.act(interaction, game_id, action, version, lang)

    async def _ask_target(self, interaction: Interaction, game_id: int, version: int, value: str,
                          lang: str) -> None:
        """A trading card with several possible targets: offer them (with prices) privately."""
        game = await self.service.game(game_id)
        if game.status != ACTIVE:
            raise UserError("not_active")
        if game.version != version:
            raise UserError("stale_board")
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_in_game")
        st = self.service.state(game)
        if st.decider != seat:
            raise RuleError("not_your_turn", to_move=st.seats[st.decider])
        bare = decode(value)
        moves = [m for m in legal_moves(st) if m.action._replace(target="") == bare]
        if not moves:
            raise UserError("stale_board")
        await self._private(interaction, t("bot.pick_target", lang),
                            view=target_view(game.id, game.version, moves, st.ruleset.edition, lang))

    async def on_hand_button(self, interaction: Interaction, game_id: int) -> None:
        game = await self.bot.store.get_game(game_id)  # type: ignore[union-attr]
        lang = game.lang if game is not None else _lang_of(interaction)
        await self._guard(interaction, lang, lambda: self._show_hand(interaction, game))

    async def _show_hand(self, interaction: Interaction, game: Game | None) -> None:
        if game is None:
            raise UserError("no_game")
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_in_game")
        st = self.service.state(game)
        v = view(st, seat)
        file = None
        if self.bot.config.render_images and images.available():
            await self._defer(interaction)
            png = await images.hand_png(v, game.lang)
            if png is not None:
                file = discord.File(io.BytesIO(png), filename="hand.png")
        await self._private(interaction, hand_text(v, game.lang), file=file)

    async def on_lobby_button(self, interaction: Interaction, game_id: int, what: str) -> None:
        game = await self.bot.store.get_game(game_id)  # type: ignore[union-attr]
        lang = game.lang if game is not None else _lang_of(interaction)
        if game is None or game.status != LOBBY:
            await self._safe_private(interaction, error_text("already_started" if game else "no_game", lang))
            return
        if what == "join":
            await self._guard(interaction, lang, lambda: self._join(interaction, game.channel_id))
        elif what == "leave":
            await self._guard(interaction, lang, lambda: self._leave(interaction, game.channel_id))
        else:
            await self._guard(interaction, lang, lambda: self._start(interaction, game.channel_id))

    # --- lobby flows --------------------------------------------------------------------------
    async def _join(self, interaction: Interaction, channel_id: int) -> None:
        game, seat = await self.service.join(channel_id, interaction.user.id, interaction.user.display_name)
        lang = game.lang
        if game.status == LOBBY:
            await self._private(interaction, t("bot.joined", lang, n=len(game.seats)))
            await self._refresh_lobby(game)
        else:
            await self._private(interaction, t("bot.took_seat", lang, seat=seat + 1))
            st = self.service.state(game)
            async with self.service.lock(game.id):
                game = await self.service.game(game.id)
                await self.post_board(game, st, [t("bot.seat_taken", lang, player=interaction.user.mention,
                                                   seat=seat + 1)])
            await self.push_hands(game, st, [seat])

    async def _leave(self, interaction: Interaction, channel_id: int) -> None:
        game = await self.service.leave(channel_id, interaction.user.id)
        lang = game.lang
        await self._private(interaction, t("bot.left", lang))
        if game.state is None:
            if game.status != LOBBY:
                await self._channel(game).send(t("bot.lobby_closed", lang))
            await self._refresh_lobby(game)
            return
        async with self.service.lock(game.id):
            game = await self.service.game(game.id)
            if game.status == ACTIVE:
                await self.post_board(game, self.service.state(game),
                                      [t("bot.seat_left", lang, player=interaction.user.mention)])
            else:
                await self._strip_old(game)
                await self._channel(game).send(t("bot.aborted", lang))

    async def _start(self, interaction: Interaction, channel_id: int) -> None:
        await self._defer(interaction)
        game, st = await self.service.start(channel_id, interaction.user.id)
        lang = game.lang
        await self._refresh_lobby(game)
        unreachable = []
        for s in game.seats:
            assert s.user_id is not None
            ok = await self._dm(s.user_id, game, st, s.seat, intro=t("bot.dm_welcome", lang))
            if not ok:
                unreachable.append(f"<@{s.user_id}>")
        order = ", ".join(f"{i + 1}. <@{s.user_id}>" for i, s in enumerate(game.seats))
        text = t("bot.started", lang, order=order)
        if unreachable:
            text += "\n" + t("bot.dm_closed", lang, players=", ".join(unreachable))
        await self._channel(game).send(text[:2000])
        async with self.service.lock(game.id):
            game = await self.service.game(game.id)
            await self.post_board(game, st)
        await self._private(interaction, t("bot.started_ok", lang))

    # --- commands: lobby --------------------------------------------------------------------------
    @app_commands.command(name="create", description=_("cmd.create"))
    @app_commands.describe(edition=_("opt.edition"), money=_("opt.money"), language=_("opt.language"))
    @app_commands.choices(edition=[app_commands.Choice(name=_("choice.edition1"), value=1),
                                   app_commands.Choice(name=_("choice.edition2"), value=2)])
    @app_commands.choices(money=[app_commands.Choice(name=_("choice.money_open"), value="open"),
                                 app_commands.Choice(name=_("choice.money_hidden"), value="hidden")])
    @app_commands.choices(language=[app_commands.Choice(name="English", value="en"),
                                    app_commands.Choice(name="Deutsch", value="de")])
    async def create(self, interaction: Interaction, edition: int = 2, money: str = "open",
                     language: str | None = None) -> None:
        """Open a lobby in this channel or thread."""
        lang = language if language in LANGUAGES else _lang_of(interaction, default=self.bot.config.language)

        async def work() -> None:
            assert interaction.channel_id is not None
            game = await self.service.create(guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                                             user_id=interaction.user.id, name=interaction.user.display_name,
                                             edition=edition, open_money=money != "hidden", lang=lang)
            await interaction.response.send_message(await self._lobby_text(game), view=lobby_view(game.id, lang))
            msg = await interaction.original_response()
            await self.bot.store.set_board_message(game.id, msg.id)  # type: ignore[union-attr]

        await self._guard(interaction, lang, work)

    @app_commands.command(name="join", description=_("cmd.join"))
    async def join(self, interaction: Interaction) -> None:
        """Join the game in this channel."""
        lang = await self._channel_lang(interaction)
        await self._guard(interaction, lang, lambda: self._join(interaction, self._cid(interaction)))

    @app_commands.command(name="leave", description=_("cmd.leave"))
    async def leave(self, interaction: Interaction) -> None:
        """Leave the lobby, or give up your seat in a game in play."""
        lang = await self._channel_lang(interaction)
        await self._guard(interaction, lang, lambda: self._leave(interaction, self._cid(interaction)))

    @app_commands.command(name="start", description=_("cmd.start"))
    async def start(self, interaction: Interaction) -> None:
        """Host: start with 2-4 players."""
        lang = await self._channel_lang(interaction)
        await self._guard(interaction, lang, lambda: self._start(interaction, self._cid(interaction)))

    # --- commands: information ----------------------------------------------------------------------
    @app_commands.command(name="board", description=_("cmd.board"))
    async def board(self, interaction: Interaction) -> None:
        """Post the current board again at the bottom of the channel."""
        lang = await self._channel_lang(interaction)

        async def work() -> None:
            await self._defer(interaction)
            game = await self.service.game_in_channel(self._cid(interaction))
            if game.status != ACTIVE:
                raise UserError("not_started")
            async with self.service.lock(game.id):
                game = await self.service.game(game.id)
                await self.post_board(game, self.service.state(game))
            await self._private(interaction, t("bot.board_posted", lang))

        await self._guard(interaction, lang, work)

    @app_commands.command(name="hand", description=_("cmd.hand"))
    async def hand(self, interaction: Interaction) -> None:
        """Your hand, privately."""
        lang = await self._channel_lang(interaction)

        async def work() -> None:
            game = await self.service.game_in_channel(self._cid(interaction))
            await self._show_hand(interaction, game)

        await self._guard(interaction, lang, work)

    @app_commands.command(name="card", description=_("cmd.card"))
    @app_commands.describe(name=_("opt.card"))
    async def card(self, interaction: Interaction, name: str) -> None:
        """A card's picture (when available) and data."""
        game = await self.bot.store.open_game_in_channel(self._cid(interaction))  # type: ignore[union-attr]
        lang = _lang_of(interaction, game, self.bot.config.language)
        edition = int(game.ruleset.get("edition", 2)) if game is not None else 2

        async def work() -> None:
            ct = catalogue(edition).lookup(name)
            if ct is None:
                raise UserError("no_such_card_name", name=name)
            file = None
            if self.bot.config.render_images and images.available():
                await self._defer(interaction)
                png = await images.card_png(ct.id, edition, lang)
                if png is not None:
                    file = discord.File(io.BytesIO(png), filename="card.png")
            await self._private(interaction, card_text(ct.id, edition, lang), file=file)

        await self._guard(interaction, lang, work)

    @card.autocomplete("name")
    async def card_autocomplete(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = await self.bot.store.open_game_in_channel(self._cid(interaction))  # type: ignore[union-attr]
        lang = _lang_of(interaction, game, self.bot.config.language)
        edition = int(game.ruleset.get("edition", 2)) if game is not None else 2
        needle = current.casefold()
        out = []
        for ct in catalogue(edition).types:
            label = ct.name(lang)
            if needle in label.casefold() or needle in ct.name_en.casefold():
                out.append(app_commands.Choice(name=label[:100], value=ct.id))
        return out[:25]

    @app_commands.command(name="rules", description=_("cmd.rules"))
    async def rules(self, interaction: Interaction) -> None:
        """Short help."""
        lang = await self._channel_lang(interaction)
        await self._guard(interaction, lang, lambda: self._private(interaction, t("bot.rules_help", lang)))

    # --- commands: playing ----------------------------------------------------------------------
    async def _play_text(self, interaction: Interaction, kind: str, text: str) -> None:
        game = await self.bot.store.open_game_in_channel(self._cid(interaction))  # type: ignore[union-attr]
        lang = _lang_of(interaction, game, self.bot.config.language)
        if game is None:
            await self._safe_private(interaction, error_text("no_game", lang))
            return
        text = text.strip()
        if kind and not text.casefold().startswith(kind + " ") and text.casefold() != kind:
            text = f"{kind} {text}"
        await self.act(interaction, game.id, text, None, lang)

    async def _complete(self, interaction: Interaction, current: str,
                        kinds: Sequence[str]) -> list[app_commands.Choice[str]]:
        """Autocomplete: the legal moves of these kinds for the user, labelled with prices."""
        try:
            game = await self.bot.store.open_game_in_channel(self._cid(interaction))  # type: ignore[union-attr]
            if game is None or game.status != ACTIVE or game.seat_of(interaction.user.id) is None:
                return []
            st = GameState.from_json(game.state or {})
            if st.decider != game.seat_of(interaction.user.id):
                return []
            ed = st.ruleset.edition
            needle = current.casefold()
            out = []
            for m in legal_moves(st):
                if m.action.kind not in kinds:
                    continue
                label = describe_action(m.action, ed, game.lang, m.price)
                value = format_action(m.action, st.ruleset.catalogue)
                if needle and needle not in label.casefold() and needle not in value.casefold():
                    continue
                out.append(app_commands.Choice(name=label[:100], value=value[:100]))
            return out[:25]
        except Exception as e:  # autocomplete must never fail loudly
            log.exception("autocomplete failed")
            self.bot.record_bug(e)
            return []

    @app_commands.command(name="buy", description=_("cmd.buy"))
    @app_commands.describe(card=_("opt.move"))
    async def buy(self, interaction: Interaction, card: str) -> None:
        await self._play_text(interaction, "buy", card)

    @buy.autocomplete("card")
    async def buy_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._complete(interaction, current, ("buy",))

    @app_commands.command(name="take", description=_("cmd.take"))
    @app_commands.describe(card=_("opt.move"))
    async def take(self, interaction: Interaction, card: str) -> None:
        await self._play_text(interaction, "take", card)

    @take.autocomplete("card")
    async def take_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._complete(interaction, current, ("take",))

    @app_commands.command(name="play", description=_("cmd.play"))
    @app_commands.describe(card=_("opt.move"))
    async def play(self, interaction: Interaction, card: str) -> None:
        await self._play_text(interaction, "play", card)

    @play.autocomplete("card")
    async def play_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._complete(interaction, current, ("play",))

    @app_commands.command(name="pass", description=_("cmd.pass"))
    @app_commands.describe(mode=_("opt.pass_mode"))
    @app_commands.choices(mode=[app_commands.Choice(name=_("choice.pass_turn"), value="turn"),
                                app_commands.Choice(name=_("choice.pass_display"), value="display"),
                                app_commands.Choice(name=_("choice.pass_phase"), value="phase"),
                                app_commands.Choice(name=_("choice.pass_off"), value="off")])
    async def pass_(self, interaction: Interaction, mode: str | None = None) -> None:
        """Pass now, or set a pass mode (this turn, until the display changes, rest of the phase) or cancel it."""
        if mode is None:
            await self._play_text(interaction, "", "pass")
            return
        game = await self.bot.store.open_game_in_channel(self._cid(interaction))  # type: ignore[union-attr]
        lang = _lang_of(interaction, game, self.bot.config.language)
        if game is None:
            await self._safe_private(interaction, error_text("no_game", lang))
            return
        await self.on_pass_mode(interaction, game.id, mode)

    async def on_pass_mode(self, interaction: Interaction, game_id: int, mode: str) -> None:
        """Set or cancel (``off``) the user's pass mode; if it applies right now, the pass happens at once."""
        game = await self.bot.store.get_game(game_id)  # type: ignore[union-attr]
        lang = game.lang if game is not None else _lang_of(interaction)
        await self._defer(interaction)

        async def work() -> None:
            if mode not in ("turn", "display", "phase", "off"):
                raise UserError("stale_board")
            _, out = await self.service.set_pass_mode(game_id, interaction.user.id, None if mode == "off" else mode,
                                                      after=self._present)
            text = t(f"bot.pass_mode_set_{mode}", lang)
            if out is not None:
                text += "\n" + t("bot.passed_now", lang)
            await self._private(interaction, text)
            if out is not None and out.all_changed_hands():
                await self.push_hands(out.game, out.state, out.all_changed_hands())

        await self._guard(interaction, lang, work)

    @app_commands.command(name="observatory", description=_("cmd.observatory"))
    @app_commands.describe(stack=_("opt.stack"), decision=_("opt.decision"))
    async def observatory(self, interaction: Interaction, stack: str | None = None,
                          decision: str | None = None) -> None:
        if decision:
            await self._play_text(interaction, "", decision)
        else:
            await self._play_text(interaction, "observe", stack or "")

    @observatory.autocomplete("stack")
    async def stack_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        choices = await self._complete(interaction, current, ("observe",))
        return [app_commands.Choice(name=c.name, value=c.value.removeprefix("observe ")) for c in choices]

    @observatory.autocomplete("decision")
    async def decision_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._complete(interaction, current, ("buy", "take", "discard"))

    @app_commands.command(name="pub", description=_("cmd.pub"))
    @app_commands.describe(amount=_("opt.amount"))
    async def pub(self, interaction: Interaction, amount: app_commands.Range[int, 0, 100]) -> None:
        await self._play_text(interaction, "pub", str(amount))

    @pub.autocomplete("amount")
    async def pub_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
        choices = await self._complete(interaction, "", ("pub",))
        return [app_commands.Choice(name=c.name, value=int(c.value.split()[-1])) for c in choices
                if not current or c.value.split()[-1].startswith(current.strip())]

    # --- commands: over hours and days ---------------------------------------------------------------
    @app_commands.command(name="settings", description=_("cmd.settings"))
    @app_commands.describe(reminder=_("opt.reminder"), interval=_("opt.interval"), autopass=_("opt.autopass"),
                           server=_("opt.server"))
    async def settings(self, interaction: Interaction, reminder: str | None = None, interval: str | None = None,
                       autopass: str | None = None, server: bool = False) -> None:
        """Host: this game's reminder, repeat interval and time-out; with ``server`` (Manage Server) the
        server's defaults. Without values: show them."""
        lang = await self._channel_lang(interaction)

        async def work() -> None:
            changes: dict[str, int] = {}
            for key, raw in (("reminder", reminder), ("interval", interval), ("autopass", autopass)):
                if raw is not None:
                    try:
                        changes[key] = parse_minutes(raw)
                    except ValueError:
                        raise UserError("bad_duration", value=raw) from None
            if server:
                perms = interaction.permissions
                if changes and not (perms and perms.manage_guild):
                    raise UserError("not_manager")
                assert interaction.guild_id is not None
                timing = await self.service.update_server_settings(interaction.guild_id, changes)
                key = "bot.server_settings_set" if changes else "bot.server_settings"
                text = t(key, lang, player=interaction.user.mention, settings=timing_text(timing, lang))
            else:
                game = await self.bot.store.open_game_in_channel(self._cid(interaction))  # type: ignore[union-attr]
                if game is None and not changes:
                    assert interaction.guild_id is not None
                    timing = await self.service.update_server_settings(interaction.guild_id, {})
                    text = t("bot.server_settings", lang, settings=timing_text(timing, lang))
                elif not changes:
                    assert game is not None
                    timing = await self.service.timing(game)
                    text = t("bot.game_settings", lang, game=game.id, settings=timing_text(timing, lang))
                else:
                    game, timing = await self.service.update_settings(self._cid(interaction), interaction.user.id,
                                                                      changes)
                    text = t("bot.game_settings_set", lang, player=interaction.user.mention, game=game.id,
                             settings=timing_text(timing, lang))
            if changes:
                await interaction.response.send_message(text, allowed_mentions=NO_PINGS)
            else:
                await self._private(interaction, text)

        await self._guard(interaction, lang, work)

    @settings.autocomplete("reminder")
    @settings.autocomplete("interval")
    @settings.autocomplete("autopass")
    async def duration_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = await self._channel_lang(interaction)
        out = []
        for minutes in DURATION_SUGGESTIONS:
            value = "off" if minutes == 0 else str(minutes)
            label = duration(minutes, lang)
            if not current or current.strip().lower() in (value, label.lower()) or value.startswith(current.strip()):
                out.append(app_commands.Choice(name=label, value=value))
        return out[:25]

    @app_commands.command(name="log", description=_("cmd.log"))
    @app_commands.describe(count=_("opt.count"))
    async def log_(self, interaction: Interaction, count: app_commands.Range[int, 1, 100] = 15) -> None:
        """The last actions of this channel's game in words (privately)."""
        lang = await self._channel_lang(interaction, latest=True)

        async def work() -> None:
            game = await self.service.latest_in_channel(self._cid(interaction))
            st = self.service.state(game)
            seat = game.seat_of(interaction.user.id)
            hidden = [s for s in range(st.n) if s != seat] if not st.ruleset.open_money and not st.finished else []
            rows = await self.bot.store.recent_actions(game.id, count)  # type: ignore[union-attr]
            text = log_text([(r.idx, r.events, r.auto) for r in rows], _names(game), st.ruleset.edition, lang,
                            hidden)
            if len(text) > 4000:  # keep the newest lines
                text = "…" + text[-3990:].split("\n", 1)[-1]
            embed = discord.Embed(title=t("bot.log_title", lang, game=game.id), colour=0x4A5568,
                                  description=text or t("bot.log_empty", lang))
            await self._private(interaction, "", embed=embed)

        await self._guard(interaction, lang, work)

    @app_commands.command(name="stats", description=_("cmd.stats"))
    async def stats(self, interaction: Interaction) -> None:
        """Income per phase kind, spending, cards and VP by source, as the asking player may see them."""
        lang = await self._channel_lang(interaction, latest=True)

        async def work() -> None:
            game = await self.service.latest_in_channel(self._cid(interaction))
            st = self.service.state(game)
            v = view(st, game.seat_of(interaction.user.id))
            await self._private(interaction, "", embed=_embed(stats_text(v, lang, _names(game)), colour=0x38A169))

        await self._guard(interaction, lang, work)

    @app_commands.command(name="export", description=_("cmd.export"))
    async def export(self, interaction: Interaction) -> None:
        """The finished game's record as a file (``python -m rules replay FILE`` replays it)."""
        lang = await self._channel_lang(interaction, latest=True)

        async def work() -> None:
            game = await self.service.latest_in_channel(self._cid(interaction))
            if game.status in (LOBBY, ACTIVE):
                raise UserError("export_after_end")  # the seed would reveal the stacks' order
            await self._defer(interaction)
            record = await self.service.record(game)
            file = discord.File(io.BytesIO(record.dumps().encode("utf-8")), filename=f"petersburg-{game.id}.json")
            await self._private(interaction, t("bot.exported", lang, game=game.id, n=len(record.actions)), file=file)

        await self._guard(interaction, lang, work)

    @app_commands.command(name="history", description=_("cmd.history"))
    @app_commands.describe(count=_("opt.count"))
    async def history(self, interaction: Interaction, count: app_commands.Range[int, 1, 25] = 10) -> None:
        """The server's recently finished games with winners and scores."""
        lang = await self._channel_lang(interaction, latest=True)

        async def work() -> None:
            games = await self.bot.store.finished_games(interaction.guild_id, count)  # type: ignore[union-attr]
            await interaction.response.send_message(_clip(history_text(games, lang)), allowed_mentions=NO_PINGS)

        await self._guard(interaction, lang, work)

    @app_commands.command(name="leaderboard", description=_("cmd.leaderboard"))
    async def leaderboard(self, interaction: Interaction) -> None:
        """The server's players by wins, then average score."""
        lang = await self._channel_lang(interaction, latest=True)

        async def work() -> None:
            rows = await self.bot.store.leaderboard(interaction.guild_id)  # type: ignore[union-attr]
            await interaction.response.send_message(_clip(leaderboard_text(rows, lang)), allowed_mentions=NO_PINGS)

        await self._guard(interaction, lang, work)

    # --- reminders and time-outs (called by the client's poll) -----------------------------------
    async def run_due_timers(self) -> None:
        """Send due reminders and play for players whose time ran out; each one on its own."""
        for timer in await self.service.due_timers():
            try:
                if timer.kind == AUTOPASS:
                    await self._time_out(timer)
                else:
                    await self._remind(timer)
            except Exception as e:
                log.exception("timer %s of game %s failed", timer.kind, timer.game_id)
                self.bot.record_bug(e)

    async def _remind(self, timer: TimerRow) -> None:
        """Claim the reminder in the database (so it goes out once), then DM and mention the player."""
        async with self.service.lock(timer.game_id):
            game = await self.bot.store.get_game(timer.game_id)  # type: ignore[union-attr]
            if game is None or not await self.service.claim_reminder(timer, game):
                return
            uid = game.user_at(timer.seat)
            if uid is None:
                return
            lang = game.lang
            timing = await self.service.timing(game)
            since = f"<t:{int(game.updated_at)}:R>"
            link = (f"https://discord.com/channels/{game.guild_id or '@me'}/{game.channel_id}/{game.board_message_id}"
                    if game.board_message_id else f"<#{game.channel_id}>")
            note = ""
            if timing.autopass > 0:
                deadline = int(game.updated_at + 60 * timing.autopass)
                note = "\n" + t("bot.reminder_autopass", lang, at=f"<t:{deadline}:R>")
            try:
                await self._channel(game).send(t("bot.reminder_channel", lang, mention=f"<@{uid}>", since=since)
                                               + note)
            except discord.HTTPException as e:
                log.warning("could not post the reminder of game %s: %s", game.id, e)
            if uid not in self.dm_closed:
                try:
                    dm = await self.bot.create_dm(discord.Object(id=uid))
                    await dm.send(t("bot.reminder_dm", lang, channel=f"<#{game.channel_id}>", game=game.id,
                                    since=since, link=link) + note)
                except discord.HTTPException as e:
                    log.info("reminder DM to user %s failed: %s", uid, e)
                    self.dm_closed.add(uid)

    async def _time_out(self, timer: TimerRow) -> None:
        """Time is up: the bot plays the default action for the absent player (and tells them)."""
        out = await self.service.timeout(timer, after=self._present)
        if out is None:
            return
        game, lang = out.game, out.game.lang
        uid = game.user_at(out.seat)
        if uid is not None and uid not in self.dm_closed:
            lines = event_lines(out.events, _names(game), out.state.ruleset.edition, lang, auto=out.auto)
            try:
                dm = await self.bot.create_dm(discord.Object(id=uid))
                await dm.send(t("bot.timeout_dm", lang, channel=f"<#{game.channel_id}>", game=game.id,
                                action=lines[0] if lines else out.notation))
            except discord.HTTPException as e:
                log.info("time-out DM to user %s failed: %s", uid, e)
                self.dm_closed.add(uid)
        if out.all_changed_hands():
            await self.push_hands(game, out.state, out.all_changed_hands())

    # --- commands: host tools -------------------------------------------------------------------
    @app_commands.command(name="abort", description=_("cmd.abort"))
    async def abort(self, interaction: Interaction) -> None:
        lang = await self._channel_lang(interaction)

        async def work() -> None:
            perms = interaction.permissions
            game = await self.service.abort(self._cid(interaction), interaction.user.id,
                                            may_manage=bool(perms and perms.manage_messages))
            async with self.service.lock(game.id):
                await self._strip_old(game)
            await interaction.response.send_message(t("bot.aborted_by", game.lang, player=interaction.user.mention))

        await self._guard(interaction, lang, work)

    @app_commands.command(name="kick", description=_("cmd.kick"))
    @app_commands.describe(player=_("opt.player"))
    async def kick(self, interaction: Interaction, player: discord.Member) -> None:
        lang = await self._channel_lang(interaction)

        async def work() -> None:
            game, seat = await self.service.kick(self._cid(interaction), interaction.user.id, player.id)
            await interaction.response.send_message(t("bot.kicked", game.lang, player=player.mention, seat=seat + 1))
            if game.status == LOBBY:
                await self._refresh_lobby(game)
            else:
                async with self.service.lock(game.id):
                    game = await self.service.game(game.id)
                    await self.post_board(game, self.service.state(game))

        await self._guard(interaction, lang, work)

    @app_commands.command(name="replace", description=_("cmd.replace"))
    @app_commands.describe(player=_("opt.player"), new_player=_("opt.new_player"))
    async def replace(self, interaction: Interaction, player: discord.Member, new_player: discord.Member) -> None:
        lang = await self._channel_lang(interaction)

        async def work() -> None:
            if new_player.bot:
                raise UserError("no_bots")
            game, seat = await self.service.replace(self._cid(interaction), interaction.user.id, player.id,
                                                    new_player.id, new_player.display_name)
            await interaction.response.send_message(
                t("bot.replaced", game.lang, old=player.mention, new=new_player.mention, seat=seat + 1))
            st = self.service.state(game)
            async with self.service.lock(game.id):
                game = await self.service.game(game.id)
                await self.post_board(game, st)
            await self.push_hands(game, st, [seat])

        await self._guard(interaction, lang, work)

    # --- helpers ----------------------------------------------------------------------------------
    @staticmethod
    def _cid(interaction: Interaction) -> int:
        assert interaction.channel_id is not None
        return interaction.channel_id

    async def _channel_lang(self, interaction: Interaction, *, latest: bool = False) -> str:
        """The language of the channel's open game (``latest``: else of its newest game), else the user's."""
        store = self.bot.store
        assert store is not None
        cid = self._cid(interaction)
        game = await (store.latest_game_in_channel(cid) if latest else store.open_game_in_channel(cid))
        return _lang_of(interaction, game, self.bot.config.language)

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """Errors outside the handlers' own guard (checks, option conversion)."""
        lang = _lang_of(interaction, default=self.bot.config.language)
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            await self._safe_private(interaction, t("bot.not_allowed", lang))
            return
        original = getattr(error, "original", error)
        log.error("command error", exc_info=original)
        self.bot.record_bug(original)
        await self._safe_private(interaction, t("bot.bug", lang))


async def setup(bot: PetersburgBot) -> None:
    """Extension entry point: the cog and the persistent (dynamic) buttons."""
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(Petersburg(bot))

