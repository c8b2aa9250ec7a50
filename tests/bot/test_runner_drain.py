"""The per-game background tasks (the board poster's, the computer players') end when the bot closes, before
its store is closed: a board post still running at a SIGTERM used the closing PostgreSQL pool ("pool is
closing") and logged a traceback."""

from __future__ import annotations

import asyncio
from typing import Any

import simcord

from cogs.runner import PerGame

from .helpers import bot_of, game_in, new_table


class Slow(PerGame):
    def __init__(self) -> None:
        super().__init__()
        self.started: set[int] = set()
        self.cleaned: set[int] = set()
        self.finished: set[int] = set()

    async def run(self, game_id: int) -> None:
        self.started.add(game_id)
        try:
            await asyncio.sleep(3600)  # a Discord call that does not come back before the bot closes
            self.finished.add(game_id)
        finally:
            self.cleaned.add(game_id)  # what a claim's release does: it must run while the store is open


async def test_drain_ends_every_running_task_and_waits_for_its_cleanup() -> None:
    runner = Slow()
    for game_id in (1, 2, 3):
        runner.kick(game_id)
    runner.kick(2)  # a kick while it runs: one more round wanted
    await asyncio.sleep(0)
    assert runner.started == {1, 2, 3}
    await runner.drain()
    assert runner.cleaned == {1, 2, 3} and not runner.finished
    assert not runner.again(2)  # nothing goes round again after the close
    runner.kick(4)  # a later start begins anew
    await asyncio.sleep(0)
    assert runner.started == {1, 2, 3, 4}
    await runner.drain()


async def test_a_board_post_running_at_the_close_ends_before_the_store_closes(env: simcord.Env) -> None:
    """A board post hangs on Discord when the bot closes: ``Bot.close`` unloads the cog, which ends the post
    (its clean-up, e.g. releasing the channel's claim, still reaches the store) before the store is closed."""
    channel, _ = await new_table(env)
    bot = bot_of(env)
    cog: Any = bot.get_cog("Petersburg")  # the extension's own module object: not an isinstance of ours
    assert cog is not None
    game = await game_in(env, channel)
    seen: list[bool] = []

    async def hung(game_id: int, *, repost: bool) -> None:
        try:
            await asyncio.sleep(3600)
        finally:  # the store is still open for the clean-up
            assert bot.store is not None
            seen.append((await bot.store.get_game(game_id)) is not None)

    cog.poster._attempt = hung
    cog.poster.kick(game.id)
    await asyncio.sleep(0)
    store = bot.store
    await bot.close()
    assert seen == [True]
    assert store is not None
