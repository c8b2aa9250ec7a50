"""Time one game action end to end inside the bot, with 1 and with 500 games in the database.

    .venv/bin/python benchmarks/bench_bot.py [--actions N] [--games 1,500]

"bot": a click on the board's select menu, handled by the real cog inside SimCord (in-memory Discord,
no network): load from SQLite, validate and apply with the rules core, commit, answer the interaction,
take the buttons off the old board and post the new one. Timed inside the bot from the moment the
handler starts until the new board is posted (DM pushes and board pictures excluded).
"service": the same without Discord: load, validate, apply, commit.
Target: p99 under 30 ms.

Many games at once, with board pictures (acknowledgement and board-visible latency): bench_load.py.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import need_simcord  # noqa: E402

need_simcord("benchmarks/bench_bot.py")

import simcord  # noqa: E402

from bot.client import PetersburgBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.service import GameService  # noqa: E402
from bot.store import Store  # noqa: E402
from rules import GameState, legal_moves  # noqa: E402
from tests.bot.helpers import act_by_buttons, game_in, setup_members, start_game  # noqa: E402


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


async def seed_games(path: Path, count: int) -> None:
    """``count`` games in play with a few actions each (other channels)."""
    store = await Store.open(path, synchronous="OFF")
    svc = GameService(store)
    for i in range(count):
        ch = 10_000 + i
        await svc.create(guild_id=1, channel_id=ch, user_id=1, name="A", seed=i)
        await svc.join(ch, 2, "B")
        game, _ = await svc.start(ch, 1)
        for _ in range(8):
            g = await svc.game(game.id)
            st = GameState.from_json(g.state or {})
            await svc.act(game.id, g.user_at(st.decider) or 0, legal_moves(st)[0].action)
    await store.close()


async def bench_service(path: Path, actions: int) -> list[float]:
    store = await Store.open(path)
    svc = GameService(store)
    times: list[float] = []
    ch = 99_000
    while len(times) < actions:
        ch += 1
        await svc.create(guild_id=1, channel_id=ch, user_id=1, name="A", seed=ch)
        await svc.join(ch, 2, "B")
        game, st = await svc.start(ch, 1)
        while not st.finished and len(times) < actions:
            g = await svc.game(game.id)
            cur = GameState.from_json(g.state or {})
            action = legal_moves(cur)[0].action
            uid = g.user_at(cur.decider) or 0
            t0 = time.perf_counter()
            out = await svc.act(game.id, uid, action, version=g.version)
            times.append(time.perf_counter() - t0)
            st = out.state
    await store.close()
    return times


async def bench_bot(path: Path, actions: int) -> list[float]:
    bot = PetersburgBot(Config(token="x", database_path=str(path), render_images=False), sync_commands=True)
    bot.keep_timings = True
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        players = setup_members(env, 2, guild)
        n = 0
        while len(bot.timings) < actions:
            n += 1
            channel = guild.create_text_channel(f"bench{n}")
            await start_game(env, channel, players)
            while (await game_in(env, channel)).status == "active" and len(bot.timings) < actions:
                await act_by_buttons(env, channel, players)
        assert bot.store is not None
        await bot.store.close()
        assert not bot.bugs, bot.bugs
    return list(bot.timings)


def report(label: str, xs: list[float]) -> None:
    ms = [x * 1000 for x in xs]
    print(f"  {label:<8} n={len(ms):4d}  p50={statistics.median(ms):6.2f} ms  p99={pct(ms, 99):6.2f} ms  "
          f"max={max(ms):6.2f} ms")


async def main() -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=HelpFormatter)
    ap.add_argument("--actions", type=int, default=300)
    ap.add_argument("--games", default="1,500", help="games in the database (comma-separated)")
    args = ap.parse_args()
    worst = 0.0
    for count in (int(x) for x in args.games.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "bench.sqlite3"
            await seed_games(path, max(count - 1, 0))
            print(f"{count} game(s) in the database:")
            svc = await bench_service(path, args.actions)
            report("service", svc)
            bot = await bench_bot(path, args.actions)
            report("bot", bot)
            worst = max(worst, pct(bot, 99))
    ok = worst < 0.030
    print(f"target p99 < 30 ms: {'met' if ok else 'NOT met'} (worst bot p99 {worst * 1000:.2f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
