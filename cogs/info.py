"""Over hours and days: turn-timer settings, the game log, statistics, export, history and leaderboard."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands

from bot.ratings_view import leaderboard_text as rating_board
from bot.service import UserError
from bot.store import ACTIVE, LOBBY, Game
from bot.takeback import SETTING as TAKEBACK_SETTING
from bot.texts import duration, history_text, leaderboard_text, log_text, stats_text, timing_text
from bot.timers import parse_minutes
from bot.tournament_history import tournament_page
from bot.translator import locale_str as _
from rules import view
from rules.i18n import t

from .base import HOST, NO_PINGS, CogBase, Interaction
from .public import embed_of, names_of
from .replays import history_view

log = logging.getLogger(__name__)

DURATION_SUGGESTIONS = (0, 15, 30, 60, 120, 240, 480, 720, 1440, 2880, 10080)


def _clip(text: str, limit: int = 2000) -> str:
    """At most ``limit`` characters, cut after a whole line."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit("\n", 1)[0]


def _flags_text(settings: dict[str, object], lang: str) -> str:
    """Whether a computer player takes over at the time-out, and whether hints are allowed."""
    return t("bot.flags_line", lang, takeover=t("bot.on" if settings.get("takeover") else "bot.off", lang),
             hints=t("bot.on" if settings.get("hints", 1) else "bot.off", lang))


def _takeback_text(on: bool, lang: str) -> str:
    """Whether players may take back their last move (``bot.takeback``)."""
    return t("bot.takeback_line", lang, takeback=t("bot.on" if on else "bot.off", lang))


