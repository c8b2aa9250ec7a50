"""The store on a real database, SQLite and PostgreSQL (``db_url``): migrations, optimistic versions, atomic
actions, crashes. The SQLite file's own concerns (WAL, a disk snapshot) are tested on SQLite only."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.service import GameService, UserError
from bot.store import MIGRATIONS, ChannelBusy, Migration, Store, Tx, VersionConflict
from rules import GameState, legal_moves

from .databases import table_names


async def _game(store: Store, players: int = 2, channel: int = 100, steps: int = 0) -> tuple[GameService, int]:
    """A game started in ``channel`` and its first ``steps`` moves played (``_step``)."""
    svc = GameService(store)
    game = await svc.create(guild_id=1, channel_id=channel, user_id=10, name="Ann", seed=7)
    for uid in range(11, 10 + players):
        await svc.join(channel, uid, f"P{uid}")
    await svc.start(channel, 10)
    for _ in range(steps):
        await _step(svc, game.id)
    return svc, game.id


async def _step(svc: GameService, game_id: int) -> int:
    """Play the first legal move of the player to decide; returns the new version."""
    game = await svc.game(game_id)
    st = GameState.from_json(game.state or {})
    uid = game.user_at(st.decider)
    assert uid is not None
    out = await svc.act(game_id, uid, legal_moves(st)[0].action, version=game.version)
    return out.game.version


async def test_sqlite_folder_created_and_wal(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path}/db/games.sqlite3")  # the folder is created
    assert store.dialect == "sqlite" and await store.schema_version() == len(MIGRATIONS)
    rows = await store.fetch_all("PRAGMA journal_mode")
    assert rows[0][0] == "wal"
    await store.close()


async def test_schema_and_migrations(db_url: str) -> None:
    store = await Store.open(db_url)
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()
    # a later migration is applied once, on the next start; two processes starting at once take turns
    extra = [*MIGRATIONS, Migration(len(MIGRATIONS) + 1, "notes",
                                    "CREATE TABLE notes (game_id INTEGER PRIMARY KEY, text TEXT NOT NULL)")]
    stores = [await Store.open(db_url) for _ in range(3)]
    assert await asyncio.gather(*(s.migrate(extra) for s in stores)) == [len(MIGRATIONS) + 1] * 3
    store = stores[0]
    assert await store.migrate(extra) == len(MIGRATIONS) + 1
    assert len(await store.fetch_all("SELECT version FROM schema_version")) == len(MIGRATIONS) + 1
    assert {"games", "seats", "actions", "hands", "schema_version", "reminders", "pass_modes", "results",
            "guild_settings", "notices", "dm_unreachable", "notes"} <= await table_names(store)
    for s in stores:
        await s.close()


async def test_same_columns_on_both_backends(db_url: str, tmp_path: Path) -> None:
    """The migrations give PostgreSQL the same tables and columns as SQLite."""
    store = await Store.open(db_url)
    reference = await Store.open(tmp_path / "reference.sqlite3")
    for table in await table_names(reference):
        if not table.startswith(("_", "sqlite_")):
            assert await store.columns(table) == await reference.columns(table), table
    await store.close()
    await reference.close()


async def test_failed_migration_rolls_back(db_url: str) -> None:
    store = await Store.open(db_url)

    async def broken(tx: Tx) -> None:
        await tx.execute("CREATE TABLE half (x INTEGER)")
        raise RuntimeError("migration bug")

    with pytest.raises(RuntimeError):
        await store.migrate([*MIGRATIONS, Migration(99, "broken", broken)])
    assert await store.schema_version() == len(MIGRATIONS)
    assert "half" not in await table_names(store)
    await store.close()


async def test_one_open_game_per_channel_and_lobby(db_url: str) -> None:
    store = await Store.open(db_url)
    svc = GameService(store)
    await svc.create(guild_id=1, channel_id=5, user_id=1, name="A")
    with pytest.raises(UserError) as e:
        await svc.create(guild_id=1, channel_id=5, user_id=2, name="B")
    assert e.value.code == "channel_busy"
    with pytest.raises(ChannelBusy):
        await store.create_game(guild_id=1, channel_id=5, host_id=3, host_name="C", ruleset={}, seed=1, lang="en")
    await svc.create(guild_id=1, channel_id=6, user_id=1, name="A")  # another channel is fine
    await svc.join(5, 2, "B")
    with pytest.raises(UserError):
        await svc.join(5, 2, "B")
    game = await svc.leave(5, 1)  # the host leaves: B hosts
    assert game.host_id == 2 and [s.user_id for s in game.seats] == [2]
    game = await svc.leave(5, 2)
    assert game.status == "aborted"
    await svc.create(guild_id=1, channel_id=5, user_id=3, name="C")  # free again
    await store.close()


async def test_action_commits_state_action_and_hands(db_url: str) -> None:
    store = await Store.open(db_url)
    svc, gid = await _game(store, 3, steps=30)
    game = await svc.game(gid)
    st = GameState.from_json(game.state or {})
    actions = await store.actions(gid)
    # 30 by the players, plus the bot's passes where passing was the only legal move
    assert len(actions) == st.action_count and game.version == 3 + st.action_count  # 2 joins and the start
    assert len([a for a in actions if a.auto is None]) == 30
    assert all(a.auto == "forced" and a.notation == "pass" and a.user_id is None for a in actions if a.auto)
    hands = await store.hands(gid)
    assert hands == {s: [st.cards[c].id for c in st.hands[s]] for s in range(st.n)}
    await store.close()
    # the record replays to the same state from another connection (a new process)
    other = await Store.open(db_url)
    notations = [r.notation for r in await other.actions(gid)]
    await other.close()
    from rules import GameRecord, replay

    rec = GameRecord(st.ruleset, st.seats, seed=game.seed, actions=notations)
    assert replay(rec).to_json() == st.to_json()


async def test_optimistic_version_check(db_url: str) -> None:
    store = await Store.open(db_url)
    svc, gid = await _game(store)
    game = await svc.game(gid)
    st = GameState.from_json(game.state or {})
    with pytest.raises(VersionConflict):
        await store.record_action(gid, game.version - 1, seat=0, user_id=10, notation="pass", events=[],
                                  state=st.to_json(), hands={})
    assert (await svc.game(gid)).version == game.version
    assert await store.actions(gid) == []
    await store.close()


@pytest.mark.parametrize("point", ["action_written", "hands_written", "before_commit"])
async def test_exception_before_commit_keeps_previous_state(db_url: str, point: str) -> None:
    store = await Store.open(db_url)
    svc, gid = await _game(store, steps=5)
    before = await svc.game(gid)

    def crash(where: str) -> None:
        if where == point:
            raise OSError(f"simulated crash at {where}")

    store.fault_hook = crash
    with pytest.raises(OSError):
        await _step(svc, gid)
    store.fault_hook = None
    after = await svc.game(gid)
    assert (after.version, after.state) == (before.version, before.state)
    assert len(await store.actions(gid)) == 5
    await _step(svc, gid)  # and the game goes on from there
    assert len(await store.actions(gid)) == 6
    await store.close()


async def test_disk_snapshot_mid_transaction_holds_previous_state(tmp_path: Path) -> None:
    """What a power cut would leave: the files as they are after the action row is written, before
    commit. Opened elsewhere, they show the previous consistent state."""
    path = tmp_path / "g.sqlite3"
    snap = tmp_path / "snap"
    snap.mkdir()
    store = await Store.open(path)
    svc, gid = await _game(store, steps=4)
    before = await svc.game(gid)

    def snapshot(where: str) -> None:
        if where == "hands_written":
            for suffix in ("", "-wal"):
                src = Path(str(path) + suffix)
                if src.exists():
                    shutil.copy(src, snap / ("g.sqlite3" + suffix))

    store.fault_hook = snapshot
    await _step(svc, gid)
    store.fault_hook = None
    await store.close()
    other = await Store.open(snap / "g.sqlite3")
    game = await other.get_game(gid)
    assert game is not None and (game.version, game.state) == (before.version, before.state)
    assert len(await other.actions(gid)) == 4
    await other.close()


async def test_process_killed_between_action_row_and_commit(db_url: str) -> None:
    """A real crash: a process dies (os._exit) after writing the action row, before commit."""
    path = db_url
    script = textwrap.dedent(f"""
        import asyncio, os, sys
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from bot.store import Store
        from tests.bot.test_store import _game, _step

        async def main():
            store = await Store.open({str(path)!r})
            svc, gid = await _game(store, steps=3)
            print("version", (await svc.game(gid)).version, flush=True)
            store.fault_hook = lambda where: os._exit(9) if where == "action_written" else None
            await _step(svc, gid)
            print("not reached", flush=True)

        asyncio.run(main())
    """)
    proc = await asyncio.to_thread(subprocess.run, [sys.executable, "-c", script], capture_output=True, text=True,
                                   timeout=60)
    assert proc.returncode == 9, proc.stderr
    version = int(proc.stdout.split()[1])
    store = await Store.open(db_url)
    [game] = await store.list_games()
    assert game.version == version and game.state is not None and game.state["action_count"] == 3
    assert len(await store.actions(game.id)) == 3
    await store.close()


async def test_many_games_listing_and_user_games(db_url: str) -> None:
    store = await Store.open(db_url)
    for ch in range(20):
        await _game(store, 2, channel=1000 + ch)
    assert len(await store.list_games(status="active")) == 20
    assert len(await store.user_games(10, status=("active", "finished"))) == 20
    assert await store.user_games(999) == []
    await store.close()
