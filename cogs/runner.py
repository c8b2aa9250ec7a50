"""One background task per game, for work that must happen after a commit but not in the interaction's
way (showing the board, a computer player's turn): a kick while the task runs makes it go round once more,
so bursts of commits coalesce into one more round."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod


class PerGame(ABC):
    """``kick(game_id)`` runs ``run(game_id)`` in the background, one at a time per game."""

    def __init__(self) -> None:
        self._runners: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()

    def kick(self, game_id: int) -> None:
        runner = self._runners.get(game_id)
        if runner is not None and not runner.done():
            self._again.add(game_id)
            return
        self._runners[game_id] = asyncio.create_task(self.run(game_id))

    def again(self, game_id: int) -> bool:
        """Whether a kick came while the task ran (it is taken back: the task goes round once more)."""
        if game_id in self._again:
            self._again.discard(game_id)
            return True
        return False

    async def drain(self) -> None:
        """The bot closes: the running tasks end here, before the store they use is closed (a task cut off
        mid-post is done again at the next start: what must be posted is stored with the commit)."""
        self._again.clear()
        running = [task for task in self._runners.values() if not task.done()]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        self._runners.clear()

    @abstractmethod
    async def run(self, game_id: int) -> None:
        """The work, until done; it calls ``again`` to see whether to go round once more."""
