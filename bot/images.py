"""The one place that turns views into pictures: ``render`` when it is importable, else nothing (the
caller then shows the text board).

Rendering runs in worker processes (``bot.workers.WorkerPool``), never on the event loop and not in a
thread of the bot's process: drawing and PNG encoding hold the GIL, so a thread would slow every other
game's interactions. ``shutdown()`` stops the workers (the client calls it on close).
``render`` is imported here only to say whether pictures can be drawn.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from typing import Any

from .workers import WorkerPool, cores, keep_freed_memory

log = logging.getLogger(__name__)

_MISSING = object()
_render: Any = _MISSING


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


def _warm() -> None:
    """Import the renderer and load its fonts in a fresh worker, so the first real image is quick; keep the
    memory of one picture for the next (``keep_freed_memory``)."""
    from rules import catalogue

    keep_freed_memory()
    importlib.import_module("render").render_card(catalogue(2).types[0].id, 2, "en")


RENDER = WorkerPool("render", cores, _warm)  # one worker per core: the bot's process mostly waits
# the replay viewer's pictures (``cogs.replays``): one worker of their own, started on the first replay, so a
# replay step never waits behind the live boards queued for RENDER, nor a live board behind a replay
REPLAY = WorkerPool("replay", lambda: 1, _warm)


def shutdown() -> None:
    """Stop the render workers (a later image starts a new pool)."""
    RENDER.shutdown()
    REPLAY.shutdown()
    _Boards.drawing, _Boards.idle = 0, None  # the next event loop makes its own


def _draw(name: str, *args: Any) -> bytes:
    """In the worker: call ``render.<name>``."""
    fn = getattr(importlib.import_module("render"), name)
    data = fn(*args)
    return bytes(data)


async def _call(name: str, *args: Any, pool: WorkerPool = RENDER) -> bytes | None:
    if not available():
        return None
    try:
        return await pool.run(_draw, name, *args)
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


async def replay_png(name: str, *args: Any) -> bytes | None:
    """A replay step's picture: ``render.<name>`` (``render_board``, ``render_final``) with the arguments the
    live message used, drawn in the replay worker."""
    return await _call(name, *args, pool=REPLAY)


async def review_png(data: dict[str, Any], lang: str) -> bytes | None:
    """A game's review (``render.review``): each seat's chance to win over the game, its accuracy and mistakes."""
    return await _call("render_review", data, lang)


async def standings_png(data: dict[str, Any], lang: str) -> bytes | None:
    """A tournament's standings (``render.standings``): the table, and a podium when it is over."""
    return await _call("render_standings", data, lang)


async def card_png(card_id: str, edition: int, lang: str) -> bytes | None:
    return await _call("render_card", card_id, edition, lang)
