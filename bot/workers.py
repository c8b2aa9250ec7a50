"""Worker processes for CPU work the event loop must not do: drawing pictures and computer players' thinking.

A ``WorkerPool`` is a ``concurrent.futures.ProcessPoolExecutor`` (``forkserver`` where available) whose
workers all start at once, from a thread of their own, on first use: starting processes polls the earlier
children with a zero time-out, which must see the real clock (a test harness may replace
``time.monotonic`` in the bot's context), and the start (about a second) must not block the event loop.
Inputs and results are plain data (JSON dicts, bytes, tuples), so they pickle cheaply.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class WorkerPool:
    """A lazily started pool of ``size()`` worker processes, each prepared by ``initializer``."""

    def __init__(self, name: str, size: Callable[[], int], initializer: Callable[[], None] | None = None) -> None:
        self.name = name
        self.size = size
        self.initializer = initializer
        self._executor: Executor | None = None
        self._lock: asyncio.Lock | None = None

    def _start(self) -> ProcessPoolExecutor:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        n = max(1, self.size())
        started = ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=self.initializer)
        for f in [started.submit(os.getpid) for _ in range(n)]:  # every worker now, none later
            f.result()
        return started

    async def executor(self) -> Executor:
        """The pool, started on first use (see the module docstring)."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._executor is None:
                loop = asyncio.get_running_loop()
                done: asyncio.Future[ProcessPoolExecutor] = loop.create_future()

                def start() -> None:
                    try:
                        started = self._start()
                    except BaseException as e:  # reported to the waiting coroutine
                        loop.call_soon_threadsafe(done.set_exception, e)
                    else:
                        loop.call_soon_threadsafe(done.set_result, started)

                threading.Thread(target=start, name=f"{self.name}-pool-start", daemon=True).start()
                self._executor = await done
            return self._executor

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker; a broken pool is replaced for the next call."""
        executor = await self.executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            log.exception("the %s pool broke; a new one starts with the next call", self.name)
            self.shutdown()
            raise

    def shutdown(self) -> None:
        """Stop the workers (a later call starts a new pool)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._lock = None


def cores() -> int:
    return os.cpu_count() or 1
