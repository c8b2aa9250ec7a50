"""SQLite's group commit. Write transactions queued at the same time share one COMMIT; each
runs in its own savepoint (one that raises is undone alone), each returns only once the group is committed,
and when the group's COMMIT is refused, none of them reports success (also when the file was deleted and
cannot be written back). Bookkeeping (``Store.write``) is written
outside that queue and is visible once it returns."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.store import DatabaseLost, Store


@contextmanager
def _trips(store: Store) -> Iterator[list[str]]:
    """The trips to the write connection's thread while the block runs, by the name of what each ran."""
    conn = store._backend.conn  # type: ignore[attr-defined]
    trips: list[str] = []
    original = conn._execute

    async def counted(fn: object, *args: object, **kw: object) -> object:
        trips.append(getattr(fn, "__name__", "?"))
        return await original(fn, *args, **kw)

    conn._execute = counted
    try:
        yield trips
    finally:
        conn._execute = original


async def _store(tmp_path: Path) -> Store:
    store = await Store.open(tmp_path / "g.sqlite3")
    async with store.transaction() as tx:
        await tx.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    return store


async def _insert(store: Store, k: int, *, fail: bool = False, started: asyncio.Event | None = None) -> int:
    async with store.transaction() as tx:
        await tx.execute("INSERT INTO t VALUES (?, ?)", (k, f"v{k}"))
        if started is not None:
            started.set()
            await asyncio.sleep(0.05)  # the others queue meanwhile: they join this group
        if fail:
            raise ValueError(k)
    return k


async def _rows(store: Store) -> list[int]:
    return [r[0] for r in await store.fetch_all("SELECT k FROM t ORDER BY k")]



async def _queued_behind_a_first(store: Store, more: int, fail: int = -1) -> list[asyncio.Task[int]]:
    """Transaction 0 under way (its group open), then ``more`` transactions queued behind it, all in the
    same group; the one numbered ``fail`` raises."""
    first = asyncio.Event()
    tasks = [asyncio.create_task(_insert(store, 0, started=first))]
    await first.wait()
    return tasks + [asyncio.create_task(_insert(store, k, fail=k == fail)) for k in range(1, more + 1)]

async def test_a_group_commits_all_but_the_one_that_raised(tmp_path: Path) -> None:
    store = await _store(tmp_path)
    commits: list[str] = []
    await store._backend.conn.set_trace_callback(  # type: ignore[attr-defined]
        lambda sql: commits.append(sql) if sql.strip().upper() == "COMMIT" else None)
    tasks = await _queued_behind_a_first(store, 5, fail=3)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert [r if not isinstance(r, ValueError) else "failed" for r in results] == [0, 1, 2, "failed", 4, 5]
    assert await _rows(store) == [0, 1, 2, 4, 5]  # each one that returned is committed, the failed one is not
    assert len(commits) < 5, commits  # fewer commits than transactions: they were grouped
    await store.close()


async def test_no_transaction_of_a_refused_group_reports_success(tmp_path: Path) -> None:
    store = await _store(tmp_path)
    tasks = await _queued_behind_a_first(store, 3)
    os.unlink(tmp_path / "g.sqlite3")
    os.mkdir(tmp_path / "g.sqlite3")  # nothing can be written back: the group's COMMIT is refused
    results = await asyncio.gather(*tasks, return_exceptions=True)
    assert all(isinstance(r, DatabaseLost) for r in results), results
    with pytest.raises(DatabaseLost):
        await _insert(store, 9)
    await store.close()


async def test_a_group_committed_after_the_file_was_deleted_is_in_the_file_put_back(tmp_path: Path) -> None:
    store = await _store(tmp_path)
    tasks = await _queued_behind_a_first(store, 3)
    os.unlink(tmp_path / "g.sqlite3")
    assert await asyncio.gather(*tasks) == [0, 1, 2, 3]  # each returned once it was in the file put back
    db = sqlite3.connect(tmp_path / "g.sqlite3")
    assert [r[0] for r in db.execute("SELECT k FROM t ORDER BY k")] == [0, 1, 2, 3]
    db.close()
    assert await _insert(store, 9) == 9
    await store.close()
    again = await Store.open(tmp_path / "g.sqlite3")
    assert await _rows(again) == [0, 1, 2, 3, 9]
    await again.close()


