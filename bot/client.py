"""The bot client: opens the store, loads the cogs, registers the persistent buttons, and polls the
database for due turn reminders and time-outs.

Sharding (``SHARD_COUNT``/``SHARD_IDS``) makes it an ``AutoShardedBot`` (``make_bot``); a process then polls
timers, catches up boards and computer players only for games in the servers of the shards it runs
(``shard_filter``), so
processes that share one database split that work between them. Should two processes poll the same game
anyway, the database keeps it correct: a reminder is claimed once, a time-out commits once.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from pathlib import Path
from typing import Any, Protocol, cast

import discord
from discord.ext import commands, tasks

from . import backup, images, reviewing, thinking
from .config import Config
from .service import GameService
from .store import DatabaseLost, DatabaseUnavailable, Store, parse_database
from .timers import Timing
from .translator import Translator


def wall_clock() -> float:
    """Seconds since the epoch from discord.py's clock (real time in production; under SimCord its virtual
    time, so ``env.advance_time`` moves due reminders)."""
    return discord.utils.utcnow().timestamp()


GC_THRESHOLDS = (10_000, 20, 20)  # Python's defaults are (700, 10, 10)


def tune_gc() -> None:
    """For the bot's process (``python -m bot``; ``benchmarks/bench_load.py`` does the same): what is alive at
    startup is left out of the cyclic garbage collector's passes (``gc.freeze``) and it runs less often. With
    Python's defaults, collections took 18 % of the wall time in bench_load and a full one paused the event
    loop for up to 0.3 s; with these 7 %, pauses up to 0.08 s."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


class TimerHandler(Protocol):
    """What the poll calls: the cog that sends reminders and plays for absent players."""

    async def run_due_timers(self) -> None: ...

log = logging.getLogger(__name__)

COGS = ("cogs.petersburg",)


