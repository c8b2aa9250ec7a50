"""Reviews of finished games by the strong player (``players.review``), run in the background of the bot.

A review is started by the first press of 📈 Review (``cogs.reviews``). The bot claims the game's review in
the database (``Store.claim_review``: at most one review of a game at a time, across processes), asks the
review worker (``bot.reviewing.REVIEW``: its own pool at a lower priority, so live computer moves and hints never
wait behind it) which decisions it judges, then judges them one by one, storing each as it comes (renewing
the claim) and finally the game's summary. A review interrupted by a restart is resumed at the next start
(``resume``) or press, from the decisions already stored: none is judged twice. Nothing here knows Discord.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from rules import GameRecord

from . import reviewing
from .store import DatabaseLost, Store
from .workers import WorkerPool

log = logging.getLogger(__name__)

LEASE = 120.0  # seconds a review's claim holds without a decision stored (one takes far less)
SEED = 0  # every review's seed: the same game gets the same review on every machine

LoadRecord = Callable[[], Awaitable[GameRecord]]


@dataclass(frozen=True, slots=True)
class Progress:
    done: int
    total: int | None  # None until the decisions to judge are known


class Reviewer:
    """The bot's reviews in progress (in this process), each a task."""

    def __init__(self, store: Store, iterations: int, pool: WorkerPool = reviewing.REVIEW) -> None:
        self.store, self.iterations, self.pool = store, iterations, pool
        self.owner = uuid.uuid4().hex  # this process's claims
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._progress: dict[int, Progress] = {}

    def running(self, game_id: int) -> bool:
        task = self._tasks.get(game_id)
        return task is not None and not task.done()

    def progress(self, game_id: int) -> Progress | None:
        """How far this process's review of the game is (None: not reviewing it here)."""
        return self._progress.get(game_id) if self.running(game_id) else None

    async def start(self, game_id: int, load: LoadRecord, requested_by: int | None) -> bool:
        """Review the game here (or go on with its review) unless it runs already, here or in another process
        that holds its claim; True when it runs here now. A finished review is never started again."""
        if self.running(game_id):
            return True
        claimed = await self.store.claim_review(game_id, self.owner, LEASE, requested_by=requested_by,
                                                iterations=self.iterations, seed=SEED,
                                                take_over=not self.store.shared)  # SQLite: one process, none other
        if not claimed:
            return False
        self._progress[game_id] = Progress(0, None)
        self._tasks[game_id] = asyncio.create_task(self._run(game_id, load), name=f"review-{game_id}")
        return True

    async def wait(self, game_id: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for this process's review of the game; whether it has ended."""
        task = self._tasks.get(game_id)
        if task is None or task.done():
            return True
        done, _ = await asyncio.wait({task}, timeout=timeout)
        return bool(done)

    async def resume(self, load_for: Callable[[int], LoadRecord]) -> list[int]:
        """At startup: go on with every review left running (those whose claim another process holds are
        left to it); the games resumed here."""
        resumed = []
        for game_id in await self.store.running_reviews():
            row = await self.store.review(game_id)
            if row is not None and await self.start(game_id, load_for(game_id), row.requested_by):
                resumed.append(game_id)
        return resumed

    async def stop(self) -> None:
        """The bot stops: the reviews end here and their claims are given up (the next start resumes them)."""
        tasks = [t for t in self._tasks.values() if not t.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, game_id: int, load: LoadRecord) -> None:
        store = self.store
        try:
            row = await store.review(game_id)
            assert row is not None
            record = (await load()).to_json()
            todo = await self.pool.run(reviewing.plan, record)
            if not await store.set_review_total(game_id, self.owner, len(todo)):
                return
            parts = await store.review_parts(game_id)
            wanted = set(todo)
            self._progress[game_id] = Progress(sum(i in wanted for i in parts), len(todo))
            for idx in todo:
                if idx in parts:
                    continue
                found = await self.pool.run(reviewing.judge, record, idx, row.iterations, row.seed)
                if not await store.add_review_part(game_id, self.owner, idx, found, LEASE):
                    log.info("review of game %s: the claim was lost; another process goes on", game_id)
                    return
                parts[idx] = found
                self._progress[game_id] = Progress(self._progress[game_id].done + 1, len(todo))
            result = await self.pool.run(reviewing.summarize, record, [parts[i] for i in todo], row.iterations,
                                         row.seed)
            await store.finish_review(game_id, self.owner, result)
            log.info("review of game %s done: %d decisions", game_id, len(todo))
        except asyncio.CancelledError:
            await self._release(game_id)
            raise
        except DatabaseLost:
            return
        except Exception:
            log.exception("review of game %s failed; a later press starts it again", game_id)
            await self._release(game_id)
        finally:
            self._progress.pop(game_id, None)

    async def _release(self, game_id: int) -> None:
        try:
            await self.store.release_review(game_id, self.owner)
        except Exception:
            log.warning("could not give up the review claim of game %s", game_id)
