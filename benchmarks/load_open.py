"""The open-loop mode of ``bench_load.py`` (``--open-loop``): moves offered at fixed rates, the curve of what the
bot achieves. From the repository root::

    .venv/bin/python benchmarks/bench_load.py --open-loop [--rates 10,20,40,60,80,100,120] [--step 20]
        [--games 100] [--players 2] [--via commands|buttons|mixed] [--seed 1] [--profile RATE]

Setup (not measured): ``--games`` games of ``--players`` players in their own channels, 1st and 2nd edition
alternating, created, joined and started with slash commands as in ``bench_load.py``.

Load (measured), one step a rate, in the order given: for ``--step`` seconds a move is offered every
``1 / rate`` seconds (evenly spaced arrivals, not waiting for the bot: an open loop). Each offer goes to a game,
at random, whose player has seen its last board (a game is ready again once the board of its previous move
is visible); when every game is still waiting for its board the offer lapses (counted). The player acts as
``bench_load.py``'s driver does (``--via``). Between steps the driver waits for the moves in flight, lets the
bot settle and replaces the games that ended by new ones (not measured), so each step starts with
``--games`` games in play.

Printed a step, one row each:
- offered: offers per second (the rate), lapsed: offers that found no game ready;
- achieved: the boards of the step's moves that became visible, per second from the step's start until the
  last of them (at least ``--step`` seconds);
- board visible p50 / p99: from the move's interaction to its board's visibility (``bench_load.py``), over the
  moves offered in the step; late: moves not acknowledged within 3 s;
- CPU, in % of one core from the step's start until its last move ended: the bot's process (the bot, and
  SimCord and the driver, which share it) and its child processes (the render workers); and the CPU time a
  move (both together, and the workers' part), from ``/proc``, over the moves achieved.
``--profile RATE``: at that step, also profile the bot's process (``cProfile`` timed by the event loop thread's CPU
time, so the loop's idle waits count for nothing) and print where its CPU time went a move (the profiler slows the
process, functions of many small calls the most, so that step's other figures are not comparable).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import os
import pstats
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import simcord

from benchmarks.bench_load import Driver, Figures, Table
from benchmarks.load_sim import DEADLINE, Probe, ProcessSampler, pct
from bot import images
from bot.client import PetersburgBot, tune_gc
from bot.config import Config
from bot.store import Store
from tests.bot.helpers import game_in, setup_members, start_game


@dataclass
class Step:
    rate: float
    length: float = 0.0  # seconds of offers
    seconds: float = 0.0  # from the step's start to the last board of its moves (at least ``length``)
    offered: int = 0
    lapsed: int = 0
    shown: int = 0
    wall: float = 0.0  # from the step's start until its moves in flight ended (CPU is measured over it)
    failed: int = 0
    fig: Figures = field(default_factory=Figures)
    cpu_bot: float = 0.0
    cpu_workers: float = 0.0


class OpenLoop:
    def __init__(self, env: simcord.Env, driver: Driver, args: argparse.Namespace) -> None:
        self.env, self.driver, self.args = env, driver, args
        self.guild = env.create_guild()
        self.tables: list[Table] = []
        self.ready: list[Table] = []
        self.made = 0
        self.rng = random.Random(args.seed)

    async def new_game(self) -> None:
        i = self.made
        self.made += 1
        channel = self.guild.create_text_channel(f"open{i}")
        players = setup_members(self.env, self.args.players, self.guild, prefix=f"o{i}p")
        await start_game(self.env, channel, players, edition=1 + i % 2)
        game = await game_in(self.env, channel)
        table = Table(game.id, channel.id, {p.id: p for p in players})
        self.driver.probe.watch_game(channel.id, game.id)
        self.tables.append(table)
        self.ready.append(table)

    async def fill(self) -> None:
        """Replace the games that ended (or failed) until ``--games`` are in play; then let the bot settle."""
        while len(self.tables) < self.args.games:
            await self.new_game()
        await self.env.settle(timeout=120)

    async def move(self, table: Table, step: Step) -> None:
        try:
            shown = await self.driver.act(table, self.rng)
        except RuntimeError:  # the driver found no move it can make: leave the game alone
            shown = None
            step.failed += 1
        if shown is None:
            self.tables.remove(table)
            return
        if shown:
            step.shown += 1
        self.ready.append(table)

    async def step(self, rate: float, sampler: ProcessSampler) -> Step:
        step = Step(rate, length=self.args.step)
        self.driver.fig = step.fig
        pid = os.getpid()
        sampler.sample()
        kids0 = set(sampler.children)
        bot0, workers0 = ProcessSampler.cpu_seconds({pid}), ProcessSampler.cpu_seconds(kids0)
        profile = cProfile.Profile(time.thread_time) if self.args.profile == rate else None
        if profile is not None:
            profile.enable()
        start = time.perf_counter()
        end = start + self.args.step
        tasks: list[asyncio.Task[None]] = []
        k = 0
        while True:
            due = start + k / rate
            if due >= end:
                break
            now = time.perf_counter()
            if due > now:
                await asyncio.sleep(due - now)
            k += 1
            step.offered += 1
            if not self.ready:
                step.lapsed += 1
                continue
            table = self.ready.pop(self.rng.randrange(len(self.ready)))
            tasks.append(asyncio.get_running_loop().create_task(self.move(table, step)))
        await asyncio.gather(*tasks)  # the moves in flight finish (their times count for this step)
        if profile is not None:
            profile.disable()
        step.wall = time.perf_counter() - start
        step.seconds = max(step.fig.last, end) - start
        sampler.sample()
        step.cpu_bot = ProcessSampler.cpu_seconds({pid}) - bot0
        step.cpu_workers = ProcessSampler.cpu_seconds(sampler.children) - workers0
        if profile is not None:
            print_profile(profile, max(1, step.shown))
        return step


def print_profile(profile: cProfile.Profile, moves: int) -> None:
    """The bot process's CPU time a move: the functions with the most time, cumulative and their own."""
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"  profile: {1000 * total / moves:.1f} ms of the event loop's CPU a move (profiled, {moves} moves); "
          f"the top functions, cumulative ms a move:")
    stats.sort_stats("cumulative").print_stats(45)
    for line in out.getvalue().splitlines():
        print("   ", line[:160])


