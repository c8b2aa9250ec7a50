"""The worker processes of ``python -m bot`` (pictures, computer players; a forkserver and
a resource tracker with them) end when the bot ends, however it ends; SIGTERM stops the bot cleanly.

The real process runs against a minimal Discord on the wire (``tests.bot.wire``): it logs in, connects to
the gateway and starts its workers as in production.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from .wire import (
    ROOT,
    Proc,
    descendants,
    describe,
    end_all,
    ended,
    read_rest,
    read_until,
    start_bot,
    survivors,
    wire_discord,
)

WORKERS_READY = "worker processes started"


async def _running_bot(db: Path, signum: int) -> tuple[list[Proc], list[str], int, list[Proc]]:
    """Start the bot, wait until it is connected with its workers, send ``signum``: (the processes it had
    started, its log, its exit code, those of its processes still alive 10 s after it ended)."""
    async with wire_discord() as wire:
        bot = await start_bot(db, wire)
        log: list[str] = []
        assert bot.stderr is not None
        drain: asyncio.Task[None] | None = None
        procs: list[Proc] = []
        left: list[Proc] = []
        try:
            await read_until(bot.stderr, WORKERS_READY, log)
            await asyncio.wait_for(wire.identified.wait(), 30)
            procs = descendants(bot.pid)
            workers = [p for p in procs if "forkserver" in p.cmdline]
            assert len(workers) >= 3, describe(procs)  # the forkserver and at least two workers
            drain = asyncio.create_task(read_rest(bot.stderr, log))  # workers may hold the pipe open
            bot.send_signal(signum)
            code = await ended(bot, 30)
            left = await survivors(procs, within=10)
        finally:
            end_all(bot, drain, procs)
    return procs, log, code, left


async def test_sigkill_leaves_no_worker(tmp_path: Path) -> None:
    procs, _, code, left = await _running_bot(tmp_path / "games.sqlite3", signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert not left, f"{len(left)} of {len(procs)} processes outlived the killed bot: {describe(left)}"


async def test_sigterm_stops_the_bot_and_its_workers(tmp_path: Path) -> None:
    procs, log, code, left = await _running_bot(tmp_path / "games.sqlite3", signal.SIGTERM)
    text = "".join(log)
    assert not left, f"{len(left)} of {len(procs)} processes outlived the stopped bot: {describe(left)}"
    assert code == 0, (code, text[-3000:])
    assert "Traceback" not in text, text[-3000:]


async def test_sigkill_ends_workers_busy_in_a_long_c_call() -> None:
    """Workers busy in a C call that holds the GIL (a picture being encoded) end with a killed bot, too: no
    thread of theirs can run then, so the kernel must end them (the forkserver ends with the bot, and its
    children with it)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.bot.busy_pool", cwd=ROOT, env=env,
                                                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    busy: list[int] = []
    procs: list[Proc] = []
    try:
        seen: list[str] = []
        while len(busy) < 2:
            await read_until(proc.stdout, "busy ", seen, timeout=60)
            busy.append(int(seen[-1].split()[1]))
        procs = descendants(proc.pid)
        assert {p.pid for p in procs} >= set(busy), describe(procs)
        await asyncio.sleep(0.5)  # both inside the call
        proc.kill()
        assert await ended(proc, 10) == -signal.SIGKILL
        left = await survivors(procs, within=5)
        assert not left, f"{len(left)} of {len(procs)} processes outlived the killed process: {describe(left)}"
    finally:
        if proc.returncode is None:
            proc.kill()
        for p in procs:
            if p.alive():
                os.kill(p.pid, signal.SIGKILL)
