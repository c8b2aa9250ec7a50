"""The one place that turns views into pictures: ``render`` when it is importable, else nothing
(the caller then shows the text board). Rendering runs in a worker thread (``asyncio.to_thread``)."""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Callable
from typing import Any

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


def _fn(name: str) -> Callable[..., bytes] | None:
    mod = _module()
    fn = getattr(mod, name, None) if mod is not None else None
    return fn if callable(fn) else None


def available() -> bool:
    """Whether board pictures can be drawn."""
    return _fn("render_board") is not None


async def _call(name: str, *args: Any) -> bytes | None:
    fn = _fn(name)
    if fn is None:
        return None
    try:
        data = await asyncio.to_thread(fn, *args)
    except Exception:
        log.exception("render.%s failed; showing text instead", name)
        return None
    return data if isinstance(data, bytes | bytearray) else None


async def board_png(view: dict[str, Any], lang: str, last_action: str | None) -> bytes | None:
    """PNG of the board, or None (no renderer, or it failed)."""
    return await _call("render_board", view, lang, last_action)


async def hand_png(view: dict[str, Any], lang: str) -> bytes | None:
    return await _call("render_hand", view, lang)


async def final_png(view: dict[str, Any], lang: str) -> bytes | None:
    return await _call("render_final", view, lang)


async def card_png(card_id: str, edition: int, lang: str) -> bytes | None:
    return await _call("render_card", card_id, edition, lang)
