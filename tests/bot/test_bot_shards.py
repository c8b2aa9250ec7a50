"""Two real ``python -m bot`` processes on one PostgreSQL database, one per shard (``SHARD_COUNT=2``), each
against its own gateway on the wire (``tests.bot.wire``: one Discord, so both see the same channels), with
games of computer players in servers of both shards:

- a starting process plays and shows only the games of its shards' servers (also after a restart);
- a process killed (SIGKILL) while it updates a board leaves a claim on that game's channel: the restarted
  process serves that board at once (the dead process is recognised), without a second board;
- the killed process's workers end with it.
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncpg

from bot.service import GameService
from bot.store import Store

from .databases import postgres_database
from .wire import Proc, Wire, descendants, describe, ended, read_rest, start_bot, survivors, wire_discord

SHARDS = 2
RECOVERY_S = 15.0  # the restarted process serves the dead one's board within this (the old lease was 120 s)


def guild_on(shard: int, k: int = 0) -> int:
    """A server id (snowflake) that Discord puts on ``shard`` of ``SHARDS``."""
    return ((1_000_000 + k * SHARDS + shard) << 22) | 12345


async def computer_games(url: str, where: list[tuple[int, int]]) -> dict[int, int]:
    """Started games of two computer players, one per (server, channel); channel -> game id."""
    store = await Store.open(url)
    svc = GameService(store)
    games = {}
    for i, (guild, channel) in enumerate(where):
        game = await svc.create(guild_id=guild, channel_id=channel, user_id=10, name="Ann", seed=5 + i)
        await svc.add_computer(channel, 10, "easy", "Easy")
        await svc.start(channel, 10)
        async with svc.lock(game.id):
            await svc.hand_to_computer(await svc.game(game.id), 0)
        games[channel] = game.id
    await store.close()
    return games


async def rows(url: str) -> dict[int, dict[str, Any]]:
    """Game id -> its version, shown version and board claim, as the database holds them now."""
    conn = await asyncpg.connect(url)
    try:
        found = await conn.fetch("SELECT id, version, shown_version, board_owner, status FROM games")
    finally:
        await conn.close()
    return {r["id"]: dict(r) for r in found}


async def until(check: Callable[[], Awaitable[bool]], within: float, what: str) -> float:
    """Wait until ``await check()`` is true; the seconds it took."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not await check():
        if loop.time() - start > within:
            raise AssertionError(f"not within {within} s: {what}")
        await asyncio.sleep(0.2)
    return loop.time() - start


@dataclass
class Running:
    """A bot process, its log (read all the time) and its processes."""

    process: asyncio.subprocess.Process
    wire: Wire
    log: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None
    procs: list[Proc] = field(default_factory=list)

    def text(self) -> str:
        return "".join(self.log)

    async def started(self) -> None:
        await until(lambda: _true("logged in as" in self.text()), 90, "the bot logged in:\n" + self.text()[-2000:])
        self.procs = descendants(self.process.pid)


async def _true(value: bool) -> bool:
    return value


@asynccontextmanager
async def bot_process(tmp: Path, url: str, shard: int, channels: dict[int, list[dict[str, Any]]]
                      ) -> AsyncIterator[Running]:
    """``python -m bot`` for shard ``shard`` of ``SHARDS`` on ``url``, on its own gateway (sharing
    ``channels``); killed at the end if still running, with whatever it left behind."""
    async with wire_discord(ready=True, messages=True, shard=(shard, SHARDS), channels=channels) as wire:
        process = await start_bot(tmp / "unused.sqlite3", wire, DATABASE_URL=url, SHARD_COUNT=str(SHARDS),
                                  SHARD_IDS=str(shard), COMPUTER_PAUSE_SECONDS="1", COMPUTER_SECONDS="0.05")
        assert process.stderr is not None
        bot = Running(process, wire)
        bot.reader = asyncio.create_task(read_rest(process.stderr, bot.log))
        try:
            yield bot
        finally:
            if process.returncode is None:
                process.kill()
            bot.reader.cancel()
            for p in bot.procs:
                if p.alive():
                    os.kill(p.pid, signal.SIGKILL)


def boards(channels: dict[int, list[dict[str, Any]]], channel: int) -> int:
    """Messages in the channel with buttons: its live boards."""
    return sum(1 for m in channels.get(channel, []) if m.get("components"))


async def test_two_shard_processes_keep_to_their_servers_and_a_restart_takes_over_at_once(tmp_path: Path) -> None:
    async with postgres_database() as url:
        mine = {0: [300], 1: [310, 311]}  # shard -> channels of games in servers of that shard
        games = await computer_games(url, [(guild_on(0), 300), (guild_on(1, 0), 310), (guild_on(1, 1), 311)])
        first = await rows(url)
        channels: dict[int, list[dict[str, Any]]] = {}

        async def moved(channel: int, by: int) -> bool:
            row = (await rows(url))[games[channel]]
            return bool(row["shown_version"] >= first[games[channel]]["version"] + by)

        async with bot_process(tmp_path, url, 1, channels) as one:
            await one.started()
            for ch in mine[1]:
                await until(functools.partial(moved, ch, 2), 90, f"the shard-1 game in channel {ch} plays")
            # the shard-0 game is no business of the shard-1 process: not played, not shown
            assert (await rows(url))[games[300]]["version"] == first[games[300]]["version"]
            assert one.wire.touched(300) == 0, one.wire.calls

            async with bot_process(tmp_path, url, 0, channels) as zero:
                await zero.started()
                await until(functools.partial(moved, 300, 2), 90, "the shard-0 game plays once its process runs")

                # the shard-1 process is killed in the middle of updating a board: its claim stays behind
                one.wire.hold[310] = asyncio.Event()
                await asyncio.wait_for(one.wire.held.wait(), 60)
                held = (await rows(url))[games[310]]
                assert held["board_owner"] is not None
                one.process.kill()
                assert await ended(one.process, 10) == -signal.SIGKILL
                left = await survivors(one.procs, within=5)
                assert not left, f"processes outlived the killed bot: {describe(left)}"

                async with bot_process(tmp_path, url, 1, channels) as again:
                    await again.started()

                    async def served() -> bool:
                        row = (await rows(url))[games[310]]
                        return bool(row["version"] > held["version"] and row["shown_version"] == row["version"])

                    took = await until(served, RECOVERY_S, "the restarted process shows the killed one's board")
                    assert took < RECOVERY_S
                    for ch in mine[1]:
                        assert boards(channels, ch) == 1, channels[ch]
                    assert again.wire.touched(300) == 0 and one.wire.touched(300) == 0
                    assert zero.wire.touched(310) == 0 and zero.wire.touched(311) == 0
                    for bot in (zero, again):
                        bot.process.send_signal(signal.SIGTERM)
                        assert await ended(bot.process, 30) == 0, bot.text()[-3000:]
                        assert "Traceback" not in bot.text(), bot.text()[-3000:]
