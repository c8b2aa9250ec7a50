"""Board claims of the bot's processes on one database (``cogs.board_claim``, ``bot.store.claims``): a claim
of a process that has ended is taken at once (same machine: its pid and start time) or once its heartbeat is
stale (another machine); a claim of a live process is never taken, however old its lease; a process beats
before it claims and while it holds a claim. Both databases (the SQL is shared; only PostgreSQL uses it)."""

from __future__ import annotations

import asyncio
import sys
import time

import pytest

from bot.service import GameService
from bot.store import Store
from cogs.board_claim import LEASE, STALE, Busy, Claims, machine, start_time

NOW = 1_000_000.0


async def _game(store: Store) -> int:
    svc = GameService(store)
    game = await svc.create(guild_id=1, channel_id=100, user_id=10, name="Ann", seed=3)
    await svc.join(100, 11, "Bob")
    await svc.start(100, 10)
    return game.id


async def _owner(store: Store, game_id: int) -> str | None:
    return (await store.fetch_all("SELECT board_owner FROM games WHERE id = ?", (game_id,)))[0][0]


class _Shared:
    """The store as a process on a shared database sees it (SQLite too, for the SQL)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.shared = True

    def __getattr__(self, name: str) -> object:
        return getattr(self.store, name)


async def test_a_claim_of_an_ended_process_on_this_machine_is_taken_at_once(db_url: str) -> None:
    now = [NOW]
    store = await Store.open(db_url, clock=lambda: now[0])
    gid = await _game(store)
    other = await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(60)")
    try:
        started = start_time(other.pid)
        assert started is not None
        dead_owner = await store.register_process(machine(), other.pid, started)
        assert await store.claim_board(gid, dead_owner, LEASE, stale=STALE)
        claims = Claims(lambda: _Shared(store))
        now[0] += 10 * LEASE  # the lease is long over, but its owner beats (and lives): the claim stays
        with pytest.raises(Busy):
            async with claims.claimed(gid, within=0.5):
                pass
        assert await _owner(store, gid) == dead_owner
        other.kill()  # ended (not reaped yet: a zombie counts as ended)
        for _ in range(100):
            if start_time(other.pid) is None:
                break
            await asyncio.sleep(0.05)  # the kernel's SIGKILL takes a moment
        started_at = time.monotonic()
        async with claims.claimed(gid, within=0.5):
            assert await _owner(store, gid) == claims.owner
        assert time.monotonic() - started_at < 1.0
        assert await _owner(store, gid) is None
        await claims.stop()
        assert [r[0] for r in await store.fetch_all("SELECT id FROM bot_processes")] == [dead_owner]
    finally:
        if other.returncode is None:
            other.kill()
        await other.wait()
        await store.close()


async def test_a_claim_of_a_silent_process_elsewhere_is_taken_once_its_heartbeat_is_stale(db_url: str) -> None:
    store = await Store.open(db_url)
    gid = await _game(store)
    elsewhere = await store.register_process("another machine", 4242, "1")
    assert await store.claim_board(gid, elsewhere, LEASE, stale=STALE)
    assert not await store.claim_board(gid, "me", LEASE, stale=STALE)
    await store.write("UPDATE bot_processes SET beat_at = beat_at - ? WHERE id = ?", (STALE + 1, elsewhere))
    assert await store.claim_board(gid, "me", LEASE, stale=STALE)
    assert await store.beat(elsewhere)  # it beats again (it was cut off): the claim stays taken
    assert not await store.claim_board(gid, elsewhere, LEASE, stale=STALE)
    assert await _owner(store, gid) == "me"
    await store.close()


async def test_a_process_beats_before_it_claims_and_while_it_holds_a_claim(db_url: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(db_url)
    gid = await _game(store)
    claims = Claims(lambda: _Shared(store))
    await claims.start()
    assert claims.owner is not None
    await store.write("UPDATE bot_processes SET beat_at = beat_at - 3600")  # idle for an hour: no beats

    async def beat_at() -> float:
        return float((await store.fetch_all("SELECT beat_at FROM bot_processes WHERE id = ?", (claims.owner,)))[0][0])

    idle = await beat_at()
    monkeypatch.setattr("cogs.board_claim.BEAT", 0.2)
    async with claims.claimed(gid):
        claimed_at = await beat_at()
        assert claimed_at > idle + 3000  # beat right before the claim: nobody takes it for gone
        for _ in range(6000):  # beats every 0.2 s while holding it: wait for the next (at most a minute)
            if await beat_at() > claimed_at:
                break
            await asyncio.sleep(0.01)
        assert await beat_at() > claimed_at  # and while holding it
    assert claims._beats is None  # no beats while it holds nothing
    await claims.stop()
    await store.close()


async def test_a_process_taken_for_dead_goes_on_under_a_new_id(db_url: str) -> None:
    store = await Store.open(db_url)
    claims = Claims(lambda: _Shared(store))
    await claims.start()
    first = claims.owner
    assert first is not None
    await store.mark_dead(first)
    gid = await _game(store)
    async with claims.claimed(gid, within=1):
        assert claims.owner != first and await _owner(store, gid) == claims.owner
    assert not await store.beat(first)
    await claims.stop()
    await store.close()
