"""Game actions per second and p99 per action with N games played at once, through the service, on SQLite,
on PostgreSQL, and on PostgreSQL from two processes.

    .venv/bin/python benchmarks/bench_db.py --pg postgresql://… [--games 1,100,1000] [--budget 2000] [--commits 1000]

Each of N games (two players, created and started before the clock runs) is one task that plays random
legal moves (load, validate, apply, commit with the next turn's timers; automatic passes included) as
fast as it can. Every game plays ``max(3, budget // N)`` actions (1 game: 200), so a run stays bounded
on a small machine. "2 processes": two worker processes each play half of the games on their own pool
(10 connections each), started together; actions per second are counted from the first start to the last
end. p99 is per ``GameService.act`` call. Without ``--pg`` only SQLite runs.

Then the cost of a SQLite commit with and without the file check (before each COMMIT the path, after it the
path and its -wal are compared with the open files: ``bot.store.sqlite_file.changed``): ``--commits`` write
transactions of one small row each, one after the other (each its own COMMIT, synchronous=FULL as the bot
runs), in blocks of 50 alternating check on / check off; and the check itself timed alone (the file before
the COMMIT, the file and its -wal after it: three ``stat`` calls).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bot.service import GameService, UserError  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.sqlite import SQLiteBackend  # noqa: E402
from bot.store.sqlite_file import changed, identity, wal_of  # noqa: E402
from tests.bot.helpers import random_move  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


async def setup(url: str, games: int) -> list[int]:
    """``games`` started games; their ids."""
    store = await Store.open(url)
    svc = GameService(store)
    ids = []
    for g in range(games):
        channel = 1000 + g
        game = await svc.create(guild_id=1, channel_id=channel, user_id=10, name="Ann", seed=g + 1)
        await svc.join(channel, 11, "Bob")
        await svc.start(channel, 10)
        ids.append(game.id)
    await store.close()
    return ids


async def play(url: str, ids: list[int], actions: int, seed: int) -> tuple[list[float], float, float]:
    """Play ``actions`` moves in each game at once; (seconds per act, start, end) on the wall clock."""
    store = await Store.open(url, pool_size=10)
    svc = GameService(store)
    times: list[float] = []

    async def one(game_id: int) -> None:
        rng = random.Random(seed + game_id)
        for _ in range(actions):
            move = await random_move(svc, game_id, rng)
            if move is None:
                return
            started = time.perf_counter()
            try:
                await svc.act(game_id, move.user_id, move.action, version=move.version)
            except UserError:
                continue
            times.append(time.perf_counter() - started)

    start = time.time()
    await asyncio.gather(*(one(i) for i in ids))
    end = time.time()
    await store.close()
    return times, start, end


def _worker(url: str, ids: list[int], actions: int, out: str, go: float) -> None:
    """A second process: wait for the common start time, play, write the timings."""
    async def main() -> None:
        await asyncio.sleep(max(0.0, go - time.time()))
        times, start, end = await play(url, ids, actions, seed=len(ids))
        Path(out).write_text(json.dumps({"times": times, "start": start, "end": end}))

    asyncio.run(main())


def run_processes(url: str, ids: list[int], actions: int, tmp: Path) -> tuple[list[float], float]:
    """Two processes, half the games each: (all timings, wall seconds from first start to last end)."""
    go = time.time() + 3.0  # both processes have started their interpreters by then
    ctx = multiprocessing.get_context("spawn")
    halves = [ids[0::2], ids[1::2]]
    outs = [str(tmp / f"worker{i}.json") for i in range(2)]
    procs = [ctx.Process(target=_worker, args=(url, h, actions, o, go)) for h, o in zip(halves, outs, strict=True)
             if h]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
        if p.exitcode != 0:
            raise RuntimeError(f"worker failed with {p.exitcode}")
    data = [json.loads(Path(o).read_text()) for o, h in zip(outs, halves, strict=True) if h]
    times = [t for d in data for t in d["times"]]
    return times, max(d["end"] for d in data) - min(d["start"] for d in data)


async def fresh_pg(server: str) -> str:
    """A new database on the server; its URL."""
    name = f"petersburg_bench_{uuid.uuid4().hex[:8]}"
    conn = await asyncpg.connect(server)
    await conn.execute(f'CREATE DATABASE "{name}"')
    await conn.close()
    return server.rsplit("/", 1)[0] + "/" + name


async def drop_pg(server: str, url: str) -> None:
    conn = await asyncpg.connect(server)
    await conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    await conn.close()


async def commit_cost(path: Path, commits: int) -> tuple[list[float], list[float], float]:
    """(seconds per commit with the file check, without it, seconds per check alone)."""
    store = await Store.open(path)
    backend = store._backend
    assert isinstance(backend, SQLiteBackend)
    async with store.transaction() as tx:
        await tx.execute("CREATE TABLE bench (k INTEGER PRIMARY KEY, v TEXT)")
    guard, check = backend._guard, backend.check_file

    async def no_guard(*, again: bool = False) -> None:
        return None

    def no_check(*, commit: bool = False) -> None:
        return None

    on: list[float] = []
    off: list[float] = []
    k = 0
    for block in range(max(2, commits // 50)):
        checked = block % 2 == 0
        backend._guard, backend.check_file = (guard, check) if checked else (no_guard, no_check)  # type: ignore[method-assign]
        for _ in range(50):
            k += 1
            started = time.perf_counter()
            async with store.transaction() as tx:
                await tx.execute("INSERT INTO bench VALUES (?, ?)", (k, "x" * 40))
            (on if checked else off).append(time.perf_counter() - started)
    backend._guard, backend.check_file = guard, check  # type: ignore[method-assign]
    where, wal_where = str(path), str(wal_of(path))
    file, wal = identity(where), identity(wal_where)
    n = 20000
    started = time.perf_counter()
    for _ in range(n):  # as at a commit: the file before the COMMIT, the file and its -wal after it
        assert changed(where, file) is None
        assert changed(where, file, wal_where, wal) is None
    alone = (time.perf_counter() - started) / n
    await store.close()
    return on, off, alone


def main() -> None:
    from rules.cliargs import HelpFormatter

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    parser.add_argument("--pg", default="", help="a PostgreSQL server URL the benchmark may create databases on")
    parser.add_argument("--games", default="1,100,1000", help="numbers of concurrent games")
    parser.add_argument("--budget", type=int, default=2000, help="actions per run (at least 3 per game)")
    parser.add_argument("--commits", type=int, default=1000, help="commits for the file check's cost (0: skip)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for n in [int(x) for x in args.games.split(",")]:
            actions = 200 if n == 1 else max(3, args.budget // n)
            setups = [("SQLite", "sqlite", 1)] + ([("PostgreSQL", "pg", 1), ("PostgreSQL", "pg", 2)] if args.pg else [])
            for label, kind, procs in setups:
                url = str(tmp / f"bench_{n}_{procs}.sqlite3") if kind == "sqlite" else asyncio.run(fresh_pg(args.pg))
                ids = asyncio.run(setup(url, n))
                if procs == 1:
                    times, start, end = asyncio.run(play(url, ids, actions, seed=1))
                    wall = end - start
                else:
                    times, wall = run_processes(url, ids, actions, tmp)
                if kind == "pg":
                    asyncio.run(drop_pg(args.pg, url))
                rows.append((label, procs, n, len(times), len(times) / wall, 1000 * pct(times, 99),
                             1000 * pct(times, 50)))
                print(f"  done: {label} x{procs}, {n} games", file=sys.stderr, flush=True)
        cost = asyncio.run(commit_cost(tmp / "commits.sqlite3", args.commits)) if args.commits > 0 else None
    print("| database | processes | games | actions | actions/s | p50 ms | p99 ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, procs, n, count, rate, p99, p50 in rows:
        print(f"| {label} | {procs} | {n} | {count} | {rate:.0f} | {p50:.1f} | {p99:.1f} |")
    if cost is not None:
        on, off, alone = cost
        print()
        print("| SQLite commit | commits | p50 µs | mean µs | p99 µs |")
        print("|---|---:|---:|---:|---:|")
        for label, xs in (("with the file check", on), ("without it", off)):
            print(f"| {label} | {len(xs)} | {1e6 * pct(xs, 50):.0f} | {1e6 * sum(xs) / len(xs):.0f} | "
                  f"{1e6 * pct(xs, 99):.0f} |")
        print(f"\nthe check alone (three stat calls): {1e6 * alone:.1f} µs a commit = "
              f"{100 * alone / pct(off, 50):.2f} % of a commit's p50 without it")


if __name__ == "__main__":
    main()
