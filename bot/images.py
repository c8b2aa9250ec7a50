"""The one place that turns views into pictures: ``render`` when it is importable, else nothing (the
caller then shows the text board).

Rendering runs in a pool of worker processes (``concurrent.futures.ProcessPoolExecutor``, started with
``forkserver`` where available), never on the event loop and not in a thread of the bot's process: drawing
and PNG encoding hold the GIL, so a thread would slow every other game's interactions. Views are plain
JSON dicts, so they pickle cheaply. ``shutdown()`` stops the workers (the client calls it on close).
``render`` is imported here only to say whether pictures can be drawn.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

log = logging.getLogger(__name__)

_MISSING = object()
_render: Any = _MISSING
_pool: ProcessPoolExecutor | None = None


def _module() -> Any:
    """The ``render`` package, or None while it does not exist (looked up once)."""
    global _render
    if _render is _MISSING:
        try:
            _render = importlib.import_module("render")
        except ImportError:
            _render = None
    return _render


def available() -> bool:
    """Whether board pictures can be drawn."""
    mod = _module()
    return mod is not None and callable(getattr(mod, "render_board", None))


def workers() -> int:
    """Worker processes: one per core (the bot's own process mostly waits on Discord and the database)."""
    return max(1, os.cpu_count() or 1)


def _warm() -> None:
    """Import the renderer and load its fonts in a fresh worker, so the first real image is quick."""
    from rules import catalogue

    importlib.import_module("render").render_card(catalogue(2).types[0].id, 2, "en")


def _start_pool() -> ProcessPoolExecutor:
    """A pool with every worker started now (so none is started later from the event loop)."""
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    n = workers()
    started = ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_warm)
    for f in [started.submit(os.getpid) for _ in range(n)]:
        f.result()
    return started


async def pool() -> Executor:
    """The shared worker pool, started on first use.

    It is started from a thread of its own: starting processes polls the earlier children with a zero
    time-out, which must see the real clock (a test harness may replace ``time.monotonic`` for the bot's
    context), and the workers' start (about a second) must not block the event loop."""
    global _pool
    async with _pool_lock():
        if _pool is None:
            loop = asyncio.get_running_loop()
            done: asyncio.Future[ProcessPoolExecutor] = loop.create_future()

            def start() -> None:
                try:
                    started = _start_pool()
                except BaseException as e:  # reported to the waiting coroutine
                    loop.call_soon_threadsafe(done.set_exception, e)
                else:
                    loop.call_soon_threadsafe(done.set_result, started)

            threading.Thread(target=start, name="render-pool-start", daemon=True).start()
            _pool = await done
        return _pool


_lock: asyncio.Lock | None = None


def _pool_lock() -> asyncio.Lock:
    global _lock
    if _lock is None:
        _lock = asyncio.Lock()
    return _lock


def shutdown() -> None:
    """Stop the worker processes (a later image starts a new pool)."""
    global _pool, _lock
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
    _lock = None
    _Boards.drawing, _Boards.idle = 0, None  # the next event loop makes its own


def _draw(name: str, *args: Any) -> bytes:
    """In the worker: call ``render.<name>``."""
    fn = getattr(importlib.import_module("render"), name)
    data = fn(*args)
    return bytes(data)


async def _call(name: str, *args: Any) -> bytes | None:
    if not available():
        return None
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(await pool(), _draw, name, *args)
    except BrokenProcessPool:
        log.exception("the render pool broke; starting a new one")
        shutdown()
        return None
    except Exception:
        log.exception("render.%s failed; showing text instead", name)
        return None


class _Boards:
    """Boards being drawn: pictures that nobody waits for (hands pushed by DM) wait until there are none, so a
    busy bot shows its boards first."""

    drawing = 0
    idle: asyncio.Event | None = None

    @classmethod
    def event(cls) -> asyncio.Event:
        if cls.idle is None:
            cls.idle = asyncio.Event()
            cls.idle.set()
        return cls.idle


async def board_png(view: dict[str, Any], lang: str, last_action: str | None) -> bytes | None:
    """PNG of the board, or None (no renderer, or it failed)."""
    idle = _Boards.event()
    _Boards.drawing += 1
    idle.clear()
    try:
        return await _call("render_board", view, lang, last_action)
    finally:
        _Boards.drawing -= 1
        if _Boards.drawing == 0:
            idle.set()


async def hand_png(view: dict[str, Any], lang: str, *, background: bool = False) -> bytes | None:
    """PNG of a player's hand; ``background`` (a DM push): after the boards being drawn."""
    if background:
        await _Boards.event().wait()
    return await _call("render_hand", view, lang)


async def final_png(view: dict[str, Any], lang: str) -> bytes | None:
    return await _call("render_final", view, lang)


async def card_png(card_id: str, edition: int, lang: str) -> bytes | None:
    return await _call("render_card", card_id, edition, lang)
