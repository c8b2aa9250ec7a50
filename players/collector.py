"""Python's cyclic garbage collector paused while a search runs (``PausedCollector``)."""

from __future__ import annotations

import gc


class PausedCollector:
    """``with PausedCollector():`` pauses the cyclic garbage collector for the block, and turns it on again
    after it if it was on. A search's playouts make and drop hundreds of thousands of objects, none of them
    in a reference cycle (``tests/rules/test_ai_search.py`` holds the searches to that), so reference
    counting frees each at once; the collector's passes over them and over the catalogue's shared move
    tables only cost time (about 4 % of a search's). Searches in other threads may overlap: the one that
    found the collector on turns it on again when it ends."""

    __slots__ = ("was_on",)

    def __init__(self) -> None:
        self.was_on = False

    def __enter__(self) -> None:
        self.was_on = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was_on:
            gc.enable()
