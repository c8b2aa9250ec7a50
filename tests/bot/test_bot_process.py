"""The worker processes of ``python -m bot`` (pictures, computer players; a forkserver and
a resource tracker with them) end when the bot ends, however it ends; SIGTERM stops the bot cleanly.

The real process runs against a minimal Discord on the wire (``tests.bot.wire``): it logs in, connects to
the gateway and starts its workers as in production.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from .wire import Proc, descendants, describe, ended, read_rest, read_until, start_bot, survivors, wire_discord

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
            if bot.returncode is None:
                bot.kill()
            if drain is not None:
                drain.cancel()
            for p in procs:  # what outlived the bot (reported by the test) ends with the test
                if p.alive():
                    os.kill(p.pid, signal.SIGKILL)
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
