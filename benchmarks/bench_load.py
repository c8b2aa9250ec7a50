"""Many games at once through the real bot inside SimCord, board pictures on: how late does the bot
acknowledge, and how late does the new board show? Not a test; it prints figures. From the repository root::

    .venv/bin/python benchmarks/bench_load.py [--games 100] [--actions-per-game 10] [--seconds 120]
        [--think 0.5] [--via commands|buttons|mixed] [--seed 1]
    .venv/bin/python benchmarks/bench_load.py --open-loop [--rates 10,20,40,60,80,100,120] [--step 20]

``--open-loop``: moves offered at fixed rates instead of after think times, the curve of what the bot achieves
and the CPU time a move (``benchmarks/load_open.py`` says how). Without it:

Setup (not measured): ``--games`` games in their own channels, 2, 3 and 4 players in turn, 1st and 2nd
edition alternating, each created, joined and started with slash commands through SimCord's public API.

Load (measured): one asyncio task per game; all run at once. Each repeatedly waits a random think time
(uniform between 0 and twice ``--think`` seconds), reads the game (a second ``Store`` on the same file, so
that the driver's reads do not go through the bot's connection), and has the player to move act:
``commands`` (the default, and the path that survives the board rewrite): an autocomplete request for the
chosen kind of move, then ``/petersburg buy card:<first suggestion>`` (``take``, ``pub amount:``,
``observatory decision:discard...``, ``pass``); ``buttons``: the board's select menu or button for that move
(falls back to commands when the board has no such control); ``mixed``: either, at random. A game stops
after ``--actions-per-game`` actions, when it ends, or when ``--seconds`` have passed since the load began.

Why not SimCord's ``member.slash()``: SimCord runs one public operation at a time (a second one from another
task raises "operation overlaps") and each waits until *all* of the bot's work has settled, which would
serialize the games. The driver therefore builds the same INTERACTION_CREATE payloads with SimCord's own
builders and emits them without settling (``dispatch`` below); everything the bot does on receipt is real
discord.py, SimCord HTTP fakes and the real cog.

What is measured, all with ``time.perf_counter`` in this process:
- acknowledgement: from just before the INTERACTION_CREATE is emitted to the bot until SimCord's backend
  records the interaction's first response (defer, message, update, autocomplete result), i.e. when the
  bot's callback request was accepted;
- board visible: from the same start until SimCord's backend emits MESSAGE_CREATE or MESSAGE_UPDATE for a
  message in the game's channel with a component whose custom_id holds ``:<game>:<version>:`` or ends with
  ``:<game>:<version>``, where version is the stored version after the action (the game's last action, whose
  board has no controls, is left out);
- late: interactions acknowledged after 3 s (Discord's deadline) or not at all;
- actions per second: actions whose board showed, divided by the load's wall time;
- CPU: this process and its children (user + system) over the load's wall time, and the most threads and
  child processes seen.
SimCord adds no latency of its own (no network, no simulated delay) and does not enforce the 3 s deadline
in real time (its deadline is on its virtual clock, which stays put here), so a late acknowledgement is
counted here, not failed by SimCord. The driver shares the event loop and the cores with the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import need_simcord  # noqa: E402

need_simcord("benchmarks/bench_load.py")

import simcord  # noqa: E402
from simcord.actors import MemberActor  # noqa: E402
from simcord.backend.models import Interaction as SimInteraction  # noqa: E402
from simcord.enums import ComponentType, InteractionType  # noqa: E402

from benchmarks.load_sim import (  # noqa: E402
    ACK_TIMEOUT,
    BOARD_TIMEOUT,
    DEADLINE,
    DRIVER_BUSY,
    Probe,
    ProcessSampler,
    WarningCounter,
    command_data,
    custom_ids,
    dispatch,
    pct,
)
from bot.client import PetersburgBot, tune_gc  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.store import Store  # noqa: E402
from rules import GameState, legal_moves  # noqa: E402
from tests.bot.helpers import PREFERENCE, game_in, setup_members, start_game  # noqa: E402

# bench_replay uses them
__all__ = ["Driver", "Figures", "Probe", "Table", "custom_ids", "dispatch", "pct", "started_table"]


# --- the run ----------------------------------------------------------------------------------------------
@dataclass
class Figures:
    ack: list[float] = field(default_factory=list)  # actions (the slash command or the click)
    ack_autocomplete: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    not_acked: int = 0
    late: int = 0  # acknowledged after DEADLINE (autocomplete excluded: Discord just shows no suggestions)
    no_board: int = 0
    finished: int = 0
    via: Counter[str] = field(default_factory=Counter)
    first: float = 0.0
    last: float = 0.0
    driver_busy: float = 0.0  # the driver's own synchronous work on the shared event loop (s)


@dataclass
class Table:
    game_id: int
    channel_id: int
    members: dict[int, MemberActor]


async def started_table(env: simcord.Env, guild: simcord.GuildHandle, probe: Probe, i: int) -> Table:
    """The load's ``i``-th game, started by slash command in the channel ``load<i>`` of ``guild`` (2, 3 and 4
    players in turn, editions 1 and 2 alternating) and watched by ``probe``."""
    channel = guild.create_text_channel(f"load{i}")
    players = setup_members(env, 2 + i % 3, guild, prefix=f"g{i}p")
    await start_game(env, channel, players, edition=1 + i % 2)
    game = await game_in(env, channel)
    probe.watch_game(channel.id, game.id)
    return Table(game.id, channel.id, {p.id: p for p in players})


COMMANDS = {"buy": ("petersburg buy", "card", ""), "take": ("petersburg take", "card", ""),
            "play": ("petersburg play", "card", ""), "pub": ("petersburg decide", "choice", "pub"),
            "discard": ("petersburg decide", "choice", "discard"),
            "observe": ("petersburg observatory", "stack", "")}


class Driver:
    def __init__(self, env: simcord.Env, probe: Probe, reader: Store, args: argparse.Namespace) -> None:
        self.env, self.probe, self.reader, self.args = env, probe, reader, args
        self.fig = Figures()
        self.stop_at = 0.0

    async def _acked(self, record: SimInteraction, t0: float, *, autocomplete: bool = False) -> bool:
        t = await self.probe.ack(record.id, ACK_TIMEOUT)
        if t is None:
            if not autocomplete:
                self.fig.not_acked += 1
            return False
        if autocomplete:
            self.fig.ack_autocomplete.append(t - t0)
        else:
            self.fig.ack.append(t - t0)
            if t - t0 > DEADLINE:
                self.fig.late += 1
        return True

    async def by_command(self, table: Table, actor: MemberActor, kinds: list[str]) -> tuple[SimInteraction, float]:
        """The first of ``kinds`` that autocomplete offers, as a slash command with the first suggestion."""
        for kind in kinds:
            if kind == "pass":
                self.fig.via["command"] += 1
                return dispatch(self.env, actor, InteractionType.APPLICATION_COMMAND, table.channel_id,
                                command_data(actor, table.channel_id, "petersburg pass", {}))
            if kind not in COMMANDS:
                continue
            name, option, text = COMMANDS[kind]
            record, t0 = dispatch(self.env, actor, InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
                                  table.channel_id, command_data(actor, table.channel_id, name, {}, (option, text)))
            if not await self._acked(record, t0, autocomplete=True):
                continue
            # values are "v<version> <notation>": the notation starts with the kind asked for
            choices = [c for c in record.autocomplete_choices or []
                       if str(c["value"]).split(" ", 1)[-1].startswith(text)]
            if choices:
                self.fig.via["command"] += 1
                return dispatch(self.env, actor, InteractionType.APPLICATION_COMMAND, table.channel_id,
                                command_data(actor, table.channel_id, name, {option: choices[0]["value"]}))
        raise RuntimeError(f"game {table.game_id}: autocomplete offered none of {kinds}")

    def by_control(self, table: Table, actor: MemberActor, kinds: list[str]) -> tuple[SimInteraction, float] | None:
        """The board's select option or button for the first of ``kinds`` it carries (None: no such control)."""
        backend = self.env.backend
        for message in reversed(list(backend.messages.get(table.channel_id, {}).values())):
            controls = [c for row in message.components for c in row.get("components") or []
                        if str(c.get("custom_id", "")).startswith(("pb:s:", "pb:b:"))]
            if not controls:
                continue
            for kind in kinds:
                for c in controls:
                    cid = c["custom_id"]
                    if cid.startswith("pb:s:") and cid.split(":")[-1].rstrip("0123456789") == kind:
                        values = [o["value"] for o in c.get("options") or [] if not o["value"].startswith("?")]
                        if kind == "pub":
                            values = [v for v in values if v.endswith("|0")] or values
                        if values:
                            self.fig.via["select"] += 1
                            return dispatch(self.env, actor, InteractionType.MESSAGE_COMPONENT, table.channel_id,
                                            {"custom_id": cid, "component_type": ComponentType.STRING_SELECT,
                                             "values": [values[0]]}, message)
                    if cid.startswith("pb:b:") and cid.split(":")[-1].startswith(kind + "|"):
                        self.fig.via["button"] += 1
                        return dispatch(self.env, actor, InteractionType.MESSAGE_COMPONENT, table.channel_id,
                                        {"custom_id": cid, "component_type": ComponentType.BUTTON}, message)
            return None
        return None

    async def play(self, table: Table, rng: random.Random) -> None:
        for _ in range(self.args.actions_per_game):
            await asyncio.sleep(rng.uniform(0, 2 * self.args.think))
            if time.perf_counter() >= self.stop_at or await self.act(table, rng) is None:
                return

    async def act(self, table: Table, rng: random.Random) -> bool | None:
        """The player to move in ``table`` acts (``--via``) and the new board is awaited: True when it
        showed (its time in ``fig.board``), False when the action was not acknowledged or its board not seen,
        None when the game is over."""
        game = await self.reader.get_game(table.game_id)
        if game is None or game.status != "active" or game.state is None:
            return None
        busy = time.perf_counter()
        st = GameState.from_json(game.state)
        actor = table.members[game.user_at(st.decider) or 0]
        legal = {m.action.kind for m in legal_moves(st)}
        kinds = [k for k in (*PREFERENCE, "play", "observe") if k in legal]
        before = game.version
        sent = None
        via = self.args.via
        if via == "buttons" or (via == "mixed" and rng.random() < 0.5):
            sent = self.by_control(table, actor, kinds)
        self.fig.driver_busy += time.perf_counter() - busy
        record, t0 = sent if sent is not None else await self.by_command(table, actor, kinds)
        if not self.fig.first:
            self.fig.first = t0
        if not await self._acked(record, t0):
            self.fig.no_board += 1
            return False
        shown = await self.board_after(table, before, t0)
        if shown is None:
            return None
        if shown > 0:
            self.fig.board.append(shown - t0)
            self.fig.last = max(self.fig.last, shown)
            return True
        return False

    async def board_after(self, table: Table, before: int, t0: float) -> float | None:
        """When the board of the stored version after the action appeared (0: the game ended or the action was
        refused; None: the game is over)."""
        seen, changed = self.probe.seen[table.game_id], self.probe.changed[table.game_id]
        while time.perf_counter() - t0 < BOARD_TIMEOUT:
            changed.clear()
            if max(seen, default=-1) > before:
                game = await self.reader.get_game(table.game_id)
                assert game is not None
                if game.version in seen:
                    return seen[game.version]
                if game.status != "active":
                    self.fig.finished += 1
                    return None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), 1.0)
            if not changed.is_set():  # nothing new for a second: did the game end?
                game = await self.reader.get_game(table.game_id)
                if game is not None and game.status != "active":
                    self.fig.finished += 1
                    return None
        self.fig.no_board += 1
        return 0.0



