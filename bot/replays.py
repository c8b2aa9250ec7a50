"""Replays of finished games: the game's states rebuilt from its record (ruleset, seed, the stored actions'
notation: ``rules.record``), and the pictures of its steps, both kept in small LRU caches in memory.

Step 0 is the game as it started, step ``k`` the game after its ``k``-th stored action; a take-back
(``bot.takeback``) is a step of its own, back to the state before the actions it took back, which stay
steps too (their rows are kept, marked). Rebuilding a whole
game takes 10-50 ms (``rules.record.replay``'s work plus one JSON copy per step), in a thread so that the
event loop goes on; the pictures are drawn by the replay worker (``bot.images.replay_png``), once per step while they
stay in the cache. Nothing here knows Discord; ``cogs.replays`` builds the viewer from it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules import GameRecord, GameState, apply, parse_for

from .store import TAKEBACK, ActionRow

log = logging.getLogger(__name__)

GAMES = 16  # rebuilt games kept (a few hundred KB each: a state's JSON is about 2 KB)
IMAGE_BYTES = 64 * 1024 * 1024  # pictures kept, in bytes (a board is about 100-300 KB)

V = TypeVar("V")


@dataclass(slots=True)
class ReplayGame:
    """A finished game rebuilt: every step's state (JSON), the stored action rows, and where phases and
    rounds begin."""

    game_id: int
    states: list[dict[str, Any]]  # step -> GameState JSON (step 0: the start)
    rows: list[ActionRow]  # action k-1 led to step k

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def state(self, step: int) -> GameState:
        return GameState.from_json(self.states[step])

    def _key(self, step: int, *, phase: bool) -> tuple[int, ...]:
        s = self.states[step]
        return (int(s["round"]), int(s["phase"])) if phase else (int(s["round"]),)

    def starts(self, *, phase: bool) -> list[int]:
        """The steps at which a phase (or a round) begins: step 0 and every step whose phase (round) differs
        from the step before."""
        return [k for k in range(len(self.states))
                if k == 0 or self._key(k, phase=phase) != self._key(k - 1, phase=phase)]

    def back(self, step: int, *, phase: bool) -> int:
        """One phase (round) back: the beginning of this one, or of the one before when at its beginning."""
        return max((k for k in self.starts(phase=phase) if k < step), default=0)

    def forward(self, step: int, *, phase: bool) -> int:
        """One phase (round) on: the beginning of the next one, else the end."""
        return min((k for k in self.starts(phase=phase) if k > step), default=self.last)


def rebuild(game_id: int, record: GameRecord, rows: list[ActionRow]) -> ReplayGame:
    """Every step's state of the game from its record's start and its stored rows, taken-back actions and
    take-backs included (raises ``rules.ReplayError`` at an illegal action)."""
    st = record.start()
    states = [st.to_json()]
    for i, row in enumerate(rows):
        if row.auto == TAKEBACK:  # back to the state before the first action it took back
            states.append(states[int(row.events[0]["from"])])
            st = GameState.from_json(states[-1])
            continue
        try:
            apply(st, parse_for(st, row.notation))
        except Exception:
            log.error("game %s: action %d %r of the stored log does not apply", game_id, i, row.notation)
            raise
        states.append(st.to_json())
    return ReplayGame(game_id, states, rows)


class Lru(Generic[V]):
    """At most ``limit`` in total (each value weighs ``weight(value)``), least recently used out first; a value
    being made is made once however many ask for it at the same time."""

    def __init__(self, limit: int, weight: Callable[[V], int] = lambda v: 1) -> None:
        self.limit, self.weight = limit, weight
        self._values: OrderedDict[Hashable, V] = OrderedDict()
        self._total = 0
        self._making: dict[Hashable, asyncio.Future[V]] = {}

    def __contains__(self, key: Hashable) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)

    async def get(self, key: Hashable, make: Callable[[], Awaitable[V]], *, keep: Callable[[V], bool] = bool) -> V:
        """The value of ``key``, made by ``make`` when it is not kept; only values ``keep`` accepts are kept
        (a picture that failed to draw is drawn again next time)."""
        if key in self._values:
            self._values.move_to_end(key)
            return self._values[key]
        fut = self._making.get(key)
        if fut is None:
            fut = asyncio.ensure_future(make())
            self._making[key] = fut
            fut.add_done_callback(lambda f: self._made(key, f, keep))
        return await asyncio.shield(fut)

    def _made(self, key: Hashable, fut: asyncio.Future[V], keep: Callable[[V], bool]) -> None:
        self._making.pop(key, None)
        if fut.cancelled() or fut.exception() is not None:
            return
        value = fut.result()
        if not keep(value):
            return
        self._values[key] = value
        self._total += self.weight(value)
        while self._total > self.limit and len(self._values) > 1:
            _, old = self._values.popitem(last=False)
            self._total -= self.weight(old)


class Replays:
    """The caches of one bot: rebuilt games, and the pictures of their steps keyed by (game, step, language,
    kind)."""

    def __init__(self, games: int = GAMES, image_bytes: int = IMAGE_BYTES) -> None:
        self.games: Lru[ReplayGame] = Lru(games)
        self.images: Lru[bytes | None] = Lru(image_bytes, lambda png: len(png or b""))
        self._ahead: set[asyncio.Task[Any]] = set()

    async def game(self, game_id: int, load: Callable[[], Awaitable[tuple[GameRecord, list[ActionRow]]]]
                   ) -> ReplayGame:
        async def make() -> ReplayGame:
            record, rows = await load()
            return await asyncio.to_thread(rebuild, game_id, record, rows)  # 10-50 ms a game: off the loop

        return await self.games.get(game_id, make, keep=lambda g: True)

    async def image(self, key: tuple[Any, ...], draw: Callable[[], Awaitable[bytes | None]]) -> bytes | None:
        return await self.images.get(key, draw, keep=lambda png: png is not None)

    def ahead(self, key: tuple[Any, ...], draw: Callable[[], Awaitable[bytes | None]]) -> None:
        """Draw ``key`` in the background (the next step, so that stepping on finds it ready)."""
        if key in self.images:
            return

        async def later() -> None:
            try:
                await self.image(key, draw)
            except Exception:
                log.exception("drawing replay step %s ahead failed", key)

        task = asyncio.ensure_future(later())
        self._ahead.add(task)
        task.add_done_callback(self._ahead.discard)

    def stop(self) -> None:
        """The bot closes: no more drawing ahead."""
        for task in self._ahead:
            task.cancel()
