"""Several processes on one database, each with its own store connection and service (``db_url``: SQLite
and PostgreSQL): an action applies once, a reminder goes out once, a time-out fires once; the board claim;
sharding."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.client import PetersburgBot, ShardedPetersburgBot, make_bot
from bot.config import Config
from bot.service import GameService, Outcome, UserError
from bot.store import Store, TimerRow, shard_clause
from bot.timers import AUTOPASS, REMIND, Timing
from rules import GameState, legal_moves

PROCESSES = 5
NOW = 1_000_000.0


async def _stores(db_url: str, n: int, clock: Callable[[], float] = lambda: NOW) -> list[Store]:
    return [await Store.open(db_url, clock=clock) for _ in range(n)]


async def _started(svc: GameService, channel: int = 100, guild: int = 1) -> int:
    game = await svc.create(guild_id=guild, channel_id=channel, user_id=10, name="Ann", seed=11)
    await svc.join(channel, 11, "Bob")
    await svc.start(channel, 10)
    return game.id


async def _due(db_url: str, timing: Timing, later: float
               ) -> tuple[list[Store], list[GameService], int, list[list[TimerRow]]]:
    """A game started in one of PROCESSES processes, each with a service of ``timing``; ``later`` seconds on,
    the timers each process finds due."""
    stores = await _stores(db_url, PROCESSES)
    services = [GameService(s, timing=timing) for s in stores]
    gid = await _started(services[0])
    for s in stores:
        s.clock = lambda: NOW + later
    return stores, services, gid, await asyncio.gather(*(svc.due_timers() for svc in services))


def _hold_first_commit(store: Store, barrier: asyncio.Barrier) -> None:
    """The store's first ``record_action`` waits until every racer has got that far (so all of them read the
    same version and chose their action before any commits)."""
    original = store.record_action
    waited = False

    async def record_action(*args: Any, **kwargs: Any) -> int:
        nonlocal waited
        if not waited:
            waited = True
            await barrier.wait()
        return await original(*args, **kwargs)

    store.record_action = record_action  # type: ignore[method-assign]


async def _race(calls: list[Awaitable[Any]]) -> list[Any]:
    """Run the calls at once; their results or exceptions."""
    return await asyncio.gather(*calls, return_exceptions=True)


async def test_two_services_racing_apply_one_action(db_url: str) -> None:
    """Two processes take two different clicks of the same player on the same board: one applies, the other
    player is told the board is stale; round after round."""
    stores = await _stores(db_url, 2)
    services = [GameService(s) for s in stores]
    gid = await _started(services[0])
    for _ in range(6):
        game = await services[0].game(gid)
        st = GameState.from_json(game.state or {})
        uid = game.user_at(st.decider)
        assert uid is not None
        moves = [m.action for m in legal_moves(st)]
        moves = moves[:2] if len(moves) >= 2 else moves * 2  # two clicks (the same one twice if it is the only)
        before = len(await stores[0].actions(gid))
        barrier = asyncio.Barrier(2)
        for s in stores:
            _hold_first_commit(s, barrier)
        results = await _race([svc.act(gid, uid, m, version=game.version)
                               for svc, m in zip(services, moves, strict=True)])
        for s in stores:
            del s.record_action
        won = [r for r in results if isinstance(r, Outcome)]
        lost = [r for r in results if isinstance(r, UserError)]
        assert len(won) == 1 and len(lost) == 1, results
        assert lost[0].code == "stale_board"
        rows = (await stores[1].actions(gid))[before:]
        assert rows[0].auto is None and all(r.auto for r in rows[1:])  # one player's action, forced passes
        assert rows[0].notation == won[0].notation
        after = await services[1].game(gid)
        assert after.version == won[0].game.version
    for s in stores:
        await s.close()


async def test_five_pollers_send_a_reminder_once(db_url: str) -> None:
    # the reminder (after 1 minute) is due for everybody
    stores, services, gid, seen = await _due(db_url, Timing(reminder=1, interval=60, autopass=0), 120)
    assert all([t.kind for t in timers] == [REMIND] for timers in seen)
    game = await services[0].game(gid)
    claims = await asyncio.gather(*(svc.claim_reminder(timers[0], game)
                                    for svc, timers in zip(services, seen, strict=True)))
    assert sorted(claims) == [False] * (PROCESSES - 1) + [True]
    [timer] = await stores[0].timers(gid)
    assert timer.sent == 1 and timer.due_at == NOW + 120 + 3600  # again after the interval, not before
    assert await asyncio.gather(*(svc.due_timers() for svc in services)) == [[]] * PROCESSES
    for s in stores:
        await s.close()


async def test_five_pollers_time_out_once(db_url: str) -> None:
    stores, services, gid, seen = await _due(db_url, Timing(reminder=0, interval=0, autopass=10), 601)
    assert all([t.kind for t in timers] == [AUTOPASS] for timers in seen)
    barrier = asyncio.Barrier(PROCESSES)
    for s in stores:
        _hold_first_commit(s, barrier)
    results = await _race([svc.timeout(timers[0]) for svc, timers in zip(services, seen, strict=True)])
    assert not [r for r in results if isinstance(r, BaseException)], results
    outs = [r for r in results if isinstance(r, Outcome)]
    assert len(outs) == 1 and results.count(None) == PROCESSES - 1
    rows = await stores[0].actions(gid)
    assert [r.auto for r in rows][:1] == ["timeout"] and [r.auto for r in rows].count("timeout") == 1
    for s in stores:
        await s.close()


async def test_board_claim_is_held_by_one_process(db_url: str) -> None:
    now = [NOW]
    stores = await _stores(db_url, 3, clock=lambda: now[0])
    gid = await _started(GameService(stores[0]))
    claims = await asyncio.gather(*(s.claim_board(gid, f"p{i}", 60) for i, s in enumerate(stores)))
    assert sorted(claims) == [False, False, True]
    owner = f"p{claims.index(True)}"
    other = "p9"
    assert await stores[0].claim_board(gid, owner, 60)  # the holder may renew it
    assert not await stores[1].claim_board(gid, other, 60)
    now[0] += 61  # a dead holder's claim lapses
    assert await stores[1].claim_board(gid, other, 60)
    await stores[1].release_board(gid, other)
    assert await stores[2].claim_board(gid, owner, 60)
    for s in stores:
        await s.close()


# --- sharding ------------------------------------------------------------------------------------
def _guild_on(shard: int, count: int, k: int = 0) -> int:
    """A guild id (snowflake) that Discord puts on ``shard`` of ``count``."""
    return ((1_000_000 + k * count + shard) << 22) | 12345


async def test_pollers_see_only_their_shards_games(db_url: str) -> None:
    [store] = await _stores(db_url, 1)
    svc = GameService(store, timing=Timing(reminder=1, interval=0, autopass=0))
    games = {shard: await _started(svc, channel=200 + shard, guild=_guild_on(shard, 4)) for shard in range(4)}
    store.clock = lambda: NOW + 120
    for mine in ([0], [1, 3], [0, 1, 2, 3]):
        shards = (mine, 4)
        due = await store.due_timers(store.clock(), shards=shards)
        assert sorted(t.game_id for t in due) == sorted(games[s] for s in mine)
        assert await store.next_due(shards=shards) == NOW + 60
        shown = await store.games_to_show(shards=shards)  # nothing posted yet: every game is behind
        assert sorted(shown) == sorted(games[s] for s in mine)
    assert await store.next_due(shards=([0], 2)) is not None  # shards 0 and 2 of 4 are shard 0 of 2
    assert shard_clause("g.guild_id", None) == ("", [])
    await store.close()


def test_sharding_settings() -> None:
    c = Config.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0,2-3"})
    assert (c.sharded, c.shard_count, c.shard_ids) == (True, 4, (0, 2, 3))
    assert Config.from_env({"SHARD_COUNT": "auto"}).sharded
    assert not Config.from_env({}).sharded
    for bad in ({"SHARD_IDS": "1"}, {"SHARD_COUNT": "2", "SHARD_IDS": "2"}, {"SHARD_COUNT": "x"},
                {"SHARD_COUNT": "2", "SHARD_IDS": "a"}, {"DATABASE_URL": "mysql://x"}):
        with pytest.raises(ValueError):
            Config.from_env(bad)
    url = Config.from_env({"DATABASE_URL": "postgresql://bot:secret@db/petersburg"})
    assert url.database == "postgresql://bot:secret@db/petersburg" and "secret" not in repr(url)


async def test_bot_class_follows_the_sharding_settings() -> None:
    plain = make_bot(Config(token="x"))
    assert type(plain) is PetersburgBot and plain.shard_filter() is None
    sharded = make_bot(Config(token="x", sharded=True, shard_count=4, shard_ids=(1, 3)))
    assert isinstance(sharded, ShardedPetersburgBot) and sharded.shard_filter() == ((1, 3), 4)
    everything = make_bot(Config(token="x", sharded=True, shard_count=2))
    assert everything.shard_filter() is None
    await plain.close()

