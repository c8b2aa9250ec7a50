"""Many games at once through the real bot inside SimCord, board pictures on: how late does the bot
acknowledge, and how late does the new board show? Not a test; it prints figures. From the repository root::

    .venv/bin/python benchmarks/bench_load.py [--games 100] [--actions-per-game 10] [--seconds 120]
        [--think 0.5] [--via commands|buttons|mixed] [--seed 1]

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
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simcord  # noqa: E402
from simcord import interactions as sc_interactions  # noqa: E402
from simcord.actors import MemberActor, _resolve_visible_command  # noqa: E402
from simcord.backend import serializers  # noqa: E402
from simcord.backend.models import Interaction as SimInteraction  # noqa: E402
from simcord.enums import AppCommandType, ComponentType, InteractionType  # noqa: E402

from bot.client import PetersburgBot, tune_gc  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.store import Store  # noqa: E402
from rules import GameState, legal_moves  # noqa: E402
from tests.bot.helpers import PREFERENCE, game_in, setup_members, start_game  # noqa: E402

DEADLINE = 3.0  # Discord's time to acknowledge an interaction
ACK_TIMEOUT = 30.0  # give up waiting for an acknowledgement after this long
BOARD_TIMEOUT = 60.0  # ... and for the new board
DRIVER_BUSY = [0.0]  # seconds the driver spent building interaction payloads
RESPONSE_MARKERS = ("respond_with_message", "defer", "defer_update", "update_source", "show_modal",
                    "complete_autocomplete", "pong")


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


class Probe:
    """Times, as SimCord's backend sees them, of each interaction's first response and of each board version
    of each game appearing in its channel."""

    def __init__(self, env: simcord.Env) -> None:
        self.env = env
        self.acked: dict[int, float] = {}
        self._ack_waiters: dict[int, asyncio.Future[float]] = {}
        self.game_of_channel: dict[int, int] = {}
        self.seen: dict[int, dict[int, float]] = {}  # game id -> version -> first time shown
        self.changed: dict[int, asyncio.Event] = {}
        self.board_events = 0

    def watch_game(self, channel_id: int, game_id: int) -> None:
        self.game_of_channel[channel_id] = game_id
        self.seen[game_id] = {}
        self.changed[game_id] = asyncio.Event()

    # --- acknowledgements ---------------------------------------------------------------------
    def _on_response(self, interaction_id: int) -> None:
        if interaction_id in self.acked:
            return
        now = time.perf_counter()
        self.acked[interaction_id] = now
        fut = self._ack_waiters.pop(interaction_id, None)
        if fut is not None and not fut.done():
            fut.set_result(now)

    @contextlib.contextmanager
    def hooked(self) -> Iterator[None]:
        """Wrap the backend's response markers (they run once the callback request was accepted) and listen
        to the backend's gateway events."""
        originals: dict[str, Callable[..., Any]] = {name: getattr(SimInteraction, name) for name in RESPONSE_MARKERS}

        def wrap(original: Callable[..., Any]) -> Callable[..., Any]:
            def marker(record: SimInteraction, *args: Any, **kwargs: Any) -> Any:
                result = original(record, *args, **kwargs)
                self._on_response(record.id)
                return result
            return marker

        for name, original in originals.items():
            setattr(SimInteraction, name, wrap(original))
        self.env.backend.subscribers.append(self._on_event)
        try:
            yield
        finally:
            for name, original in originals.items():
                setattr(SimInteraction, name, original)
            with contextlib.suppress(ValueError):
                self.env.backend.subscribers.remove(self._on_event)

    async def ack(self, interaction_id: int, timeout: float) -> float | None:
        if interaction_id in self.acked:
            return self.acked[interaction_id]
        fut: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._ack_waiters[interaction_id] = fut
        try:
            return await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            return None
        finally:
            self._ack_waiters.pop(interaction_id, None)

    # --- boards -----------------------------------------------------------------------------------
    def _on_event(self, event: str, payload: Any) -> None:
        if event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            return
        game_id = self.game_of_channel.get(int(payload.get("channel_id") or 0))
        if game_id is None:
            return
        now = time.perf_counter()
        seen = self.seen[game_id]
        new = False
        for cid in custom_ids(payload.get("components") or []):
            for version in versions_in(cid, game_id):
                if version not in seen:
                    seen[version] = now
                    new = True
        if new:
            self.board_events += 1
            self.changed[game_id].set()


def custom_ids(components: list[Any]) -> Iterator[str]:
    for c in components:
        if isinstance(c, dict):
            if isinstance(c.get("custom_id"), str):
                yield c["custom_id"]
            yield from custom_ids(c.get("components") or [])
            if isinstance(c.get("accessory"), dict):
                yield from custom_ids([c["accessory"]])


def versions_in(custom_id: str, game_id: int) -> Iterator[int]:
    """Versions ``v`` for which ``custom_id`` holds ``:<game_id>:<v>:`` or ends with ``:<game_id>:<v>``."""
    parts = custom_id.split(":")
    gid = str(game_id)
    for i in range(1, len(parts) - 1):
        if parts[i] == gid and parts[i + 1].isdigit():
            yield int(parts[i + 1])


