"""A 64-player Swiss round's start against SimCord (in-memory Discord, virtual time): 64 members sign up, the
organiser starts, and the bot makes the 16 tables' threads and games one after another (``cogs.tournament_run``:
``PACE`` seconds apart). Prints the virtual seconds until every table's game has started, the wall-clock
seconds that took, and the REST requests: in all, thread creations, and the most in any one virtual second.
Not a test; run it from the repository root::

    .venv/bin/python benchmarks/bench_tournament_start.py [--players 64] [--size 4]

Discord allows about 5 channel creations (threads too) per 5 seconds a route and 50 requests a second in all.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import need_simcord  # noqa: E402

need_simcord("benchmarks/bench_tournament_start.py")

import discord  # noqa: E402
import simcord  # noqa: E402

from bot.client import PetersburgBot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.bot.helpers import setup_members  # noqa: E402

THREADS = re.compile(r"^/channels/\d+/threads$")


async def run(players: int, size: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bot = PetersburgBot(Config(token="x", database_path=str(Path(tmp) / "b.sqlite3"), render_images=False),
                            sync_commands=True)
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("cup")
            role = guild.create_role("organisers", permissions=discord.Permissions(manage_guild=True))
            boss = guild.add_member(env.create_user("organiser"), roles=[role])
            members = setup_members(env, players, guild)
            await boss.slash(channel, "petersburg tournament create", name="Bench Cup", size=size,
                             max_players=max(players, 2))
            for m in members:
                await m.slash(channel, "petersburg tournament join")
            store = bot.store
            assert store is not None
            tr = await store.latest_tournament_in_channel(channel.id)
            assert tr is not None
            since = len(env.http_requests)
            wall, clock = time.perf_counter(), env.now()
            await boss.slash(channel, "petersburg tournament start")
            during = (env.now() - clock).total_seconds()
            first = len(env.http_requests) - since
            made = [sum(1 for c in env.http_requests[since:] if c.method == "POST" and THREADS.match(c.path))]
            per_second: list[int] = []
            seconds = 0
            while True:
                tables = await store.tournament_tables(tr.id, 1)
                if tables and all(x.game_id is not None for x in tables):
                    break
                before = len(env.http_requests)
                await env.advance_time(1)
                seconds += 1
                per_second.append(len(env.http_requests) - before)
                made.append(sum(1 for c in env.http_requests[before:] if c.method == "POST" and THREADS.match(c.path)))
                if seconds > 3600:
                    raise RuntimeError("the round did not start within an hour")
            took = time.perf_counter() - wall
            calls = env.http_requests[since:]
            threads = sum(1 for c in calls if c.method == "POST" and THREADS.match(c.path))
            print(f"{players} players, tables of {size}: {len(tables)} tables started in {during + seconds:.0f} "
                  f"virtual s ({took:.1f} s of wall time)")
            print(f"REST requests: {len(calls)} in all, {threads} thread creations; {first} during the start "
                  f"command ({during:.0f} virtual s, {made[0]} threads), then at most {max(per_second or [0])} in "
                  f"one virtual second (threads a second: {made[1:]})")
            await store.close()
            assert not bot.bugs, bot.bugs


def main() -> None:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--players", type=int, default=64)
    ap.add_argument("--size", type=int, default=4)
    args = ap.parse_args()
    asyncio.run(run(args.players, args.size))


if __name__ == "__main__":
    main()
