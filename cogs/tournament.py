"""``/petersburg tournament …``: create, join / leave (and the sign-up button), start, standings, drop, cancel,
settings. Organisers are members with Manage Server or the role the server names (``/petersburg host settings
server:True tournament_role:``). No rules and no pairing here: ``bot.tournaments`` and the ``tournament``
package decide; the running of the rounds is ``cogs.tournament_run``."""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord import app_commands

from bot.service import UserError
from bot.store.tournaments import Tournament
from bot.timers import parse_minutes
from bot.tournament_judge import adjudicate
from bot.tournament_options import parse_parts
from bot.tournament_text import options_text, standings_lines, who
from bot.translator import locale_str as _
from rules.i18n import t

from .base import NO_PINGS, Interaction, lang_of
from .tournament_items import sign_up_view
from .tournament_run import TournamentRunner

log = logging.getLogger(__name__)

TOURNAMENT = app_commands.Group(name="tournament", description=_("cmd.tournament"))
ROLE_SETTING = "tournament_role"  # guild settings: the role whose members organise tournaments
Points = Literal["bga", "beaten", "win"]
Size = app_commands.Range[int, 2, 5]
Rounds = app_commands.Range[int, 1, 12]
Heats = app_commands.Range[int, 1, 3]
Hours = app_commands.Range[int, 1, 720]
Limit = app_commands.Range[int, 2, 1000]
Window = app_commands.Range[int, 0, 720]

OPTIONS = dict(size=_("opt.t_size"), rounds=_("opt.t_rounds"), heats=_("opt.t_heats"),
               deadline_hours=_("opt.t_deadline"), points=_("opt.t_points"), max_players=_("opt.t_max"),
               signup_hours=_("opt.t_signup"), edition=_("opt.t_edition"), money=_("opt.t_money"),
               reminder=_("opt.reminder"), timeout=_("opt.autopass"), takeover=_("opt.takeover"),
               parts=_("opt.t_parts"), language=_("opt.t_language"), takebacks=_("opt.t_takebacks"),
               hints=_("opt.t_hints"), rated=_("opt.t_rated"), computers=_("opt.t_computers"))
Lang = Literal["en", "de"]