def row(step: Step) -> str:
    fig = step.fig
    board = [x * 1000 for x in fig.board]
    p50 = f"{statistics.median(board):6.0f}" if board else "     -"
    p99 = f"{pct(board, 99):6.0f}" if board else "     -"
    moves = max(1, step.shown)
    per_move = 1000 * (step.cpu_bot + step.cpu_workers) / moves
    return (f"{step.rate:7.0f} {step.offered / step.length:8.1f} {step.lapsed:6d} "
            f"{step.shown / step.seconds:8.1f} {p50} {p99} {fig.late + fig.not_acked:5d} "
            f"{100 * step.cpu_bot / step.wall:5.0f} {100 * step.cpu_workers / step.wall:7.0f} "
            f"{per_move:7.1f} {1000 * step.cpu_workers / moves:7.1f}")


HEADER = (" rate/s  offered lapsed achieved  p50ms  p99ms  late  bot% workers% cpu/mv wrk/mv\n"
          "                                board visible          (% of a core)   (ms)    (ms)")


async def run_open(args: argparse.Namespace, db: Path) -> list[Step]:
    live = int(os.environ.get("LIVE_MINUTES", "5"))
    config = Config(token="x", database_path=str(db), render_images=True, live_minutes=live,
                    timer_poll_seconds=3600.0)
    bot = PetersburgBot(config, sync_commands=True)
    if not args.gc_defaults:
        tune_gc()
    steps: list[Step] = []
    async with simcord.run(bot) as env:
        probe = Probe(env)
        reader = await Store.open(db)
        driver = Driver(env, probe, reader, args)
        loop = OpenLoop(env, driver, args)
        t0 = time.perf_counter()
        await images.RENDER.run(os.getpid)  # the render workers start now, not within a slash command's settling
        await loop.fill()
        print(f"setup: {args.games} games of {args.players} players started in {time.perf_counter() - t0:.1f} s; "
              f"{args.step:.0f} s a rate")
        sampler = ProcessSampler()
        with probe.hooked():
            print(HEADER)
            for rate in args.rates:
                step = await loop.step(rate, sampler)
                steps.append(step)
                print(row(step), flush=True)
                ended = args.games - len(loop.tables)
                await loop.fill()
                if ended or step.failed:
                    print(f"        ({ended} games ended and were replaced; {step.failed} without a move)")
        print(f"bot bugs recorded: {len(bot.bugs)}; games started in all: {loop.made}")
        await reader.close()
        assert bot.store is not None
        with contextlib.suppress(Exception):
            await bot.store.close()
    return steps


def add_arguments(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--open-loop", action="store_true",
                    help="offer moves at fixed rates and print the curve (benchmarks/load_open.py)")
    ap.add_argument("--rates", type=lambda s: [float(x) for x in s.split(",")], default=[10, 20, 40, 60, 80, 100, 120],
                    help="open loop: moves offered per second, one step each (default 10,20,40,60,80,100,120)")
    ap.add_argument("--step", type=float, default=20.0, help="open loop: seconds a rate (default 20)")
    ap.add_argument("--players", type=int, default=2, help="open loop: players a game (default 2)")
    ap.add_argument("--profile", type=float, default=None,
                    help="open loop: profile the bot's process at this rate (cProfile)")


def summary(steps: list[Step]) -> str:
    good = [s for s in steps if s.fig.board and pct(s.fig.board, 99) <= 2.0]
    best = max(good, key=lambda s: s.rate, default=None)
    if best is None:
        return "no rate kept the board's p99 within 2 s"
    return (f"the highest rate with the board's p99 within 2 s: {best.rate:.0f} moves/s offered, "
            f"{best.shown / best.seconds:.1f} achieved; late acknowledgements (> {DEADLINE:.0f} s) in all: "
            f"{sum(s.fig.late + s.fig.not_acked for s in steps)}")
