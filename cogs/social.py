"""Between and across games: 🔁 Rematch, games in threads of their own, ``/petersburg games`` (a member's games
in the server), ``/petersburg away`` (time away), the digest of reminder DMs and archiving a game's thread
some time after its end.

A game in a thread is a game in a channel like any other (the store keys games by channel; a thread is one);
``games.parent_id`` only says where its thread hangs, so the rematch gets a new thread there and the thread
can be archived (not deleted: the replay button on the final scores keeps working in an archived thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Callable, Sequence
from typing import Literal

import discord
from discord import app_commands

from bot.lobby import max_players
from bot.service import UserError
from bot.social import away_date, waits_for
from bot.store import ACTIVE, LOBBY, Game
from bot.translator import locale_str as _
from rules import GameState
from rules.i18n import t

from .base import NO_PINGS, CogBase, Interaction, lang_of
from .computers import computer_name

log = logging.getLogger(__name__)

THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
ARCHIVE_AFTER = 3600.0  # seconds after the final scores (or the abort) a game's thread is archived
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # Discord archives an idle thread after a week
THREAD_NAME = 100  # Discord's limit
DIGEST_WINDOW = 1800.0  # seconds in which a game listed in a member's reminder DM sends no DM of its own


def jump(game: Game, message_id: int | None = None) -> str:
    """A link to the game's live board or lobby message (else to its channel)."""
    target = message_id if message_id is not None else game.board_message_id
    if target is None:
        return f"<#{game.channel_id}>"
    return f"https://discord.com/channels/{game.guild_id or '@me'}/{game.channel_id}/{target}"


def is_thread(channel: object) -> bool:
    kind = getattr(channel, "type", None)
    return kind in (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                    discord.ChannelType.news_thread)