class TournamentCommands(TournamentRunner):
    """The ``/petersburg tournament`` group; part of the ``/petersburg`` cog."""

    tournament = TOURNAMENT

    async def is_organiser(self, interaction: Interaction) -> bool:
        perms = interaction.permissions
        if perms is not None and perms.manage_guild:
            return True
        if interaction.guild_id is None:
            return False
        role = (await self.store.guild_settings(interaction.guild_id)).get(ROLE_SETTING)
        return role is not None and any(r.id == int(role) for r in getattr(interaction.user, "roles", []))

    async def organiser(self, interaction: Interaction) -> None:
        if not await self.is_organiser(interaction):
            raise UserError("tournament_not_organiser")

    def options(self, size: int | None, rounds: int | None, heats: int | None, deadline_hours: int | None,
                points: str | None, max_players: int | None, signup_hours: int | None, edition: int | None,
                money: str | None, reminder: str | None = None, timeout: str | None = None,
                takeover: bool | None = None, parts: str | None = None, language: str | None = None,
                flags: dict[str, bool | None] | None = None) -> dict[str, Any]:
        """The options given, as the tournament's settings (durations in minutes; parts as the lobby's keys for
        ``edition`` (or the tournament's, ``current``); a bad one: a UserError)."""
        out: dict[str, Any] = {"size": size, "rounds": rounds, "heats": heats, "deadline_hours": deadline_hours,
                               "points": points, "max_players": max_players, "edition": edition, "lang": language,
                               "takeover": None if takeover is None else int(takeover)}
        for key, flag in (flags or {}).items():
            out[key] = None if flag is None else int(flag)
        if parts is not None:
            out.update(parse_parts(parts, int(edition or 2)))
        for key, raw in (("reminder", reminder), ("autopass", timeout)):
            if raw is not None:
                try:
                    out[key] = parse_minutes(raw)
                except ValueError:
                    raise UserError("bad_duration", value=raw) from None
        if money is not None:
            out["open_money"] = money == "open"
        if signup_hours:
            out["signup_until"] = self.store.clock() + 3600.0 * signup_hours
        return out

    async def on_tournament(self, interaction: Interaction, work: Any) -> None:
        """Acknowledge privately, then ``work(tournament, lang)`` on the channel's open tournament."""
        await self.defer(interaction)
        lang = lang_of(interaction, default=self.bot.config.language)

        async def go() -> None:
            tr = await self.tournaments.open_in(self.cid(interaction))
            await work(tr, self.lang_of_tournament(tr))

        await self.guard(interaction, lang, go)

    # --- organising -------------------------------------------------------------------------------
    @TOURNAMENT.command(name="create", description=_("cmd.tournament_create"))
    @app_commands.describe(name=_("opt.t_name"), format=_("opt.t_format"), **OPTIONS)
    async def tournament_create(self, interaction: Interaction, name: str, format: Literal["swiss", "heats"] = "swiss",
                                size: Size = 4, rounds: Rounds = 3, heats: Heats = 1, deadline_hours: Hours = 72,
                                points: Points = "bga", max_players: Limit = 64, signup_hours: Window = 0,
                                edition: Literal[1, 2] = 2, money: Literal["open", "hidden"] = "open",
                                reminder: str | None = None, timeout: str | None = None,
                                takeover: bool | None = None, parts: str | None = None, language: Lang | None = None,
                                takebacks: bool | None = None, hints: bool | None = None, rated: bool | None = None,
                                computers: bool | None = None) -> None:
        await self.defer(interaction)
        lang = lang_of(interaction, default=self.bot.config.language)

        async def work() -> None:
            await self.organiser(interaction)
            assert interaction.guild_id is not None
            flags = {"takeback": takebacks, "hints": hints, "rated": rated, "computers": computers}
            options = self.options(size, rounds, heats, deadline_hours, points, max_players, signup_hours, edition,
                                   money, reminder, timeout, takeover, parts, language, flags)
            options["lang"] = language or lang
            tr = await self.tournaments.create(guild_id=interaction.guild_id, channel_id=self.cid(interaction),
                                               host_id=interaction.user.id, name=name, fmt=format, options=options)
            msg = await self.bot.get_partial_messageable(tr.channel_id, guild_id=tr.guild_id).send(
                "🏆", view=sign_up_view(tr.id, t("bot.t_button_join", lang)), allowed_mentions=NO_PINGS)
            await self.store.set_tournament_message(tr.id, announcement=msg.id)
            fresh = await self.store.get_tournament(tr.id)
            assert fresh is not None
            await self.refresh_announcement(fresh)
            await self.after_commit(interaction, t("bot.t_created", lang, name=tr.name))

        await self.guard(interaction, lang, work)

    @TOURNAMENT.command(name="settings", description=_("cmd.tournament_settings"))
    @app_commands.describe(extend_hours=_("opt.t_extend"), **OPTIONS)
    async def tournament_settings(self, interaction: Interaction, size: Size | None = None,
                                  rounds: Rounds | None = None, heats: Heats | None = None,
                                  deadline_hours: Hours | None = None, points: Points | None = None,
                                  max_players: Limit | None = None, signup_hours: Window | None = None,
                                  edition: Literal[1, 2] | None = None,
                                  money: Literal["open", "hidden"] | None = None, reminder: str | None = None,
                                  timeout: str | None = None, takeover: bool | None = None,
                                  parts: str | None = None, language: Lang | None = None,
                                  takebacks: bool | None = None, hints: bool | None = None,
                                  rated: bool | None = None, computers: bool | None = None,
                                  extend_hours: Hours | None = None) -> None:
        async def work(tr: Tournament, lang: str) -> None:
            if extend_hours is not None:  # the running round's deadline, later
                await self.organiser(interaction)
                deadline = await self.tournaments.extend(tr, extend_hours)
                text = t("bot.t_extended", lang, player=interaction.user.mention, name=tr.name, round=tr.round,
                         deadline=f"<t:{int(deadline)}:R>")
                await self.after_commit(interaction, text)
                await self.say(tr, text, [])
                return
            flags = {"takeback": takebacks, "hints": hints, "rated": rated, "computers": computers}
            given = self.options(size, rounds, heats, deadline_hours, points, max_players, signup_hours,
                                 edition or int(tr.settings.get("edition", 2)), money, reminder, timeout, takeover,
                                 parts, language, flags)
            if edition is None:
                del given["edition"]
            changes = {k: v for k, v in given.items() if v is not None}
            if not changes:
                text = t("bot.t_settings", lang, name=tr.name, settings=options_text(tr, lang))
                await self.private(interaction, text)
                return
            await self.organiser(interaction)
            tr = await self.tournaments.update(tr, changes)
            await self.refresh_announcement(tr)
            await self.after_commit(interaction, t("bot.t_settings_set", lang, player=interaction.user.mention,
                                                   name=tr.name, settings=options_text(tr, lang)))

        await self.on_tournament(interaction, work)

    @TOURNAMENT.command(name="start", description=_("cmd.tournament_start"))
    async def tournament_start(self, interaction: Interaction) -> None:
        async def work(tr: Tournament, lang: str) -> None:
            await self.organiser(interaction)
            async with self.tournament_lock(tr.id):
                started = await self.tournaments.start(tr)
            fresh = await self.store.get_tournament(tr.id)
            assert fresh is not None
            players = [e.user_id for e in await self.store.entrants(tr.id)]
            text = t("bot.t_started", lang, name=tr.name, players=" ".join(f"<@{u}>" for u in players))
            await self.after_commit(interaction, text)
            if started:  # announced and its tables made (the poll would, too)
                await self.step(fresh)

        await self.on_tournament(interaction, work)

    @TOURNAMENT.command(name="cancel", description=_("cmd.tournament_cancel"))
    async def tournament_cancel(self, interaction: Interaction) -> None:
        async def work(tr: Tournament, lang: str) -> None:
            await self.organiser(interaction)
            await self.tournaments.cancel(tr)
            fresh = await self.store.get_tournament(tr.id)
            assert fresh is not None
            await self.refresh_announcement(fresh)
            text = t("bot.t_cancelled", lang, name=tr.name, player=interaction.user.mention)
            await self.after_commit(interaction, text)
            await self.say(fresh, text, [])

        await self.on_tournament(interaction, work)

    @TOURNAMENT.command(name="adjudicate", description=_("cmd.tournament_adjudicate"))
    @app_commands.describe(round=_("opt.t_adj_round"), table=_("opt.t_adj_table"), places=_("opt.t_adj_places"))
    async def tournament_adjudicate(self, interaction: Interaction, round: app_commands.Range[int, 1, 99],
                                    table: app_commands.Range[int, 1, 999], places: str) -> None:
        async def work(tr: Tournament, lang: str) -> None:
            await self.organiser(interaction)
            async with self.tournament_lock(tr.id):
                decided, given = await adjudicate(self.service, tr, round, table, places, interaction.user.id)
            if decided.game_id is not None:
                self.poster.kick(decided.game_id)  # the notice in the table's thread
            ranked = sorted(zip(decided.players, given, strict=True), key=lambda x: x[1])
            text = t("bot.t_adjudicated", lang, player=interaction.user.mention, name=tr.name, round=round,
                     table=table, places=", ".join(f"{p}. {who(u, lang)}" for u, p in ranked))
            await self.after_commit(interaction, text)
            await self.say(tr, text, [])
            await self.post_standings(tr)
            await self.step(tr)  # the round may be done now

        await self.on_tournament(interaction, work)

    # --- playing ------------------------------------------------------------------------------------
    async def on_tournament_join(self, interaction: Interaction, tid: int) -> None:
        """The sign-up button."""
        await self.defer(interaction)
        lang = lang_of(interaction, default=self.bot.config.language)

        async def work() -> None:
            tr = await self.store.get_tournament(tid)
            if tr is None:
                raise UserError("tournament_none")
            await self._tournament_join(interaction, tr, self.lang_of_tournament(tr))

        await self.guard(interaction, lang, work)

    async def _tournament_join(self, interaction: Interaction, tr: Tournament, lang: str) -> None:
        await self.tournaments.join(tr, interaction.user.id, interaction.user.display_name)
        await self.refresh_announcement(tr)
        await self.after_commit(interaction, t("bot.t_joined", lang, name=tr.name))

    @TOURNAMENT.command(name="join", description=_("cmd.tournament_join"))
    async def tournament_join(self, interaction: Interaction) -> None:
        async def work(tr: Tournament, lang: str) -> None:
            await self._tournament_join(interaction, tr, lang)

        await self.on_tournament(interaction, work)

    @TOURNAMENT.command(name="leave", description=_("cmd.tournament_leave"))
    async def tournament_leave(self, interaction: Interaction) -> None:
        async def work(tr: Tournament, lang: str) -> None:
            await self.tournaments.leave(tr, interaction.user.id)
            await self.refresh_announcement(tr)
            await self.after_commit(interaction, t("bot.t_left", lang, name=tr.name))

        await self.on_tournament(interaction, work)

    @TOURNAMENT.command(name="drop", description=_("cmd.tournament_drop"))
    @app_commands.describe(player=_("opt.t_player"))
    async def tournament_drop(self, interaction: Interaction, player: discord.Member | None = None) -> None:
        async def work(tr: Tournament, lang: str) -> None:
            target = player.id if player is not None else interaction.user.id
            if target != interaction.user.id:
                await self.organiser(interaction)
            await self.tournaments.drop(tr, target)
            text = t("bot.t_dropped", lang, player=f"<@{target}>", name=tr.name)
            await self.after_commit(interaction, text)
            await self.say(tr, text, [])

        await self.on_tournament(interaction, work)

    @TOURNAMENT.command(name="standings", description=_("cmd.tournament_standings"))
    async def tournament_standings(self, interaction: Interaction) -> None:
        await self.defer(interaction)
        lang = lang_of(interaction, default=self.bot.config.language)

        async def work() -> None:
            tr = await self.store.latest_tournament_in_channel(self.cid(interaction))
            if tr is None:
                raise UserError("tournament_none")
            lang2 = self.lang_of_tournament(tr)
            table = await self.tournaments.standings(tr)
            title = t("bot.t_standings_final" if table.finished else "bot.t_standings_title", lang2, name=tr.name,
                      round=tr.round)
            lines = standings_lines(table, lang2, limit=len(table.rows))
            text = title + "\n" + "\n".join(lines)
            await self.private(interaction, text[:2000].rsplit("\n", 1)[0] if len(text) > 2000 else text)

        await self.guard(interaction, lang, work)
