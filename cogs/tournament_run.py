"""Running a tournament in Discord: each round's tables as games in threads of the tournament's channel, the
standings after every finished table, the deadline, the final standings and the podium.

``run_tournaments`` is called by the timer poll (in the process of the server's shard) and after a start:
it records the results of ended games, starts the next round when one is done, hurries the games of a round
past its deadline, and makes every table still without its game. Each step is exactly once in the store, so
a restart (also a SIGKILL in the middle of a round's start) simply goes on: a table's thread is looked up by
its name before one is made, and its game is created in the transaction that links it to the table.
Threads are made one after another, ``PACE`` seconds apart, within Discord's rate limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import weakref
from typing import Any

import discord

from bot import images
from bot.social import DEADLINE_SETTING
from bot.store import DatabaseLost
from bot.store.tournaments import DONE, TableRow, Tournament
from bot.timers import Timing
from bot.tournament_text import announcement, podium, standings_data, standings_embed_parts, who
from bot.tournaments import TournamentService
from rules.i18n import t

from .base import NO_PINGS, CogBase
from .social import THREAD_ARCHIVE_MINUTES, THREAD_NAME
from .tournament_items import sign_up_view

log = logging.getLogger(__name__)

PACE = 1.0  # seconds between two tables' threads (Discord allows about 5 channel creations per 5 s)
CLAIM = 300.0  # seconds a process's claim on a table it is making holds without a heartbeat
HURRY_MINUTES = 1  # the time-out of a game past its round's deadline


def mentions(users: list[int]) -> discord.AllowedMentions:
    return discord.AllowedMentions(users=[discord.Object(u) for u in users], everyone=False, roles=False)


class TournamentRunner(CogBase):
    """The running part of the tournament commands (``cogs.tournament``)."""

    pace = PACE

    @property
    def tournaments(self) -> TournamentService:
        made = self.__dict__.get("_tournaments")
        if made is None or made.store is not self.store:
            c = self.bot.config
            made = TournamentService(self.store, Timing(reminder=c.reminder_minutes,
                                                        interval=c.reminder_interval_minutes,
                                                        autopass=c.autopass_minutes))
            self.__dict__["_tournaments"] = made
        return made

    def tournament_lock(self, tid: int) -> asyncio.Lock:
        locks: weakref.WeakValueDictionary[int, asyncio.Lock] = self.__dict__.setdefault(
            "_tournament_locks", weakref.WeakValueDictionary())
        lock = locks.get(tid)
        if lock is None:
            lock = locks[tid] = asyncio.Lock()
        return lock

    def lang_of_tournament(self, tr: Tournament) -> str:
        return str(tr.settings.get("lang", self.bot.config.language))

    # --- the poll -------------------------------------------------------------------------------------
    async def run_tournaments(self) -> None:
        """One pass over the running tournaments of this process's shards (see the module docstring)."""
        shards = self.bot.shard_filter()
        for table, status in await self.store.tables_ended(shards=shards):
            if await self.tournaments.record(table, status):
                tr = await self.store.get_tournament(table.tournament_id)
                if tr is not None:
                    await self.post_standings(tr)
        late = await self.store.rounds_past_deadline(self.store.clock(), shards=shards)
        for tr in await self.store.running_tournaments(shards=shards):
            try:
                await self.step(tr, late=[rnd for tid, rnd in late if tid == tr.id])
            except DatabaseLost:
                raise
            except Exception as e:
                log.exception("tournament %s: a step failed", tr.id)
                self.bot.record_bug(e)

    async def step(self, tr: Tournament, late: list[int] | None = None) -> None:
        """Advance the tournament as far as it can go now, hurry the rounds ``late`` past their deadline (None:
        look them up), then make its missing tables."""
        async with self.tournament_lock(tr.id):
            if await self.store.finish_round(tr.id, tr.round):
                await self.after_round(tr)
            fresh = await self.store.get_tournament(tr.id)
            if fresh is None:
                return
            if fresh.round and await self.store.claim_announcement(fresh.id, fresh.round):
                if fresh.round == 1:
                    players = [e.user_id for e in await self.store.entrants(fresh.id)]
                    lang = self.lang_of_tournament(fresh)
                    await self.say(fresh, t("bot.t_started", lang, name=fresh.name,
                                            players=" ".join(f"<@{u}>" for u in players)), players)
                await self.announce_round(fresh)
            if late is None:
                late = [rnd for tid, rnd in await self.store.rounds_past_deadline(self.store.clock())
                        if tid == tr.id]
            for rnd in late:
                if await self.store.set_hurried(tr.id, rnd):
                    await self.hurry(fresh, rnd)
            await self.make_tables(fresh)

    async def after_round(self, tr: Tournament) -> None:
        """The round is done: the next one starts, or the tournament ends (final standings, podium)."""
        await self.tournaments.advance(tr)  # a new round is announced by ``step`` (once, by any process)
        fresh = await self.store.get_tournament(tr.id)
        if fresh is None:
            return
        if fresh.status == DONE:
            await self.post_standings(fresh)
            lang = self.lang_of_tournament(fresh)
            table = await self.tournaments.standings(fresh)
            await self.say(fresh, podium(fresh, table, lang), [r.player for r in table.rows[:3]])
            await self.refresh_announcement(fresh)

    async def hurry(self, tr: Tournament, rnd: int) -> None:
        """Past the deadline: the round's games still in play get the shortest time-out, also for members away
        (a computer player takes over an absent player's seat, as the tournament's ``takeover`` says), so the
        round ends."""
        for table in await self.store.tournament_tables(tr.id, rnd):
            if table.game_id is None:
                continue
            await self.service.apply_settings(table.game_id, {"autopass": HURRY_MINUTES, "reminder": 0,
                                                              DEADLINE_SETTING: 1})
        lang = self.lang_of_tournament(tr)
        await self.say(tr, t("bot.t_hurried", lang, name=tr.name, round=rnd), [])

    # --- a round's tables -------------------------------------------------------------------------
    async def make_tables(self, tr: Tournament) -> None:
        """Every table of the current round without its game gets its thread and game (paced)."""
        pending = [x for x in await self.store.tables_to_make(shards=self.bot.shard_filter())
                   if x.tournament_id == tr.id]
        if not pending:
            return
        names = {e.user_id: e.name for e in await self.store.entrants(tr.id)}
        owner = None
        if self.store.shared:
            await self.poster.claims.start()
            owner = self.poster.claims.owner
        for i, table in enumerate(pending):
            if owner is not None and not await self.store.claim_table(table, owner, CLAIM):
                continue  # another process is making it
            if i and self.pace:
                await asyncio.sleep(self.pace)
            await self.make_table(tr, table, names)

    def thread_name(self, tr: Tournament, table: TableRow) -> str:
        return t("bot.t_thread", self.lang_of_tournament(tr), name=tr.name, round=table.round,
                 table=table.table_no)[:THREAD_NAME]

    async def make_table(self, tr: Tournament, table: TableRow, names: dict[int, str]) -> None:
        lang = self.lang_of_tournament(tr)
        if table.thread_id is None:
            thread_id = await self.find_thread(tr, table) or await self.open_table_thread(tr, table)
            if thread_id is None:
                return
            if not await self.store.set_table_thread(table, thread_id):
                fresh = [x for x in await self.store.tournament_tables(tr.id, table.round)
                         if x.table_no == table.table_no]
                if not fresh or fresh[0].thread_id is None:
                    return
                if fresh[0].thread_id != thread_id:  # another process's thread won: ours goes
                    with contextlib.suppress(discord.HTTPException):
                        await self.bot.http.delete_channel(thread_id)
                thread_id = fresh[0].thread_id
            table.thread_id = thread_id
        game_id = await self.tournaments.table_game(tr, table, names)
        if game_id is None:
            return
        order = ", ".join(f"{i + 1}. {who(u, lang)}" for i, u in enumerate(table.players))
        call = t("bot.t_table_call", lang, name=tr.name, round=table.round, table=table.table_no,
                 players=" ".join(f"<@{u}>" for u in table.players if u > 0), order=order)
        try:
            await self.bot.get_partial_messageable(table.thread_id, guild_id=tr.guild_id).send(
                call[:2000], allowed_mentions=mentions(table.players))
        except discord.HTTPException as e:
            log.info("could not call the players of tournament %s table %s: %s", tr.id, table.table_no, e)
        self.poster.kick(game_id)  # the board, posted by the board poster like any game's

    async def find_thread(self, tr: Tournament, table: TableRow) -> int | None:
        """The table's thread made before a restart that came before its id was stored (found by its name)."""
        name = self.thread_name(tr, table)
        try:
            data = await self.bot.http.get_active_threads(tr.guild_id)
        except discord.HTTPException as e:
            log.info("could not list the threads of server %s: %s", tr.guild_id, e)
            return None
        for th in data.get("threads", []):
            if int(th.get("parent_id") or 0) == tr.channel_id and th.get("name") == name:
                taken = await self.store.fetch_all("SELECT 1 FROM tournament_tables WHERE thread_id = ?",
                                                   (int(th["id"]),))
                if not taken:
                    return int(th["id"])
        return None

    async def open_table_thread(self, tr: Tournament, table: TableRow) -> int | None:
        try:
            data: Any = await self.bot.http.start_thread_without_message(
                tr.channel_id, name=self.thread_name(tr, table), auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread.value)
        except discord.Forbidden:
            perms = ", ".join(t(f"bot.perm_{p}", self.lang_of_tournament(tr))
                              for p in ("create_public_threads", "send_messages_in_threads"))
            await self.tell_organiser(tr, t("error.tournament_permissions", self.lang_of_tournament(tr), perms=perms))
            return None
        except discord.HTTPException as e:
            log.warning("tournament %s: could not open the thread of table %s: %s", tr.id, table.table_no, e)
            return None
        return int(data["id"])

    async def announce_round(self, tr: Tournament) -> None:
        """One message, one mention of the round's players: their tables (threads follow as they are made)."""
        lang = self.lang_of_tournament(tr)
        rounds = await self.store.rounds(tr.id)
        rnd = rounds[-1]
        tables = await self.store.tournament_tables(tr.id, rnd.round)
        lines = [t("bot.t_round_table", lang, table=x.table_no, thread=f"**{self.thread_name(tr, x)}**",
                   players=" ".join(who(u, lang) for u in x.players)) for x in tables]
        if rnd.byes:
            lines.append(t("bot.t_byes", lang, players=" ".join(f"<@{u}>" for u in rnd.byes)))
        text = t("bot.t_round", lang, name=tr.name, round=rnd.round, stage=t(f"bot.t_stage_{rnd.stage}", lang),
                 deadline=f"<t:{int(rnd.deadline)}:R>", tables="\n".join(lines))
        users = [u for x in tables for u in x.players if u > 0] + rnd.byes
        await self.say(tr, text, users)
        await self.refresh_announcement(tr)

    # --- messages --------------------------------------------------------------------------------------
    async def say(self, tr: Tournament, text: str, users: list[int]) -> None:
        try:
            await self.bot.get_partial_messageable(tr.channel_id, guild_id=tr.guild_id).send(
                text[:2000], allowed_mentions=mentions(users))
        except discord.HTTPException as e:
            log.info("could not post in the channel of tournament %s: %s", tr.id, e)

    async def tell_organiser(self, tr: Tournament, text: str) -> None:
        await self.say(tr, f"<@{tr.host_id}> {text}", [tr.host_id])

    async def refresh_announcement(self, tr: Tournament) -> None:
        """The announcement kept current: the options, the count and the players; the button while signing up."""
        if tr.message_id is None:
            return
        lang = self.lang_of_tournament(tr)
        text = announcement(tr, await self.store.entrants(tr.id), lang)
        view = sign_up_view(tr.id, t("bot.t_button_join", lang)) if tr.status == "signup" else None
        try:
            msg = self.bot.get_partial_messageable(tr.channel_id, guild_id=tr.guild_id).get_partial_message(
                tr.message_id)
            await msg.edit(content=text, view=view, allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            log.info("could not update the announcement of tournament %s: %s", tr.id, e)

    async def post_standings(self, tr: Tournament) -> None:
        """The standings embed in the channel with its picture (drawn in the render workers): edited in place,
        posted anew when it is gone."""
        lang = self.lang_of_tournament(tr)
        table = await self.tournaments.standings(tr)
        embed = discord.Embed(**standings_embed_parts(tr, table, lang))
        png = await images.standings_png(standings_data(tr, table), lang) if self.bot.config.render_images else None
        files = [discord.File(io.BytesIO(png), filename="standings.png")] if png is not None else []
        if files:
            embed.set_image(url="attachment://standings.png")
        channel = self.bot.get_partial_messageable(tr.channel_id, guild_id=tr.guild_id)
        if tr.standings_message_id is not None:
            try:
                await channel.get_partial_message(tr.standings_message_id).edit(embed=embed, attachments=files)
                return
            except discord.NotFound:
                pass
            except discord.HTTPException as e:
                log.info("could not update the standings of tournament %s: %s", tr.id, e)
                return
        try:
            msg = await channel.send(embed=embed, files=files, allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            log.info("could not post the standings of tournament %s: %s", tr.id, e)
            return
        await self.store.set_tournament_message(tr.id, standings=msg.id)
