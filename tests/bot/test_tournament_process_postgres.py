"""With two real ``python -m bot`` processes on one PostgreSQL database (both running the server, as two
processes that each think the server is theirs): a tournament's round 1 is made, its games are played to
their end by a third connection, and both bots poll for the round's end at once. Round 2 starts once and
each of its tables gets one thread and one game; the round is announced once.

The interleaving is whatever the two processes' polls (every second) make of it: the property holds for
every one, and the test checks it, not a particular order. Skipped without a PostgreSQL server."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.service import GameService
from bot.store import Store
from bot.timers import Timing
from bot.tournaments import TournamentService
from rules import GameState, legal_moves

from .wire import Proc, descendants, end_all, ended, read_rest, read_until, start_bot, wire_discord

GUILD, CHANNEL = 1, 600


async def _made(store: Store, tid: int, rnd: int, within: float = 90) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while True:
        tables = await store.tournament_tables(tid, rnd)
        if tables and all(x.game_id is not None for x in tables):
            return
        if loop.time() > end:
            raise AssertionError(f"round {rnd}'s tables were not made: {tables}")
        await asyncio.sleep(0.2)


async def test_two_bot_processes_advance_a_round_once_on_postgres(pg_url: str, tmp_path: Path) -> None:
    store = await Store.open(pg_url)
    ts = TournamentService(store, Timing(60, 240, 0))
    svc = GameService(store)
    tr = await ts.create(guild_id=GUILD, channel_id=CHANNEL, host_id=1, name="Cup", fmt="swiss",
                         options={"size": 3, "rounds": 2, "reminder": 0}, seed=4)
    for u in range(6):
        await ts.join(tr, 1000 + u, f"P{u}")
    assert await ts.start(tr)
    env = {"TIMER_POLL_SECONDS": "1", "DATABASE_URL": pg_url}
    logs: list[list[str]] = [[], []]
    bots: list[asyncio.subprocess.Process] = []
    procs: list[Proc] = []
    drains: list[asyncio.Task[None]] = []
    async with wire_discord(ready=True, messages=True) as wire:
        try:
            for log in logs:
                bot = await start_bot(tmp_path / "unused.sqlite3", wire, **env)
                bots.append(bot)
                assert bot.stderr is not None
                await read_until(bot.stderr, "logged in as", log)
                procs += descendants(bot.pid)
                drains.append(asyncio.create_task(read_rest(bot.stderr, log)))
            await _made(store, tr.id, 1)
            rng = random.Random(9)
            for table in await store.tournament_tables(tr.id, 1):  # round 1 played to its end
                assert table.game_id is not None
                while (game := await svc.game(table.game_id)).status == "active":
                    st = GameState.from_json(game.state or {})
                    uid = game.user_at(st.decider)
                    assert uid is not None
                    await svc.act(game.id, uid, rng.choice(legal_moves(st)).action, version=game.version)
            await _made(store, tr.id, 2)
            await asyncio.sleep(2)  # both go on polling: nothing more may happen
            for bot in bots:
                bot.terminate()
            for bot in bots:
                await ended(bot, 30)
            await asyncio.wait(drains, timeout=10)  # their logs read to the end: the pipes closed
            for bot in bots:
                await asyncio.wait_for(bot.wait(), 10)
        finally:
            for i, bot in enumerate(bots):
                end_all(bot, drains[i] if i < len(drains) else None, procs)
    rounds = await store.rounds(tr.id)
    tables = await store.tournament_tables(tr.id)
    games = await store.fetch_all("SELECT COUNT(*) FROM games")
    await store.close()
    assert [(r.round, r.done) for r in rounds] == [(1, True), (2, False)]
    assert [(x.round, x.table_no) for x in tables] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert all(x.result is not None for x in tables if x.round == 1)
    names = sorted(th["name"] for th in wire.threads.values())
    assert names == ["Cup · R1 · T1", "Cup · R1 · T2", "Cup · R2 · T1", "Cup · R2 · T2"], names
    assert {x.thread_id for x in tables} == set(wire.threads) and games == [(4,)]
    made = [path for method, path in wire.calls if method == "POST" and path.endswith("/threads")]
    assert len(made) == 4  # no thread made twice (and deleted again by the loser)
    announced = [m for m in wire.channels.get(CHANNEL, []) if "round 2 (" in m["content"]]
    assert len(announced) == 1, [m["content"] for m in wire.channels.get(CHANNEL, [])]
    for thread in wire.threads:
        calls = [m for m in wire.channels.get(thread, []) if "your game starts here" in m["content"]]
        assert len(calls) == 1, thread
    for log in logs:
        assert "Traceback" not in "".join(log), "".join(log)[-3000:]