# --- dispatching without settling -------------------------------------------------------------------
def dispatch(env: simcord.Env, actor: MemberActor, kind: int, channel_id: int, data: dict[str, Any],
             message: Any = None) -> tuple[SimInteraction, float]:
    """Emit one INTERACTION_CREATE like SimCord's actors do, but return at once (no settling); the time is
    taken just before the bot receives it."""
    backend = env.backend
    busy = time.perf_counter()
    record, payload = sc_interactions.base_payload(backend, type=kind, channel_id=channel_id,
                                                   guild_id=actor.guild.id, user_id=actor.id, data=data)
    if message is not None:
        payload["message"] = dict(serializers.message_payload(backend, message))
        record.source_message_id = message.id
    env._notify_dispatch_observers(record)
    t0 = time.perf_counter()
    DRIVER_BUSY[0] += t0 - busy
    backend.emit("INTERACTION_CREATE", payload)
    return record, t0


def command_data(actor: MemberActor, channel_id: int, name: str, options: dict[str, Any],
                 focused: tuple[str, str] | None = None) -> dict[str, Any]:
    """The ``data`` of ``/name options`` (``focused``: an autocomplete request for that option and text)."""
    busy = time.perf_counter()
    parts = name.split()
    root = _resolve_visible_command(actor, channel_id, parts[0], AppCommandType.CHAT_INPUT)
    leaf, nesting = sc_interactions.walk_to_subcommand(root, parts[1:])
    opts, resolved = sc_interactions.build_options(actor, name, leaf, options, partial=focused is not None,
                                                   channel_id=channel_id)
    if focused is not None:
        option = next(o for o in leaf.get("options") or [] if o["name"] == focused[0])
        opts.append({"name": focused[0], "type": option["type"], "value": focused[1], "focused": True})
    data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": AppCommandType.CHAT_INPUT,
                            "options": sc_interactions.nest_options(root, nesting, opts)}
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    DRIVER_BUSY[0] += time.perf_counter() - busy
    return data


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
            if time.perf_counter() >= self.stop_at:
                return
            game = await self.reader.get_game(table.game_id)
            if game is None or game.status != "active" or game.state is None:
                return
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
                continue
            shown = await self.board_after(table, before, t0)
            if shown is None:
                return
            if shown > 0:
                self.fig.board.append(shown - t0)
                self.fig.last = max(self.fig.last, shown)

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


class ProcessSampler:
    """Threads and child processes of this process (most seen), CPU time of the process and its children."""

    def __init__(self) -> None:
        self.max_threads = 0
        self.max_children = 0
        self.children: set[int] = set()
        self._task: asyncio.Task[None] | None = None

    @staticmethod
    def _child_pids(pid: int) -> set[int]:
        out: set[int] = set()
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    out.update(int(x) for x in f.read().split())
        except OSError:
            return out
        for child in list(out):
            out |= ProcessSampler._child_pids(child)
        return out

    @staticmethod
    def cpu_seconds(pids: set[int]) -> float:
        ticks = 0
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                ticks += int(fields[11]) + int(fields[12])  # utime, stime
            except (OSError, IndexError, ValueError):
                pass
        return ticks / os.sysconf("SC_CLK_TCK")

    def sample(self) -> None:
        self.max_threads = max(self.max_threads, threading.active_count())
        kids = self._child_pids(os.getpid())
        self.children |= kids
        self.max_children = max(self.max_children, len(kids))

    async def _run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(0.5)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class WarningCounter(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[f"{record.name}: {record.getMessage()[:90]}"] += 1


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
        tables: list[Table] = []
        t_setup = time.perf_counter()
        for i in range(args.games):
            n = 2 + i % 3
            channel = guild.create_text_channel(f"load{i}")
            players = setup_members(env, n, guild, prefix=f"g{i}p")
            await start_game(env, channel, players, edition=1 + i % 2)
            game = await game_in(env, channel)
            tables.append(Table(game.id, channel.id, {p.id: p for p in players}))
            probe.watch_game(channel.id, game.id)
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
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--actions-per-game", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=120.0, help="start no new action after this long")
    ap.add_argument("--think", type=float, default=0.5, help="mean pause before each action (s)")
    ap.add_argument("--via", choices=("commands", "buttons", "mixed"), default="commands")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gc-defaults", action="store_true",
                    help="keep Python's garbage collector settings (python -m bot tunes them: bot.client.tune_gc)")
    args = ap.parse_args()
    print(f"{machine()}; garbage collector {'defaults' if args.gc_defaults else 'tuned as python -m bot does'}")
    with tempfile.TemporaryDirectory() as tmp:
        fig = await run(args, Path(tmp) / "load.sqlite3")
    print(f"targets: ack p99 <= 500 ms: {'met' if fig.ack and pct(fig.ack, 99) <= 0.5 else 'NOT met'}; "
          f"board p99 <= 2000 ms: {'met' if fig.board and pct(fig.board, 99) <= 2.0 else 'NOT met'}")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