async def test_bookkeeping_is_visible_when_written(tmp_path: Path) -> None:
    store = await _store(tmp_path)
    first = asyncio.Event()
    slow = asyncio.create_task(_insert(store, 0, started=first))
    await first.wait()  # a group is open and holds the write lock
    assert await store.write("INSERT INTO t VALUES (?, ?)", (7, "bookkeeping")) == 1
    assert 7 in await _rows(store)
    await slow
    assert await _rows(store) == [0, 7]
    await store.close()


async def test_waiting_transactions_all_run_in_one_turn_of_the_loop(tmp_path: Path) -> None:
    """When the write lock is let go, every transaction waiting for it runs in the same turn of the event loop
    (``asyncio.Lock`` handed over to one waiter per turn: under load each turn took milliseconds and writes
    queued for 0.2 s p50)."""
    store = await _store(tmp_path)
    turn = [0]
    ticking = True

    async def tick() -> None:
        while ticking:
            turn[0] += 1
            await asyncio.sleep(0)

    ran_at: list[int] = []

    async def insert(k: int) -> None:
        async with store.transaction() as tx:
            ran_at.append(turn[0])
            await tx.execute("INSERT INTO t VALUES (?, ?)", (k, f"v{k}"))

    first = asyncio.Event()
    slow = asyncio.create_task(_insert(store, 0, started=first))
    await first.wait()  # a group is open; its first transaction holds the lock
    ticker = asyncio.create_task(tick())
    waiting = [asyncio.create_task(insert(k)) for k in range(1, 9)]
    await asyncio.gather(slow, *waiting)
    ticking = False
    await ticker
    assert len(ran_at) == 8
    assert max(ran_at) - min(ran_at) <= 1, ran_at
    assert await _rows(store) == list(range(9))
    await store.close()


async def test_statements_do_not_go_to_a_thread(tmp_path: Path) -> None:
    """A database file: a transaction's statements run on the event loop; only BEGIN and COMMIT go to the
    write connection's thread (each trip there waited for the interpreter and a turn of the busy loop: a move
    took seven or eight)."""
    store = await _store(tmp_path)
    with _trips(store) as trips:
        async with store.transaction() as tx:
            for k in range(5):
                await tx.execute("INSERT INTO t VALUES (?, ?)", (k, f"v{k}"))
            assert await tx.fetch("SELECT COUNT(*) FROM t") == [(5,)]
        assert len(trips) == 2, trips  # BEGIN and COMMIT
        await store.note("UPDATE t SET v = 'x' WHERE k = 1")
    assert len(trips) == 4, trips  # BEGIN and COMMIT of the transaction's group, then of the note's
    assert await _rows(store) == [0, 1, 2, 3, 4]
    await store.close()


async def test_a_move_of_a_member_not_away_writes_nothing_for_time_away(tmp_path: Path) -> None:
    """Acting ends a member's time away (``back_if_away``); at almost every move nobody is away, and the delete
    cost a group commit of its own (a trip to the write connection's thread for BEGIN, one for COMMIT, a wait
    for the disk). Now only a member who is away costs a write."""
    store = await Store.open(tmp_path / "a.sqlite3")
    with _trips(store) as trips:
        assert await store.back_if_away(1, 7) is False
        assert trips == []
        assert await store.set_away(1, 7, store.clock() + 3600)
        trips.clear()
        assert await store.back_if_away(1, 7) is True
        assert len(trips) == 2, trips  # BEGIN and COMMIT
        assert await store.away_until(1, [7]) == {}
    await store.close()


async def test_a_database_left_without_its_wal_is_written_back(tmp_path: Path) -> None:
    store = await _store(tmp_path)
    await _insert(store, 1)
    os.unlink(tmp_path / "g.sqlite3-wal")  # the committed rows not yet copied into the file were only there
    assert await _insert(store, 2) == 2
    db = sqlite3.connect(tmp_path / "g.sqlite3")  # what a crash now would leave
    assert [r[0] for r in db.execute("SELECT k FROM t ORDER BY k")] == [1, 2]
    db.close()
    await store.close()
    again = await Store.open(tmp_path / "g.sqlite3")
    assert await _rows(again) == [1, 2]
    await again.close()