class SocialCommands(CogBase):
    """Rematch, threads, ``games``, ``away``, digest DMs, archiving threads; part of the ``/petersburg`` cog."""

    # per process: the presses of one game's 🔁 Rematch in turn (so a second press never opens a thread for
    # nothing), and which games a member's last reminder DM listed (``reminder_dms``); made on first use
    # --- threads ------------------------------------------------------------------------------------
    async def open_thread(self, interaction: Interaction, parent_id: int, players: Sequence[str], lang: str,
                          line: Callable[[str], str]) -> int:
        """A new public thread of ``parent_id`` named after the game and its players, hanging from the one line
        the channel gets about it (``line(thread mention)``); the missing permissions are named (a UserError)
        when the bot may not open or write in one."""
        perms = interaction.app_permissions
        missing = [p for p in THREAD_PERMISSIONS if not getattr(perms, p, False)]
        if missing:
            raise UserError("thread_permissions", perms=", ".join(t(f"bot.perm_{p}", lang) for p in missing))
        name = t("bot.thread_name", lang, players=", ".join(players))[:THREAD_NAME]
        channel = self.bot.get_partial_messageable(parent_id, guild_id=interaction.guild_id)
        msg = await channel.send(line(t("bot.thread_below", lang))[:2000], allowed_mentions=NO_PINGS)
        try:
            data = await self.bot.http.start_thread_with_message(
                parent_id, msg.id, name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
        except discord.HTTPException as e:  # no thread here (a channel that has none, a lost permission)
            with contextlib.suppress(discord.HTTPException):
                await msg.delete()
            if isinstance(e, discord.Forbidden):
                raise UserError("thread_permissions",
                                perms=", ".join(t(f"bot.perm_{p}", lang) for p in THREAD_PERMISSIONS)) from None
            raise UserError("thread_failed", reason=e.text or e.status) from None
        thread_id = int(data["id"])
        try:
            await msg.edit(content=line(f"<#{thread_id}>")[:2000], allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            log.info("could not link thread %s in its line: %s", thread_id, e)
        return thread_id

    async def rename_thread(self, game: Game) -> None:
        """The game's thread named after the game and the players who start it (a failure is only logged)."""
        name = t("bot.thread_name", game.lang, players=", ".join(s.name for s in game.seats))[:THREAD_NAME]
        try:
            await self.bot.http.edit_channel(game.channel_id, name=name)
        except discord.HTTPException as e:
            log.info("could not rename the thread of game %s: %s", game.id, e)

    async def wants_thread(self, interaction: Interaction, thread: bool | None) -> bool:
        """Whether ``create`` opens the game in a new thread: the option, else the server's default; never
        from inside a thread (the game is then played in that thread)."""
        if is_thread(interaction.channel):
            return False
        if thread is not None:
            return thread
        if interaction.guild_id is None:
            return False
        return bool((await self.store.guild_settings(interaction.guild_id)).get("threads"))

    async def archive_threads(self) -> None:
        """Archive the threads of games that ended ``ARCHIVE_AFTER`` ago (called by the timer poll)."""
        for game_id, thread_id in await self.store.threads_to_archive(self.store.clock() - ARCHIVE_AFTER):
            try:
                await self.bot.http.edit_channel(thread_id, archived=True)
            except discord.NotFound:
                pass
            except discord.HTTPException as e:
                log.info("could not archive the thread of game %s: %s", game_id, e)
                continue
            await self.store.set_archived(game_id)

    # --- one reminder DM for several games ----------------------------------------------------------------
    async def reminder_dms(self, due: dict[int, list[tuple[Game, str, str]]]) -> None:
        """The reminder DMs of a poll: member -> their games whose reminder went out now (game, since when, the
        time-out's note). A member gets one DM listing every game that waits for them, not one a game; a game
        listed so beside another's reminder in the last ``DIGEST_WINDOW`` seconds (by this process) sends no DM
        of its own then."""
        now = self.store.clock()
        listed: dict[tuple[int, int], float] = self.__dict__.setdefault("_listed", {})
        for key in [k for k, at in listed.items() if now - at >= DIGEST_WINDOW]:
            del listed[key]
        for uid, games in due.items():
            if all((uid, g.id) in listed for g, _s, _n in games):
                continue
            entries = list(games)
            known = {g.id for g, _s, _n in games}
            for game in await self.store.user_games(uid, status=ACTIVE, limit=50):
                if game.id not in known and waits_for(game, uid):
                    entries.append((game, f"<t:{int(game.updated_at)}:R>", ""))
            for game, _s, _n in entries[len(games):]:  # listed beside the due ones (a due one's repeat still DMs)
                listed[(uid, game.id)] = now
            await self.dms.send(uid, reminder_text(entries), force=True)

    # --- rematch ------------------------------------------------------------------------------------
    async def on_rematch(self, interaction: Interaction, game_id: int) -> None:
        """🔁 Rematch: the first press of one of the game's players opens the lobby (in the game's channel, or
        a new thread beside the game's thread), hosted by the presser; a later press links to it."""
        await self.defer(interaction)
        game = await self.store.get_game(game_id)
        lang = game.lang if game is not None else lang_of(interaction, default=self.bot.config.language)

        async def work() -> None:
            if game is None:
                raise UserError("no_game")
            if interaction.user.id not in {s.user_id for s in game.seats if s.user_id is not None}:
                raise UserError("rematch_not_player")
            locks: weakref.WeakValueDictionary[int, asyncio.Lock] = self.__dict__.setdefault(
                "_rematching", weakref.WeakValueDictionary())
            lock = locks.setdefault(game_id, asyncio.Lock())
            async with lock:
                await self._rematch(interaction, game, lang)

        await self.guard(interaction, lang, work)

    async def _rematch(self, interaction: Interaction, game: Game, lang: str) -> None:
        existing = await self.store.open_rematch(game.id)
        if existing is not None:
            await self.private(interaction, t("bot.rematch_already", lang, link=jump(existing)))
            return
        user = interaction.user
        names = {lv: computer_name(lv, lang) for lv in ("easy", "normal", "strong")}
        thread_id = None
        if game.parent_id is not None:
            players = [user.display_name, *(s.name for s in game.seats if s.user_id not in (None, user.id))]
            thread_id = await self.open_thread(interaction, game.parent_id, players, lang,
                                               lambda where: t("bot.rematch_line", lang, host=user.mention,
                                                               game=game.id, thread=where))
        made, created = await self.service.rematch(game.id, user.id, user.display_name, channel_id=thread_id,
                                                   computer_names=names)
        if not created:  # another process opened it first
            if thread_id is not None:
                with contextlib.suppress(discord.HTTPException):
                    await self.bot.http.delete_channel(thread_id)
            await self.private(interaction, t("bot.rematch_already", lang, link=jump(made)))
            return
        msg = await self.channel(made).send(await self.lobby_text(made), view=self.lobby_controls(made),
                                            allowed_mentions=NO_PINGS)
        await self.store.set_board_message(made.id, msg.id)
        link = jump(made, msg.id)
        others = sorted({s.user_id for s in game.seats if s.user_id is not None and s.user_id != user.id})
        if others:  # mentioned once, here; the lobby message itself pings nobody
            try:
                await self.channel(made).send(
                    t("bot.rematch_call", lang, host=user.mention, game=game.id,
                      players=", ".join(f"<@{u}>" for u in others), link=link)[:2000],
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in others],
                                                             everyone=False, roles=False))
            except discord.HTTPException as e:
                log.info("could not call the players to the rematch of game %s: %s", game.id, e)
        await self.private(interaction, t("bot.rematch_opened", lang, link=link))

    # --- a member's games ------------------------------------------------------------------------------
    @app_commands.command(name="games", description=_("cmd.games"))
    async def games(self, interaction: Interaction) -> None:
        """Your games in this server: waiting for you (and since when), the others, the lobbies to join."""
        await self.defer(interaction)
        lang = lang_of(interaction, default=self.bot.config.language)

        async def work() -> None:
            assert interaction.guild_id is not None
            mine = await self.service.member_games(interaction.guild_id, interaction.user.id)
            parts: list[str] = []
            if mine.waiting:
                parts.append(t("bot.games_waiting", lang))
                parts.extend(t("bot.games_line_waiting", lang, game=g.id, where=f"<#{g.channel_id}>",
                               since=f"<t:{int(since)}:R>", players=_players(g), link=jump(g))
                             for g, since in mine.waiting)
            if mine.others:
                parts.append(t("bot.games_others", lang))
                parts.extend(t("bot.games_line", lang, game=g.id, where=f"<#{g.channel_id}>",
                               status=_status(g, lang), players=_players(g), link=jump(g)) for g in mine.others)
            if mine.lobbies:
                parts.append(t("bot.games_lobbies", lang))
                parts.extend(t("bot.games_line_lobby", lang, game=g.id, where=f"<#{g.channel_id}>", n=len(g.seats),
                               max=max_players(g), host=f"<@{g.host_id}>", link=jump(g)) for g in mine.lobbies)
            text = t("bot.games_title", lang) + "\n" + "\n".join(parts) if parts else t("bot.games_none", lang)
            if len(text) > 2000:
                text = text[:2000].rsplit("\n", 1)[0]
            await self.private(interaction, text)

        await self.guard(interaction, lang, work)

    # --- time away ----------------------------------------------------------------------------------
    @app_commands.command(name="away", description=_("cmd.away"))
    @app_commands.describe(days=_("opt.days"))
    async def away(self, interaction: Interaction, days: app_commands.Range[int, 0, 30]) -> None:
        """Away from this server's games for ``days`` (0: back now): seats marked, no reminders, no time-outs."""
        await self.defer(interaction)
        lang = lang_of(interaction, default=self.bot.config.language)

        async def work() -> None:
            assert interaction.guild_id is not None
            was = await self.store.away_until(interaction.guild_id, [interaction.user.id])
            until = await self.service.set_away(interaction.guild_id, interaction.user.id, days)
            if until is not None:
                text = t("bot.away_set", lang, date=away_date(until, lang))
            else:
                text = t("bot.away_back" if was else "bot.away_not", lang)
            await self.refresh_boards(interaction.guild_id, interaction.user.id)  # the mark on the boards
            await self.private(interaction, text)

        await self.guard(interaction, lang, work)

    async def refresh_boards(self, guild_id: int, user_id: int) -> None:
        """Draw again the boards of the member's games in play in the server (their 🏖️ mark came or went)."""
        for game in await self.store.guild_open_games(guild_id):
            if game.status == ACTIVE and game.seat_of(user_id) is not None:
                await self.poster.show(game.id, refresh=True)


def reminder_text(games: list[tuple[Game, str, str]]) -> str:
    """One game's reminder DM, or the list of several (each: its channel, since when, a link)."""
    game, since, note = games[0]
    lang = game.lang
    if len(games) == 1:
        return t("bot.reminder_dm", lang, channel=f"<#{game.channel_id}>", game=game.id, since=since,
                 link=jump(game)) + note
    lines = "\n".join(t("bot.reminder_digest_line", lang, channel=f"<#{g.channel_id}>", game=g.id, since=s,
                        link=jump(g)) for g, s, _n in games)
    return t("bot.reminder_digest", lang, n=len(games), lines=lines)[:2000]


def _players(game: Game) -> str:
    return ", ".join(s.name for s in game.seats)


def _status(game: Game, lang: str) -> str:
    if game.status == LOBBY or game.state is None:
        return t("bot.games_status_lobby", lang)
    st = GameState.from_json(game.state)
    seat = game.seats[st.decider] if st.decider < len(game.seats) else None
    return t("bot.games_status_turn", lang, player=seat.name if seat is not None else "?")