class InfoCommands(CogBase):
    """Settings and the game's records, in the ``/petersburg`` group."""

    async def defer_public(self, interaction: Interaction) -> None:
        """Acknowledge a command whose answer everyone sees."""
        if not interaction.response.is_done():
            try:
                await interaction.response.defer(thinking=True)
            except discord.HTTPException as e:
                log.info("could not acknowledge %s: %s", interaction.id, e)

    async def announce(self, interaction: Interaction, text: str) -> None:
        """A public line in the channel (e.g. new settings); failures only logged."""
        try:
            await self.bot.get_partial_messageable(self.cid(interaction)).send(text[:2000], allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            log.info("could not announce in channel %s: %s", interaction.channel_id, e)

    @HOST.command(name="settings", description=_("cmd.settings"))
    @app_commands.describe(reminder=_("opt.reminder"), interval=_("opt.interval"), autopass=_("opt.autopass"),
                           server=_("opt.server"), takeover=_("opt.takeover"), hints=_("opt.hints"),
                           threads=_("opt.threads"), takeback=_("opt.takeback"),
                           tournament_role=_("opt.tournament_role"))
    async def settings(self, interaction: Interaction, reminder: str | None = None, interval: str | None = None,
                       autopass: str | None = None, server: bool = False, takeover: bool | None = None,
                       hints: bool | None = None, threads: bool | None = None,
                       takeback: bool | None = None, tournament_role: discord.Role | None = None) -> None:
        """Host: this game's reminder, repeat interval and time-out, whether a computer player takes over an
        absent player's seat at the time-out, whether hints are allowed and whether players may take back a
        move; with ``server`` (Manage Server) the server's timer and take-back defaults and whether new games
        open in a thread (``threads``). Without values: show
        them."""
        await self.defer(interaction)
        lang = await self.channel_lang(interaction, public=True)  # new settings are announced to the channel

        async def work() -> None:
            changes: dict[str, int] = {}
            for key, raw in (("reminder", reminder), ("interval", interval), ("autopass", autopass)):
                if raw is not None:
                    try:
                        changes[key] = parse_minutes(raw)
                    except ValueError:
                        raise UserError("bad_duration", value=raw) from None
            flags = {key: int(value) for key, value in (("takeover", takeover), ("hints", hints)) if value is not None}
            if server and flags:
                raise UserError("game_only_setting")
            changes.update(flags)
            if threads is not None:  # the server's default for create's thread option
                if not server:
                    raise UserError("threads_server_only")
                changes["threads"] = int(threads)
            if takeback is not None:
                changes[TAKEBACK_SETTING] = int(takeback)
            if tournament_role is not None:  # who organises tournaments besides Manage Server
                if not server:
                    raise UserError("tournament_role_server_only")
                changes["tournament_role"] = tournament_role.id
            if server:
                perms = interaction.permissions
                if changes and not (perms and perms.manage_guild):
                    raise UserError("not_manager")
                assert interaction.guild_id is not None
                timing = await self.service.update_server_settings(interaction.guild_id, changes)
                key = "bot.server_settings_set" if changes else "bot.server_settings"
                text = t(key, lang, player=interaction.user.mention, settings=timing_text(timing, lang))
                on = (await self.store.guild_settings(interaction.guild_id)).get("threads")
                text += "\n" + t("bot.threads_flag", lang, threads=t("bot.on" if on else "bot.off", lang))
                text += "\n" + _takeback_text(await self.service.server_takeback(interaction.guild_id), lang)
                role = (await self.store.guild_settings(interaction.guild_id)).get("tournament_role")
                if role is not None:
                    text += "\n" + t("bot.tournament_role_line", lang, role=f"<@&{role}>")
            else:
                game = await self.store.open_game_in_channel(self.cid(interaction))
                if game is None and not changes:
                    assert interaction.guild_id is not None
                    timing = await self.service.update_server_settings(interaction.guild_id, {})
                    text = t("bot.server_settings", lang, settings=timing_text(timing, lang))
                    text += "\n" + _takeback_text(await self.service.server_takeback(interaction.guild_id), lang)
                elif not changes:
                    assert game is not None
                    timing = await self.service.timing(game)
                    text = t("bot.game_settings", lang, game=game.id, settings=timing_text(timing, lang))
                    text += "\n" + _flags_text(game.settings, lang)
                    text += "\n" + _takeback_text(await self.service.takeback_allowed(game), lang)
                else:
                    game, timing = await self.service.update_settings(self.cid(interaction), interaction.user.id,
                                                                      changes)
                    text = t("bot.game_settings_set", lang, player=interaction.user.mention, game=game.id,
                             settings=timing_text(timing, lang))
                    text += "\n" + _flags_text(game.settings, lang)
                    text += "\n" + _takeback_text(await self.service.takeback_allowed(game), lang)
            await self.private(interaction, text)
            if changes:  # everyone at the table sees the new settings
                await self.announce(interaction, text)

        await self.guard(interaction, lang, work)

    @settings.autocomplete("reminder")
    @settings.autocomplete("interval")
    @settings.autocomplete("autopass")
    async def duration_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        lang = await self.channel_lang(interaction)
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
        async def work(game: Game, lang: str) -> None:
            st = self.service.state(game)
            seat = game.seat_of(interaction.user.id)
            hidden = [s for s in range(st.n) if s != seat] if not st.ruleset.open_money and not st.finished else []
            rows = await self.store.recent_actions(game.id, count)
            text = log_text([(r.idx, r.events, r.auto) for r in rows], names_of(game), st.ruleset.edition, lang,
                            hidden)
            if len(text) > 4000:  # keep the newest lines
                text = "…" + text[-3990:].split("\n", 1)[-1]
            embed = discord.Embed(title=t("bot.log_title", lang, game=game.id), colour=0x4A5568,
                                  description=text or t("bot.log_empty", lang))
            await self.private(interaction, "", embed=embed)

        await self.on_channel_game(interaction, work, latest=True)

    @app_commands.command(name="stats", description=_("cmd.stats"))
    async def stats(self, interaction: Interaction) -> None:
        """Income per phase kind, spending, cards and VP by source, as the asking player may see them."""
        async def work(game: Game, lang: str) -> None:
            st = self.service.state(game)
            v = view(st, game.seat_of(interaction.user.id))
            await self.private(interaction, "", embed=embed_of(stats_text(v, lang, names_of(game)), colour=0x38A169))

        await self.on_channel_game(interaction, work, latest=True)

    @app_commands.command(name="export", description=_("cmd.export"))
    async def export(self, interaction: Interaction) -> None:
        """The finished game's record as a file (``python -m rules replay FILE`` replays it)."""
        async def work(game: Game, lang: str) -> None:
            if game.status in (LOBBY, ACTIVE):
                raise UserError("export_after_end")  # the seed would reveal the stacks' order
            record = await self.service.record(game)
            file = discord.File(io.BytesIO(record.dumps().encode("utf-8")), filename=f"petersburg-{game.id}.json")
            await self.private(interaction, t("bot.exported", lang, game=game.id, n=len(record.actions)), file=file)

        await self.on_channel_game(interaction, work, latest=True)

    @app_commands.command(name="history", description=_("cmd.history"))
    @app_commands.describe(count=_("opt.count"), tournament=_("opt.history_tournament"),
                           round=_("opt.history_round"))
    async def history(self, interaction: Interaction, count: app_commands.Range[int, 1, 25] = 10,
                      tournament: str | None = None, round: app_commands.Range[int, 1, 99] | None = None) -> None:
        """The server's recently finished games with winners and scores, each with a ▶️ button that replays it
        privately (``cogs.replays``); with ``tournament``, that tournament's page: its rounds and one round's
        tables, each finished game with ▶️ Replay and 📈 Review."""
        await self.defer_public(interaction)
        lang = await self.channel_lang(interaction, latest=True, public=True)

        async def work() -> None:
            if tournament is not None:
                tr = await self.store.tournament_named(interaction.guild_id or 0, tournament)
                if tr is None:
                    names = [x.name for x in await self.store.tournaments_in(interaction.guild_id or 0)]
                    raise UserError("tournament_unknown", name=tournament[:60],
                                    names=", ".join(names) or t("bot.t_nobody", lang))
                page = await tournament_page(self.store, tr, round, lang)
                await interaction.edit_original_response(content=_clip(page.text), view=history_view(page.games),
                                                         allowed_mentions=NO_PINGS)
                return
            games = await self.store.finished_games(interaction.guild_id, count)
            await interaction.edit_original_response(content=_clip(history_text(games, lang)),
                                                     view=history_view([g.id for g in games]),
                                                     allowed_mentions=NO_PINGS)

        await self.guard(interaction, lang, work)

    @app_commands.command(name="leaderboard", description=_("cmd.leaderboard"))
    @app_commands.describe(by=_("opt.by"), who=_("opt.who"))
    @app_commands.choices(by=[app_commands.Choice(name=_("choice.by_rating"), value="rating"),
                              app_commands.Choice(name=_("choice.by_wins"), value="wins")],
                          who=[app_commands.Choice(name=_("choice.who_people"), value="people"),
                               app_commands.Choice(name=_("choice.who_everyone"), value="everyone")])
    async def leaderboard(self, interaction: Interaction, by: str = "rating", who: str = "people") -> None:
        """The server's players by rating (``bot.ratings``; ``who``: people only or the computer levels too), or
        by wins, then average score, in games among people."""
        await self.defer_public(interaction)
        lang = await self.channel_lang(interaction, latest=True, public=True)

        async def work() -> None:
            if by == "wins":
                text = leaderboard_text(await self.store.leaderboard(interaction.guild_id), lang)
            else:
                text = await rating_board(self.store, interaction.guild_id, lang, everyone=who == "everyone")
            await interaction.edit_original_response(content=_clip(text), allowed_mentions=NO_PINGS)

        await self.guard(interaction, lang, work)
