"""The parts of the load benchmarks that watch SimCord and the processes (``bench_load.py``, its open-loop
mode ``load_open.py``, ``bench_replay.py``): when each interaction is acknowledged and each board version shows
(``Probe``), interactions emitted without SimCord's settling (``dispatch``), and the CPU time of the bot's
process and its children (``ProcessSampler``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import simcord
from simcord import interactions as sc_interactions
from simcord.actors import MemberActor, _resolve_visible_command
from simcord.backend import serializers
from simcord.backend.models import Interaction as SimInteraction
from simcord.enums import AppCommandType

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

