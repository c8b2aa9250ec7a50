"""One board poster at a time per game when several processes share the database.

Each process has its own poster with its own in-memory lock per game; across processes the poster also
claims the game in the database (``Store.claim_board``: an owner and a lease time in the game's row) for
an attempt, so two processes never post the same board, notice or turn message twice. A claim held by a
process that died lapses after ``LEASE`` seconds. On SQLite (one process) nothing is claimed.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

LEASE = 120.0  # seconds a claim holds (an attempt takes far less; a dead process's claim lapses)
WAIT_FIRST, WAIT_MAX = 0.05, 1.0  # seconds between looks while another process holds the claim


def new_owner() -> str:
    """A name for this poster's claims, unique across processes."""
    return uuid.uuid4().hex


@asynccontextmanager
async def claimed(store: Any, game_id: int, owner: str) -> AsyncIterator[None]:
    """Hold the game's board claim for the block (waiting while another process holds it)."""
    if not store.shared:
        yield
        return
    delay = WAIT_FIRST
    while not await store.claim_board(game_id, owner, LEASE):
        await asyncio.sleep(delay)
        delay = min(delay * 2, WAIT_MAX)
    try:
        yield
    finally:
        await store.release_board(game_id, owner)
