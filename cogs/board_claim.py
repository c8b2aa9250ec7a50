"""One board poster at a time per game when several processes share the database.

Each process has its own poster with its own in-memory lock per game; across processes the poster also
claims the game in the database (``Store.claim_board``: an owner and a lease in the game's row) for an
attempt, so two processes never post the same board, notice or turn message twice. On SQLite (one process)
nothing is claimed.

The owner is this process, registered in the database with its identity (a random id; the machine, pid and
start time) and a heartbeat every ``BEAT`` seconds (``Claims``). A claim of a process that has ended is
taken over at once, a claim of a live process never (``bot.store.claims``):

- a process on the same machine (e.g. the restart of a killed process) sees from its pid and start time that
  the owner has ended, marks it dead, and takes its claims at once;
- a process on another machine takes them once the owner's heartbeat is ``STALE`` seconds old;
- so that this can never take a claim from a process that is in fact alive (one cut off from the database,
  or stalled), a process whose last heartbeat is older than ``FENCE`` (< ``STALE``) claims nothing and
  starts no attempt until it beats again, and one that finds itself marked dead continues under a new id.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from discord.ext import tasks

from bot.store import DatabaseLost, DatabaseUnavailable

log = logging.getLogger(__name__)

LEASE = 120.0  # seconds a claim of an owner without a heartbeat (an older version) holds
BEAT = 2.0  # seconds between heartbeats
STALE = 15.0  # a registered process without a heartbeat this long counts as gone (on another machine)
FENCE = 10.0  # a process whose last heartbeat is older than this starts no attempt (< STALE)
WAIT_FIRST, WAIT_MAX = 0.05, 1.0  # seconds between looks while another process holds the claim


class Busy(Exception):
    """The claim could not be had in the time asked (another process is updating the channel)."""


def machine() -> str:
    """This machine and pid namespace: processes with the same value see each other's pids in ``/proc``
    (the kernel's boot id and the pid namespace); elsewhere the host name (and no pid checks)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        return f"{boot}/{os.stat('/proc/self/ns/pid').st_ino}"
    except OSError:
        import socket

        return f"host:{socket.gethostname()}"


def start_time(pid: int) -> str | None:
    """When the process ``pid`` started (clock ticks since boot, from ``/proc``); None when it does not
    exist (or has ended and waits to be reaped) or cannot be seen."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    return fields[19]


class Claims:
    """This process's board claims (see the module docstring). ``store`` is a callable that returns the
    store."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.owner: str | None = None  # this process's id once registered
        self._machine = machine()
        self._started = start_time(os.getpid()) or ""
        self._beat_ok = -1e9  # time.monotonic() when the last successful heartbeat was sent
        self._beats = tasks.loop(seconds=BEAT)(self._beat)
        self._lock = asyncio.Lock()

    @property
    def store(self) -> Any:
        return self._store()

    def fresh(self) -> bool:
        """Whether this process may claim (its last heartbeat is younger than ``FENCE``)."""
        return time.monotonic() - self._beat_ok < FENCE

    async def start(self) -> None:
        """Register this process and start its heartbeat (once; nothing on a database of one process)."""
        async with self._lock:
            if self.owner is not None or not self.store.shared:
                return
            await self._register()
            self._beats.start()

    async def stop(self) -> None:
        """The bot stops: no more heartbeats, this process's claims released and its row gone."""
        self._beats.cancel()
        if self.owner is not None:
            with contextlib.suppress(DatabaseLost, DatabaseUnavailable):
                await self.store.unregister_process(self.owner)
            self.owner = None

    async def _register(self) -> None:
        sent = time.monotonic()
        self.owner = await self.store.register_process(self._machine, os.getpid(), self._started)
        self._beat_ok = sent
        await self._bury()

    async def _beat(self) -> None:
        """One heartbeat (every ``BEAT`` seconds), and a look for ended processes on this machine."""
        try:
            sent = time.monotonic()
            if self.owner is None:
                return
            if await self.store.beat(self.owner):
                self._beat_ok = sent
            else:  # marked dead (no heartbeat for too long): its claims are anybody's now
                log.warning("this process was taken for gone (no heartbeat for %g s); it goes on under a new id",
                            STALE)
                await self._register()
            await self._bury()
        except Exception as e:  # the database is away: no claims until a heartbeat arrives again
            log.warning("heartbeat: %s", e)

    async def _bury(self) -> None:
        """Mark dead the processes of this machine that have ended (their claims are free at once)."""
        if self._machine.startswith("host:"):
            return
        for other, pid, started in await self.store.processes_on(self._machine):
            if other != self.owner and start_time(pid) != started:
                log.info("process %s (pid %d) has ended: its board claims are free", other, pid)
                await self.store.mark_dead(other)

    @asynccontextmanager
    async def claimed(self, game_id: int, within: float | None = None) -> AsyncIterator[None]:
        """Hold the game's board claim for the block, waiting while another process holds it (``Busy`` after
        ``within`` seconds when given)."""
        if not self.store.shared:
            yield
            return
        await self.start()
        deadline = None if within is None else time.monotonic() + within
        delay = WAIT_FIRST
        while True:
            owner = self.owner
            if owner is not None and self.fresh() and await self.store.claim_board(game_id, owner, LEASE,
                                                                                    stale=STALE):
                break
            if deadline is not None and time.monotonic() + delay > deadline:
                raise Busy(f"game {game_id}")
            await asyncio.sleep(delay)
            delay = min(delay * 2, WAIT_MAX)
        try:
            yield
        finally:
            await self.store.release_board(game_id, owner)