class PetersburgBot(commands.Bot):
    """discord.py bot for Saint Petersburg. ``sync_commands``: push the slash commands at startup."""

    def __init__(self, config: Config, *, sync_commands: bool = False, store: Store | None = None,
                 **options: Any) -> None:
        # the bot uses no voice: discord.py's warnings that PyNaCl and davey are missing ask nothing of an owner
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        intents = discord.Intents.default()  # no privileged intents needed: slash commands and buttons
        # no message cache: the bot reads no cached message (messages are stored by id, edited as partial
        # messages), and with one discord.py looks each edit of a board up in it, one by one, and parses it twice
        options.setdefault("max_messages", None)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
                         **options)
        self.config = config
        self.sync_commands = sync_commands
        self._given_store = store
        self.store: Store | None = store
        self.service: GameService | None = None
        self.bugs: list[BaseException] = []  # unexpected errors (logged); tests assert there are none
        self.timings: list[float] = []  # seconds per handled game action (for the benchmark)
        self.keep_timings = False
        self.timer_loop = tasks.loop(seconds=config.timer_poll_seconds)(self._poll_timers)
        self.timer_loop.before_loop(self._before_timers)
        self.backup_task: asyncio.Task[None] | None = None
        self.workers_task: asyncio.Task[None] | None = None
        self.setting_up = False  # setup_hook has begun: Discord accepted the login

    async def setup_hook(self) -> None:
        """Open the database, load cogs, register DynamicItems and the translator; sync on request."""
        self.setting_up = True
        if self.store is None:
            self.store = await Store.open(self.config.database, clock=wall_clock, pool_size=self.config.pool_size)
        c = self.config
        self.service = GameService(self.store, c.language, Timing(reminder=c.reminder_minutes,
                                                                  interval=c.reminder_interval_minutes,
                                                                  autopass=c.autopass_minutes))
        await self.tree.set_translator(Translator())
        for name in COGS:
            await self.load_extension(name)
        if self.sync_commands:
            await self.sync_app_commands()
        self.timer_loop.start()
        self.start_backups()

    def start_backups(self) -> None:
        """The periodic backup (``BACKUP_DIR``) of a SQLite database, in the background."""
        c = self.config
        if not c.backup_dir or self.store is None:
            return
        dialect, where = parse_database(c.database)
        if dialect != "sqlite" or where == ":memory:":
            log.warning("BACKUP_DIR is set, but periodic backups are made of a SQLite database only; back "
                        "PostgreSQL up with pg_dump (python -m bot backup explains how)")
            return
        self.backup_task = asyncio.get_running_loop().create_task(
            backup.periodic(Path(where), Path(c.backup_dir), c.backup_hours, c.backup_keep))
        log.info("a backup of %s every %g hours into %s, the newest %d kept", where, c.backup_hours,
                 c.backup_dir, c.backup_keep)

    async def _before_timers(self) -> None:
        await self.wait_until_ready()

    async def _poll_timers(self) -> None:
        """One look for due reminders and time-outs (they live in SQLite, so they survive restarts)."""
        handler = cast(TimerHandler | None, self.get_cog("Petersburg"))
        if handler is None or self.store is None:
            return
        try:
            await handler.run_due_timers()
        except DatabaseLost:  # logged once by the store; nothing can be kept until a restart
            return
        except DatabaseUnavailable as e:  # the server is away: tried again at the next poll
            log.warning("processing due timers: %s", e)
            return
        except Exception as e:  # the loop must keep running
            log.exception("processing due timers failed")
            self.record_bug(e)

    def shard_filter(self) -> tuple[tuple[int, ...], int] | None:
        """(shard ids, shard count) of the shards this process runs, or None when it runs them all."""
        count = self.shard_count
        ids = getattr(self, "shard_ids", None)
        if not count or count <= 1 or ids is None or set(ids) >= set(range(count)):
            return None
        return tuple(ids), count

    async def sync_app_commands(self) -> list[Any]:
        """Push the command tree: to DEV_GUILD_ID at once when set, else globally."""
        if self.config.dev_guild_id:
            guild = discord.Object(id=self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))
        return synced

    def record_bug(self, error: BaseException) -> None:
        if isinstance(error, (DatabaseLost, DatabaseUnavailable)):  # not a bug: the store says why (logged)
            return
        self.bugs.append(error)

    def record_timing(self, started: float) -> None:
        if self.keep_timings:
            self.timings.append(time.perf_counter() - started)

    def begin_workers(self) -> None:
        """Start the worker processes in the background (``python -m bot`` does once it has logged in)."""
        self.workers_task = asyncio.get_running_loop().create_task(self.start_workers())

    async def start_workers(self) -> None:
        """Start the worker processes now rather than at the first picture or computer move, so the first board
        is not late and the processes are there from the start."""
        pools = [thinking.THINK]
        if self.config.render_images and images.available():
            pools.append(images.RENDER)
        await asyncio.gather(*(p.executor() for p in pools))
        log.info("worker processes started: %s", ", ".join(f"{p.name} {p.size()}" for p in pools))

    async def stop_workers(self) -> None:
        """Stop the worker processes, also those still starting (once they are up: a worker still being started
        when the bot's process ends prints a traceback)."""
        if self.workers_task is not None:
            self.workers_task.cancel()
        await asyncio.gather(*(pool.stop() for pool in (images.RENDER, images.REPLAY, thinking.THINK,
                                                        reviewing.REVIEW)))
        images.shutdown()

    async def close(self) -> None:
        self.timer_loop.cancel()
        if self.backup_task is not None:
            self.backup_task.cancel()
        await super().close()
        await self.stop_workers()
        if self.store is not None and self._given_store is None:
            await self.store.close()
            self.store = None

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s), shards %s of %s", self.user, getattr(self.user, "id", "?"),
                 getattr(self, "shard_ids", None) or "all", self.shard_count or 1)


class ShardedPetersburgBot(PetersburgBot, commands.AutoShardedBot):
    """The bot over several shards in one process (``SHARD_COUNT``, ``SHARD_IDS``)."""


def make_bot(config: Config, *, sync_commands: bool = False, store: Store | None = None) -> PetersburgBot:
    """The bot the configuration asks for: sharded when SHARD_COUNT is set."""
    if not config.sharded:
        return PetersburgBot(config, sync_commands=sync_commands, store=store)
    return ShardedPetersburgBot(config, sync_commands=sync_commands, store=store, shard_count=config.shard_count,
                                shard_ids=list(config.shard_ids) if config.shard_ids is not None else None)
