"""The one place that turns views into pictures: ``render`` when it is importable, else nothing (the
caller then shows the text board).

Rendering runs in a pool of worker processes (``concurrent.futures.ProcessPoolExecutor``, started with
``forkserver`` where available), never on the event loop and not in a thread of the bot's process: drawing
and PNG encoding hold the GIL, so a thread would slow every other game's interactions. Views are plain
JSON dicts, so they pickle cheaply. ``shutdown()`` stops the workers (the client calls it on close).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
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
    """Worker processes: one per core but one (left to the bot), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def _warm() -> None:
    """Import the renderer and load its fonts in a fresh worker, so the first real image is quick."""
    from rules import catalogue

    importlib.import_module("render").render_card(catalogue(2).types[0].id, 2, "en")


def pool() -> Executor:
    """The shared worker pool (created on first use)."""
    global _pool
    if _pool is None:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=ctx, initializer=_warm)
    return _pool


def shutdown() -> None:
    """Stop the worker processes (a later image starts a new pool)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None


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
        return await loop.run_in_executor(pool(), _draw, name, *args)
    except BrokenProcessPool:
        log.exception("the render pool broke; starting a new one")
        shutdown()
        return None
    except Exception:
        log.exception("render.%s failed; showing text instead", name)
        return None


async def board_png(view: dict[str, Any], lang: str, last_action: str | None) -> bytes | None:
    """PNG of the board, or None (no renderer, or it failed)."""
    return await _call("render_board", view, lang, last_action)


async def hand_png(view: dict[str, Any], lang: str) -> bytes | None:
    return await _call("render_hand", view, lang)


async def final_png(view: dict[str, Any], lang: str) -> bytes | None:
    return await _call("render_final", view, lang)


async def card_png(card_id: str, edition: int, lang: str) -> bytes | None:
    return await _call("render_card", card_id, edition, lang)
