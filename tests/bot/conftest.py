"""Fixtures for the bot tests: a real bot on a SQLite file in tmp_path, inside SimCord."""

from __future__ import annotations

import inspect
import os
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import simcord

import bot.lobby
from bot.client import PetersburgBot
from bot.config import Config

from .databases import postgres_database

# SimCord's settling (after every slash command, click and DM) waits up to ``idle`` seconds at a time for a
# bot task to finish. When the only work left is a finished task's done-callback (discord.py leaves one after
# every DynamicItem click) and the bot's other tasks sleep on timers, that wait runs its whole length: 50 ms by
# default, most of the bot tests' wall time. The public ``Env.settle`` takes ``idle``; the actors' settling
# uses the default, so the suite sets it here. Nothing else changes: settling still waits for all the work.
SETTLE_IDLE = 0.005
_settle = simcord.Env._settle_internal
assert "idle" in inspect.signature(_settle).parameters, "SimCord's settling changed: see SETTLE_IDLE"


async def _settle_briskly(self: simcord.Env, *, idle: float = SETTLE_IDLE, **kwargs: Any) -> None:
    await _settle(self, idle=min(idle, SETTLE_IDLE), **kwargs)


simcord.Env._settle_internal = _settle_briskly  # type: ignore[method-assign]


def make_bot(db: Path, *, sync: bool = True, **config: Any) -> PetersburgBot:
    """A bot like production's, on the given database file, without board pictures (faster); computer
    players move without a pause and the strong one thinks briefly (``config`` overrides)."""
    settings: dict[str, Any] = {"render_images": False, "computer_pause": 0.0, "computer_seconds": 0.05,
                                "hint_seconds": 0.05, **config}
    return PetersburgBot(Config(token="x", database_path=str(db), **settings), sync_commands=sync)


class GameSeeds(random.Random):
    """New games' and tournaments' seeds for one test: drawn from the test's name, so that a test failing on a
    deal fails again on the next run (``PB_SEED_SALT`` in the environment draws other deals), or queued by
    the test where it needs a deal of a kind (``queue``)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{os.environ.get('PB_SEED_SALT', '')}:{name}")
        self.queued: list[int] = []

    def queue(self, seed: int) -> None:
        """The next game (or tournament) created gets ``seed``."""
        self.queued.append(seed)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        return self.queued.pop(0) if self.queued else super().randrange(start, stop, step)


@pytest.fixture(autouse=True)
def game_seeds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> GameSeeds:
    """Every game the bot creates in this test deals from ``GameSeeds`` (the bot draws them from the
    system's entropy)."""
    seeds = GameSeeds(request.node.nodeid)
    monkeypatch.setattr(bot.lobby, "SEEDS", seeds)
    return seeds


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def simcord_bot(db_path: Path) -> PetersburgBot:
    return make_bot(db_path)


@pytest.fixture
async def env(simcord_env: simcord.Env) -> AsyncIterator[simcord.Env]:
    """The running SimCord environment with the bot; fails the test if the bot recorded a bug."""
    yield simcord_env
    current = simcord_env.bot
    assert isinstance(current, PetersburgBot)
    if current.store is not None:
        await current.store.close()
    assert current.bugs == [], f"the bot hit unexpected errors: {current.bugs!r}"


@pytest.fixture(params=["sqlite", "postgresql"])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """Where a store test's database lives: a SQLite file, or a fresh database on the PostgreSQL server
    (skipped without one, failing under CI: see ``tests.bot.databases``)."""
    if request.param == "sqlite":
        yield str(tmp_path / "g.sqlite3")
        return
    async with postgres_database() as url:
        yield url


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """A fresh PostgreSQL database for one test (skipped, or failed under CI, without a server)."""
    async with postgres_database() as url:
        yield url
