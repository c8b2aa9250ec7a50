"""With the real ``python -m bot`` process: a tournament's round is being made, table after table, when the bot
is killed (SIGKILL) right after Discord made a table's thread and before the bot read its answer. A new bot
process completes the round: every table has one thread (the one made before the kill found by its name) and
one game, and no thread or game is made twice.

The process runs against the wire-level Discord (``tests.bot.wire``) that keeps messages and threads."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.store import Store
from bot.timers import Timing
from bot.tournaments import TournamentService

from .wire import Proc, descendants, end_all, ended, read_rest, read_until, start_bot, wire_discord

GUILD, CHANNEL = 1, 500
ENV = {"TIMER_POLL_SECONDS": "1"}


async def _round_one(db: Path, players: int) -> int:
    """A tournament of ``players`` at tables of 3, started: round 1's tables stored, none made yet."""
    store = await Store.open(db)
    ts = TournamentService(store, Timing(60, 240, 0))
    tr = await ts.create(guild_id=GUILD, channel_id=CHANNEL, host_id=1, name="Cup", fmt="swiss",
                         options={"size": 3, "rounds": 1}, seed=3)
    for u in range(players):
        await ts.join(tr, 1000 + u, f"P{u}")
    assert await ts.start(tr)
    await store.close()
    return tr.id


def _tables(db: Path) -> list[tuple[int, int | None, int | None]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute("SELECT table_no, thread_id, game_id FROM tournament_tables ORDER BY table_no").fetchall()
    finally:
        conn.close()


async def _all_made(db: Path, within: float = 90) -> list[tuple[int, int | None, int | None]]:
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while True:
        rows = _tables(db)
        if all(game is not None for _, _, game in rows):
            return rows
        if loop.time() > end:
            raise AssertionError(f"the round's tables were not all made: {rows}")
        await asyncio.sleep(0.2)


async def test_a_sigkill_in_the_middle_of_a_rounds_start_then_a_restart_makes_each_table_once(
        tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    await _round_one(db, 12)  # four tables of 3
    log: list[str] = []
    procs: list[Proc] = []
    async with wire_discord(ready=True, messages=True) as wire:
        wire.stall_thread = 2  # the second table's thread is made, its answer never reaches the bot
        first = await start_bot(db, wire, **ENV)
        assert first.stderr is not None
        try:
            await read_until(first.stderr, "logged in as", log)
            procs = descendants(first.pid)
            await asyncio.wait_for(wire.stalled.wait(), 60)
            first.kill()  # SIGKILL, between Discord making the thread and the bot storing it
            await ended(first, 10)
        finally:
            end_all(first, None, procs)
        await asyncio.wait_for(first.wait(), 15)  # its workers gone too: the pipes closed
        before = _tables(db)
        assert [(no, thread is not None, game is not None) for no, thread, game in before] == [
            (1, True, True), (2, False, False), (3, False, False), (4, False, False)]
        assert len(wire.threads) == 2  # table 1's, and table 2's that the bot never heard of

        wire.stall_thread = None
        second = await start_bot(db, wire, **ENV)
        assert second.stderr is not None
        drain: asyncio.Task[None] | None = None
        procs = []
        try:
            await read_until(second.stderr, "logged in as", log)
            procs = descendants(second.pid)
            rows = await _all_made(db)
            drain = asyncio.create_task(read_rest(second.stderr, log))
            second.terminate()
            await ended(second, 30)
            await asyncio.wait_for(second.wait(), 15)
        finally:
            end_all(second, drain, procs)
    names = sorted(th["name"] for th in wire.threads.values())
    assert names == [f"Cup · R1 · T{n}" for n in (1, 2, 3, 4)], names  # one thread a table, none twice
    assert {thread for _, thread, _ in rows} == set(wire.threads)  # table 2 took the thread made before the kill
    conn = sqlite3.connect(db)
    try:
        games = conn.execute("SELECT id, channel_id FROM games ORDER BY id").fetchall()
    finally:
        conn.close()
    assert len(games) == 4 and {c for _, c in games} == set(wire.threads)  # one game a table, in its thread
    for thread in wire.threads:  # the players called once in each thread
        calls = [m for m in wire.channels.get(thread, []) if "your game starts here" in m["content"]]
        assert len(calls) == 1, (thread, calls)
    assert not any(method == "DELETE" and path.endswith(str(t)) for method, path in wire.calls for t in wire.threads)
    assert "Traceback" not in "".join(log), "".join(log)[-3000:]
