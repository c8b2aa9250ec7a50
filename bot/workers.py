"""Worker processes for CPU work the event loop must not do: drawing pictures and computer players' thinking.

A ``WorkerPool`` is a ``concurrent.futures.ProcessPoolExecutor`` (``forkserver`` where available) whose
workers all start at once, from a thread of their own, on first use: starting processes polls the earlier
children with a zero time-out, which must see the real clock (a test harness may replace
``time.monotonic`` in the bot's context), and the start (about a second) must not block the event loop.
Inputs and results are plain data (JSON dicts, bytes, tuples), so they pickle cheaply.

Workers end when the bot ends, however it ends, also while they are busy in a long C call that holds the GIL
(encoding a picture): the forkserver ends when the bot ends (it watches a pipe whose write end only the bot
holds: each worker closes the copy the forkserver hands it, ``_release_forkserver``), and the kernel kills
its children then (``PR_SET_PDEATHSIG``, set by each worker: the forkserver forks from its only thread).
Where that is not available (not Linux, no forkserver), each worker also watches the bot's process
(``watch_bot``: a thread waiting on a pidfd of the bot, or polling where there is none) and leaves when it is
gone. A worker's queues hold both ends of their pipes, so without this a worker of a killed bot would wait
for work forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import logging
import multiprocessing
import os
import select
import signal
import sys
import threading
import time
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
        self._starting: asyncio.Future[ProcessPoolExecutor] | None = None  # a start in progress

    def _start(self) -> ProcessPoolExecutor:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        n = max(1, self.size())
        started = ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_worker_start,
                                      initargs=(os.getpid(), self.initializer))
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
                self._starting = done

                def start() -> None:
                    started: ProcessPoolExecutor | None = None
                    try:
                        started = self._start()
                    except BaseException as e:  # reported to the waiting coroutine
                        report: Callable[[], object] = functools.partial(_settle, done, error=e)
                    else:
                        report = functools.partial(_settle, done, result=started)
                    try:
                        loop.call_soon_threadsafe(report)
                    except RuntimeError:  # the event loop has ended meanwhile (the bot stopped): nobody waits
                        if started is not None:
                            started.shutdown(wait=False, cancel_futures=True)

                threading.Thread(target=start, name=f"{self.name}-pool-start", daemon=True).start()
                try:
                    self._executor = await asyncio.shield(done)
                except asyncio.CancelledError:  # nobody will use this pool: stop it once it has started
                    done.add_done_callback(_shutdown_started)
                    raise
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

    async def stop(self, within: float = 60) -> None:
        """Stop the workers, also a pool still starting: once its workers are up (at most ``within`` s), as a
        worker still being started when the bot's process ends fails with a traceback of its own."""
        starting = self._starting
        if starting is not None and starting.get_loop() is asyncio.get_running_loop():
            if not starting.done():
                with contextlib.suppress(Exception):  # a start that failed or took too long: nothing to stop
                    await asyncio.wait_for(asyncio.shield(starting), within)
            if starting.done() and not starting.cancelled() and starting.exception() is None:
                starting.result().shutdown(wait=False, cancel_futures=True)
        if self._starting is starting:
            self._starting = None
        self.shutdown()

    async def renew(self) -> None:
        """New workers from now on (the next call starts them: e.g. on the compiled core, once it is built); the
        running ones finish the work they were given and end then. Nothing to do for a pool not started."""
        if self._lock is None:
            return
        async with self._lock:  # after a start in progress
            old, self._executor = self._executor, None
        if old is not None:
            old.shutdown(wait=False)

    def shutdown(self) -> None:
        """Stop the workers (a later call starts a new pool)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        self._lock = None


def _settle(done: asyncio.Future[ProcessPoolExecutor], result: ProcessPoolExecutor | None = None,
            error: BaseException | None = None) -> None:
    """Hand the started pool (or why it did not start) to the waiting coroutine; a pool nobody waits for
    any more is stopped."""
    if done.cancelled():
        if result is not None:
            result.shutdown(wait=False, cancel_futures=True)
    elif error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)  # type: ignore[arg-type]


def _shutdown_started(done: asyncio.Future[ProcessPoolExecutor]) -> None:
    if not done.cancelled() and done.exception() is None:
        done.result().shutdown(wait=False, cancel_futures=True)


def _worker_start(bot_pid: int, then: Callable[[], None] | None) -> None:
    """In a new worker: watch the bot, then prepare the worker."""
    _release_forkserver()
    watch_bot(bot_pid)
    if then is not None:
        then()


def _release_forkserver() -> None:
    """In a worker forked by the forkserver: close this process's copy of the write end of the pipe by which
    the forkserver learns that its clients are gone. The forkserver hands that end to every child it forks, so
    while any worker lives the forkserver would outlive a killed bot, and its children (``die_with_parent``)
    with it; closed here, the bot holds the only copy and the forkserver ends with it."""
    from multiprocessing import forkserver

    server: Any = forkserver._forkserver
    fd = getattr(server, "_forkserver_alive_fd", None)
    if fd is None:
        return
    with contextlib.suppress(OSError):
        os.close(fd)
    server._forkserver_alive_fd = None


PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Linux: this process is killed (SIGKILL, by the kernel: also in the middle of a C call) when its parent
    ends. Only for a process whose parent is single-threaded (the forkserver): the signal follows the parent
    *thread* that forked it. A parent that ended before the call is seen at once."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(0)


def watch_bot(bot_pid: int, poll_s: float = 1.0) -> None:
    """Leave this process (``os._exit``) as soon as process ``bot_pid`` ends; returns at once (a daemon thread
    waits). A pidfd sees the end at once and cannot mistake a new process with the same pid for the bot."""
    if os.getppid() != bot_pid:  # forked by the forkserver: die with it, too
        die_with_parent()
    pidfd: int | None = None
    try:
        pidfd = os.pidfd_open(bot_pid)
    except ProcessLookupError:
        os._exit(0)
    except (AttributeError, OSError):  # no pidfds (not Linux, or an old kernel): poll
        pidfd = None

    def wait() -> None:
        if pidfd is not None:
            poller = select.poll()
            poller.register(pidfd, select.POLLIN)
            while not poller.poll():
                pass
        else:
            while _alive(bot_pid):
                time.sleep(poll_s)
        os._exit(0)

    threading.Thread(target=wait, name="watch-bot", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters


def keep_freed_memory(mmap_threshold: int = 32 << 20, trim_threshold: int = 256 << 20) -> None:
    """glibc: blocks up to ``mmap_threshold`` come from the heap, and freed memory stays with the process up to
    ``trim_threshold``. A render worker makes a board's 1.5 MB of pixels and its PNG's rows anew for every
    picture; each taken from the kernel afresh (glibc's default for large blocks) is zero-filled page by page,
    which cost a sixth of a board's CPU time. No-op where there is no glibc."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(M_MMAP_THRESHOLD, mmap_threshold)
        libc.mallopt(M_TRIM_THRESHOLD, trim_threshold)
    except (OSError, AttributeError):
        return


def cores() -> int:
    return os.cpu_count() or 1
