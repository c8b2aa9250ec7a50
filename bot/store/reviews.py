"""The store's reviews of finished games (``bot.reviews``): the claim that lets one process at a time review a
game, each judged decision as it comes, and the finished review.

A claim is an owner (a name unique to one reviewing process: ``cogs.board_claim.new_owner``) and a lease time
in the game's ``reviews`` row, renewed with every decision stored; a process that died loses its claim when
the lease lapses, and another process (or the same bot after a restart) takes the review over and goes on
from the decisions already stored. A part is stored once (its primary key): a decision judged twice by two
owners racing at a lapse is kept once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..schema import dumps
from .core import StoreBase

RUNNING, DONE = "running", "done"


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """A game's review as stored: ``done`` counts the decisions judged so far (``total``: how many it judges,
    once known); ``result`` is the finished ``GameReview`` JSON."""

    game_id: int
    state: str
    requested_by: int | None
    owner: str | None
    lease: float | None
    iterations: int
    seed: int
    total: int | None
    done: int
    result: dict[str, Any] | None
    started_at: float
    finished_at: float | None

    @property
    def finished(self) -> bool:
        return self.state == DONE


class StoreReviews(StoreBase):
    """Reviews; see the module docstring."""

    async def review(self, game_id: int) -> ReviewRow | None:
        """The game's review, if one was ever started."""
        row = await self._one(
            "SELECT game_id, state, requested_by, owner, lease, iterations, seed, total, "
            "(SELECT COUNT(*) FROM review_parts p WHERE p.game_id = reviews.game_id), result, started_at, "
            "finished_at FROM reviews WHERE game_id = ?", (game_id,))
        if row is None:
            return None
        return ReviewRow(int(row[0]), str(row[1]), row[2], row[3], row[4], int(row[5]), int(row[6]),
                         None if row[7] is None else int(row[7]), int(row[8]),
                         json.loads(row[9]) if row[9] is not None else None, float(row[10]), row[11])

    async def claim_review(self, game_id: int, owner: str, seconds: float, *, requested_by: int | None,
                           iterations: int, seed: int, take_over: bool = False) -> bool:
        """Start the game's review, or take over a running one whose claim has lapsed (``take_over``: whoever
        holds it; a bot on SQLite after a restart, where no other process can); True when ``owner`` holds the
        claim now. A finished review is never claimed again; a review taken over keeps its budget and seed."""
        now = self.clock()
        count = await self.write(
            "INSERT INTO reviews (game_id, state, requested_by, owner, lease, iterations, seed, started_at) "
            "VALUES (?, 'running', ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, "
            "lease = excluded.lease WHERE reviews.state = 'running' AND (reviews.owner IS NULL OR "
            "reviews.owner = excluded.owner OR reviews.lease < ? OR ? = 1)",
            (game_id, requested_by, owner, now + seconds, iterations, seed, now, now, int(take_over)))
        return count == 1

    async def set_review_total(self, game_id: int, owner: str, total: int) -> bool:
        """How many decisions the review judges; False when ``owner`` no longer holds the claim."""
        return await self.write("UPDATE reviews SET total = ? WHERE game_id = ? AND owner = ? AND state = 'running'",
                                (total, game_id, owner)) == 1

    async def add_review_part(self, game_id: int, owner: str, idx: int, data: dict[str, Any],
                              seconds: float) -> bool:
        """Store one judged decision and renew the claim for ``seconds``; False (nothing stored) when ``owner``
        no longer holds it."""
        async with self.transaction() as tx:
            held = await tx.execute("UPDATE reviews SET lease = ? WHERE game_id = ? AND owner = ? AND state = "
                                    "'running'", (self.clock() + seconds, game_id, owner))
            if held != 1:
                return False
            await tx.execute("INSERT INTO review_parts (game_id, idx, data) VALUES (?, ?, ?) "
                             "ON CONFLICT (game_id, idx) DO NOTHING", (game_id, idx, dumps(data)))
        return True

    async def review_parts(self, game_id: int) -> dict[int, dict[str, Any]]:
        """The decisions judged so far, by their action's index."""
        rows = await self.fetch_all("SELECT idx, data FROM review_parts WHERE game_id = ? ORDER BY idx", (game_id,))
        return {int(r[0]): json.loads(r[1]) for r in rows}

    async def finish_review(self, game_id: int, owner: str, result: dict[str, Any]) -> bool:
        """Store the finished review and end the claim; False when ``owner`` no longer held it."""
        async with self.transaction() as tx:
            return await tx.execute(
                "UPDATE reviews SET state = 'done', result = ?, owner = NULL, lease = NULL, finished_at = ? "
                "WHERE game_id = ? AND owner = ? AND state = 'running'",
                (dumps(result), self.clock(), game_id, owner)) == 1

    async def release_review(self, game_id: int, owner: str) -> None:
        """Give the claim up (the bot stops): the next claim takes the review over at once."""
        await self.write("UPDATE reviews SET owner = NULL, lease = NULL WHERE game_id = ? AND owner = ?",
                         (game_id, owner))

    async def running_reviews(self) -> list[int]:
        """The games whose review is not finished (to resume at startup)."""
        return [int(r[0]) for r in await self.fetch_all(
            "SELECT game_id FROM reviews WHERE state = 'running' ORDER BY started_at")]

    async def review_owner(self, game_id: int) -> str | None:
        row = await self._one("SELECT owner FROM reviews WHERE game_id = ?", (game_id,))
        return None if row is None else row[0]