async def run(args: argparse.Namespace, db: Path) -> Figures:
    live = int(os.environ.get("LIVE_MINUTES", "5"))  # 0: every player pinged at once (no live window)
    config = Config(token="x", database_path=str(db), render_images=True, live_minutes=live,
                    timer_poll_seconds=3600.0)  # no reminder poll during the run (it would move SimCord's clock)
    bot = PetersburgBot(config, sync_commands=True)
    if not args.gc_defaults:
        tune_gc()  # as ``python -m bot`` does before it starts the bot
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        probe = Probe(env)
        t_setup = time.perf_counter()
        tables = [await started_table(env, guild, probe, i) for i in range(args.games)]
        await env.settle(timeout=60)
        print(f"setup: {args.games} games started in {time.perf_counter() - t_setup:.1f} s "
              f"(2/3/4 players in turn, editions 1 and 2 alternating)")

        reader = await Store.open(db)
        driver = Driver(env, probe, reader, args)
        sampler = ProcessSampler()
        warnings = WarningCounter()
        logging.getLogger().addHandler(warnings)
        virtual0 = env.now()
        with probe.hooked():
            sampler.sample()
            pids = {os.getpid()}
            cpu0 = ProcessSampler.cpu_seconds(pids | sampler.children)  # a pool started at setup counts from here
            sampler.start()
            wall0 = time.perf_counter()
            driver.stop_at = wall0 + args.seconds
            await asyncio.gather(*(driver.play(tb, random.Random(args.seed * 1000 + k))
                                   for k, tb in enumerate(tables)))
            wall = time.perf_counter() - wall0
            sampler.sample()
            cpu = ProcessSampler.cpu_seconds(pids | sampler.children)
            await sampler.stop()
            await env.settle(timeout=120)
        logging.getLogger().removeHandler(warnings)
        await reader.close()
        fig = driver.fig
        load = fig.last - fig.first if fig.last > fig.first else wall
        print(f"load: {wall:.1f} s wall, think {args.think} s mean, via {args.via} "
              f"({', '.join(f'{k} {v}' for k, v in sorted(fig.via.items()))})")
        report("ack (action)", fig.ack)
        report("ack (autocomplete)", fig.ack_autocomplete)
        report("board visible", fig.board)
        print(f"  not acknowledged within {DEADLINE:.0f} s: {fig.late + fig.not_acked} of "
              f"{len(fig.ack) + fig.not_acked} actions ({fig.not_acked} never); "
              f"autocomplete later than {DEADLINE:.0f} s: "
              f"{sum(1 for x in fig.ack_autocomplete if x > DEADLINE)}")
        print(f"  boards not seen: {fig.no_board}; games that ended: {fig.finished}")
        print(f"  throughput: {len(fig.board) / load:.1f} actions/s with board shown "
              f"({len(fig.board)} in {load:.1f} s)")
        print(f"  CPU: {cpu - cpu0:.1f} s over {wall:.1f} s = {(cpu - cpu0) / wall:.2f} cores "
              f"(bot and driver share this process); threads at most {sampler.max_threads}, "
              f"child processes at most {sampler.max_children}")
        busy = fig.driver_busy + DRIVER_BUSY[0]
        print(f"  driver's own work on the loop (choosing moves, building payloads; not its reads): {busy:.1f} s = "
              f"{100 * busy / wall:.1f} % of the wall time")
        print(f"  SimCord virtual clock moved {(env.now() - virtual0).total_seconds():.1f} s during the load; "
              f"bot bugs recorded: {len(bot.bugs)}")
        for text, count in warnings.counts.most_common(5):
            print(f"  log x{count}: {text}")
        assert bot.store is not None
        await bot.store.close()
    return fig


