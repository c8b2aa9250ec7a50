"""A bot-like process for ``test_bot_process``: it starts a ``bot.workers.WorkerPool`` of two workers, makes
both busy in a long C call that holds the GIL (a backtracking regular expression: like Pillow encoding a
large picture, no Python thread of the worker runs meanwhile), prints the workers' pids and waits to be
killed. ``python -m tests.bot.busy_pool``."""

from __future__ import annotations

import asyncio
import os
import re

from bot.workers import WorkerPool

WORKERS = 2


def hold_the_gil(seconds_hint: int) -> int:
    """In a worker: tell the parent this worker's pid, then hold the GIL for minutes (``seconds_hint`` sets
    the length: the match takes about 2 ** (seconds_hint - 23) s)."""
    # one write of the whole line: both workers print to the same pipe at once (print wrote "busy 5515" and
    # its newline apart, and the other worker's line came between them)
    os.write(1, f"busy {os.getpid()}\n".encode())
    re.fullmatch(r"(a+)+$", "a" * seconds_hint + "b")
    return os.getpid()


async def main() -> None:
    pool = WorkerPool("busy", lambda: WORKERS)
    await pool.executor()
    loop = asyncio.get_running_loop()
    for _ in range(WORKERS):
        loop.create_task(pool.run(hold_the_gil, 33))
    print("submitted", flush=True)
    while True:
        await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main())
