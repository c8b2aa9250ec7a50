"""A tournament's round advanced by two processes at once on PostgreSQL: the bot (the process of the server's
shard) and another process on the same database race to record the last results and start round 2; the round
starts once, and each of its tables gets one thread and one game."""

from __future__ import annotations

import asyncio
import random

import pytest
import simcord

from bot.client import PetersburgBot
from bot.config import Config
from bot.store import Store
from bot.timers import Timing
from bot.tournaments import TournamentService

from .helpers import bot_of
from .test_tournament_discord import POLL, play_round, signed_up, threads_named, tournament


@pytest.fixture
def simcord_bot(pg_url: str) -> PetersburgBot:
    return PetersburgBot(Config(token="x", database_url=pg_url, render_images=False), sync_commands=True)


async def test_two_processes_advance_a_round_once(env: simcord.Env, pg_url: str) -> None:
    store = bot_of(env).store
    assert store is not None and store.dialect == "postgresql"
    channel, boss, _ = await signed_up(env, 8, size=4, rounds=2, timeout="1m", reminder="off")
    await boss.slash(channel, "petersburg tournament start")
    await env.advance_time(3)
    await play_round(env, channel, random.Random(5))
    tr = await tournament(env, channel)
    other = await Store.open(pg_url)  # the other process
    rival = TournamentService(other, Timing(60, 240, 0))

    async def race() -> None:
        for table, status in await other.tables_ended():
            await rival.record(table, status)
        if await other.finish_round(tr.id, 1):
            mine = await other.get_tournament(tr.id)
            assert mine is not None
            await rival.advance(mine)

    await asyncio.gather(env.advance_time(POLL), race())
    await env.advance_time(POLL)
    await env.advance_time(5)
    await other.close()
    rounds = await store.rounds(tr.id)
    assert [r.round for r in rounds] == [1, 2] and rounds[0].done
    tables = await store.tournament_tables(tr.id, 2)
    assert len(tables) == 2 and all(x.game_id is not None and x.thread_id is not None for x in tables)
    assert len(threads_named(channel, "Cup · R2")) == 2
    assert await store.fetch_all("SELECT COUNT(*) FROM games") == [(4,)]
    assert len([m for m in channel.history() if "round 2 (" in m.content]) == 1  # announced once