def report(label: str, xs: list[float]) -> None:
    if not xs:
        print(f"  {label:<20} n=   0")
        return
    ms = [x * 1000 for x in xs]
    print(f"  {label:<20} n={len(ms):5d}  p50={statistics.median(ms):7.0f} ms  p99={pct(ms, 99):7.0f} ms  "
          f"max={max(ms):7.0f} ms")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def machine() -> str:
    """The first line of a benchmark's output: when, the machine's load average and its CPUs."""
    return f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}; load average {load_average()}; " \
           f"{os.cpu_count()} CPUs"


async def main() -> int:
    from benchmarks import load_open  # it imports this module
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0], formatter_class=HelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--actions-per-game", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=120.0, help="start no new action after this long")
    ap.add_argument("--think", type=float, default=0.5, help="mean pause before each action (s)")
    ap.add_argument("--via", choices=("commands", "buttons", "mixed"), default="commands")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gc-defaults", action="store_true",
                    help="keep Python's garbage collector settings (python -m bot tunes them: bot.client.tune_gc)")
    load_open.add_arguments(ap)
    args = ap.parse_args()
    print(f"{machine()}; garbage collector {'defaults' if args.gc_defaults else 'tuned as python -m bot does'}")
    with tempfile.TemporaryDirectory() as tmp:
        if args.open_loop:
            steps = await load_open.run_open(args, Path(tmp) / "load.sqlite3")
            print(load_open.summary(steps))
            print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
            return 0
        fig = await run(args, Path(tmp) / "load.sqlite3")
    print(f"targets: ack p99 <= 500 ms: {'met' if fig.ack and pct(fig.ack, 99) <= 0.5 else 'NOT met'}; "
          f"board p99 <= 2000 ms: {'met' if fig.board and pct(fig.board, 99) <= 2.0 else 'NOT met'}")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
