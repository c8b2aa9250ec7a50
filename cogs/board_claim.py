"""One board poster at a time per game when several processes share the database.

Each process has its own poster with its own in-memory lock per game; across processes the poster also
claims the game in the database (``Store.claim_board``: an owner and a lease in the game's row) for an
attempt, so two processes never post the same board, notice or turn message twice. On SQLite (one process)
nothing is claimed.

The owner is this process, registered in the database with its identity (a random id; the machine, pid and
start time) and a heartbeat (``Claims``): it beats right before each claim and every ``BEAT`` seconds while
it holds one. A claim of a process that has ended is taken over at once, a claim of a live process never
(``bot.store.claims``):

- a process on the same machine (e.g. the restart of a killed process) sees from the owner's pid and start
  time that it has ended, marks it dead, and takes its claims at once;
- a process on another machine takes them once the owner's heartbeat is ``STALE`` seconds old, which a live
  owner's never is while it holds a claim (unless its event loop stalls or it loses the database for that
  long: then its next write fails, and at most the one Discord call it was making when it stalled can repeat);
- a process found marked dead continues under a new id.
An idle process does not beat: it holds no claim.
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

from bot.store import DatabaseLost, DatabaseUnavailable

log = logging.getLogger(__name__)

LEASE = 120.0  # seconds a claim of an owner without a heartbeat (an older version) holds
BEAT = 2.0  # seconds between heartbeats while this process holds a claim
STALE = 15.0  # a registered process without a heartbeat this long counts as gone (on another machine)
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
        self._held = 0  # claims held now
        self._beats: asyncio.Task[None] | None = None  # beating while claims are held
        self._lock = asyncio.Lock()

    @property
    def store(self) -> Any:
        return self._store()

    async def start(self) -> None:
        """Register this process (once; nothing on a database of one process), and mark dead the ended
        processes of this machine: their claims are free at once."""
        async with self._lock:
            if self.owner is None and self.store.shared:
                self.owner = await self.store.register_process(self._machine, os.getpid(), self._started)
                await self._bury()

    async def stop(self) -> None:
        """The bot stops: this process's claims are released and its row goes."""
        if self._beats is not None:
            self._beats.cancel()
            self._beats = None
        if self.owner is not None:
            with contextlib.suppress(DatabaseLost, DatabaseUnavailable):
                await self.store.unregister_process(self.owner)
            self.owner = None

    async def _bury(self) -> None:
        """Mark dead the processes of this machine that have ended (their claims are free at once)."""
        if self._machine.startswith("host:"):
            return
        for other, pid, started in await self.store.processes_on(self._machine):
            if other != self.owner and start_time(pid) != started:
                log.info("process %s (pid %d) has ended: its board claims are free", other, pid)
                await self.store.mark_dead(other)

    async def _beat(self) -> str:
        """A heartbeat now; this process's id (a new one when it had been marked dead)."""
        await self.start()
        assert self.owner is not None
        if not await self.store.beat(self.owner):
            async with self._lock:
                log.warning("this process was taken for ended; it goes on under a new id")
                self.owner = await self.store.register_process(self._machine, os.getpid(), self._started)
        return self.owner

    async def _beating(self) -> None:
        while True:
            await asyncio.sleep(BEAT)
            try:
                await self._beat()
            except Exception as e:  # the database is away: its claims may lapse, and its next write fails too
                log.warning("heartbeat: %s", e)

    @asynccontextmanager
    async def claimed(self, game_id: int, within: float | None = None) -> AsyncIterator[None]:
        """Hold the game's board claim for the block, waiting while another process holds it (``Busy`` after
        ``within`` seconds when given)."""
        if not self.store.shared:
            yield
            return
        deadline = None if within is None else time.monotonic() + within
        delay = WAIT_FIRST
        looked = False
        while True:
            owner = await self._beat()
            if await self.store.claim_board(game_id, owner, LEASE, stale=STALE):
                break
            if not looked:  # held by another: has it ended (on this machine)?
                looked = True
                await self._bury()
                continue
            if deadline is not None and time.monotonic() + delay > deadline:
                raise Busy(f"game {game_id}")
            await asyncio.sleep(delay)
            delay = min(delay * 2, WAIT_MAX)
        self._held += 1
        if self._beats is None:
            self._beats = asyncio.create_task(self._beating())
        try:
            yield
        finally:
            self._held -= 1
            if self._held == 0 and self._beats is not None:
                self._beats.cancel()
                self._beats = None
            await self.store.release_board(game_id, owner)
