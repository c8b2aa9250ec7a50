"""Host tools (abort, kick, replace) and the turn timers (reminders, time-outs) of the ``/petersburg`` cog.

What these change in the channel is stored as notices with the commit and posted by the board poster, so
the public record of a kick or an abort cannot be lost between the commit and the post.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.service import UserError
from bot.store import LOBBY, DatabaseLost, Game, TimerRow
from bot.texts import event_lines
from bot.timers import AUTOPASS
from bot.translator import locale_str as _
from rules.i18n import t

from .base import HOST, CogBase, Interaction
from .public import names_of

log = logging.getLogger(__name__)


class HostCommands(CogBase):
    """Abort, kick, replace; reminders and time-outs (called by the client's poll)."""

    host = HOST  # the ``/petersburg host`` group (its commands are in this and the other parts of the cog)

    @HOST.command(name="abort", description=_("cmd.abort"))
    async def abort(self, interaction: Interaction) -> None:
        await self.defer(interaction)
        lang = await self.channel_lang(interaction)

        async def work() -> None:
            perms = interaction.permissions
            game = await self.service.abort(self.cid(interaction), interaction.user.id,
                                            may_manage=bool(perms and perms.manage_messages))
            self.poster.kick(game.id)
            await self.private(interaction, t("bot.aborted_by", game.lang, player=interaction.user.mention))
            if game.shown_version < 0:  # a lobby: its message loses the buttons
                await self.refresh_lobby(game)

        await self.guard(interaction, lang, work)

    @HOST.command(name="kick", description=_("cmd.kick"))
    @app_commands.describe(player=_("opt.player"))
    async def kick(self, interaction: Interaction, player: discord.Member) -> None:
        await self.defer(interaction)
        lang = await self.channel_lang(interaction)

        async def work() -> None:
            game, seat = await self.service.kick(self.cid(interaction), interaction.user.id, player.id)
            await self.private(interaction, t("bot.kicked", game.lang, player=player.mention, seat=seat + 1))
            if game.status == LOBBY:
                await self.refresh_lobby(game)
            else:
                self.poster.kick(game.id)

        await self.guard(interaction, lang, work)

    @HOST.command(name="replace", description=_("cmd.replace"))
    @app_commands.describe(player=_("opt.player"), new_player=_("opt.new_player"))
    async def replace(self, interaction: Interaction, player: discord.Member, new_player: discord.Member) -> None:
        await self.defer(interaction)
        lang = await self.channel_lang(interaction)

        async def work() -> None:
            if new_player.bot:
                raise UserError("no_bots")
            game, seat = await self.service.replace(self.cid(interaction), interaction.user.id, player.id,
                                                    new_player.id, new_player.display_name)
            self.poster.kick(game.id)
            await self.private(interaction, t("bot.replaced", game.lang, old=player.mention, new=new_player.mention,
                                              seat=seat + 1))
            await self.push_hand(game, self.service.state(game), seat)

        await self.guard(interaction, lang, work)

    # --- reminders and time-outs ----------------------------------------------------------------------
    async def run_due_timers(self) -> None:
        """Send due reminders and play for players whose time ran out; each one on its own. Each game's channel
        gets its own reminder, a member one DM that lists all their games waiting for them
        (``reminder_dms``). Then the threads of games that ended a while ago are archived, and the running
        tournaments go on (``run_tournaments``)."""
        dms: dict[int, list[tuple[Game, str, str]]] = {}
        for timer in await self.service.due_timers(self.bot.shard_filter()):
            try:
                if timer.kind == AUTOPASS:
                    await self._time_out(timer)
                else:
                    sent = await self._remind(timer)
                    if sent is not None:
                        dms.setdefault(sent[0], []).append(sent[1:])
            except DatabaseLost:  # logged once by the store
                return
            except Exception as e:
                log.exception("timer %s of game %s failed", timer.kind, timer.game_id)
                self.bot.record_bug(e)
        try:
            await self.reminder_dms(dms)
            await self.archive_threads()
            await self.run_tournaments()
        except DatabaseLost:
            return

    async def _remind(self, timer: TimerRow) -> tuple[int, Game, str, str] | None:
        """Claim the reminder in the database (so it goes out once), then ping the player in the channel (the
        turn message is replaced, so reminders do not pile up); returns what their DM must say (the caller
        sends one DM a member). A member away gets none: the reminder waits until they are back."""
        async with self.service.lock(timer.game_id):
            game = await self.store.get_game(timer.game_id)
            if game is None or await self.service.postpone_if_away(game, timer):
                return None
            if not await self.service.claim_reminder(timer, game):
                return None
        uid = game.user_at(timer.seat)
        if uid is None:
            return None
        lang = game.lang
        timing = await self.service.timing(game)
        since = f"<t:{int(game.updated_at)}:R>"
        note = ""
        if timing.autopass > 0:
            deadline = int(game.updated_at + 60 * timing.autopass)
            note = "\n" + t("bot.reminder_autopass", lang, at=f"<t:{deadline}:R>")
        if not await self.poster.remind(game.id, timer.version,
                                        t("bot.reminder_channel", lang, mention=f"<@{uid}>", since=since) + note, uid):
            return None  # the player acted meanwhile
        return uid, game, since, note

    async def _time_out(self, timer: TimerRow) -> None:
        """Time is up: the bot plays the default action for the absent player (and tells them)."""
        out = await self.service.timeout(timer)
        self.poster.kick(timer.game_id)  # a new board, or a computer player took the seat over
        if out is None:
            return
        game, lang = out.game, out.game.lang
        uid = game.user_at(out.seat)
        if uid is not None:
            lines = event_lines(out.events, names_of(game), out.state.ruleset.edition, lang, auto=out.auto)
            self.dms.push(uid, t("bot.timeout_dm", lang, channel=f"<#{game.channel_id}>", game=game.id,
                                 action=lines[0] if lines else out.notation))
        for seat in out.all_changed_hands():
            await self.push_hand(game, out.state, seat)
