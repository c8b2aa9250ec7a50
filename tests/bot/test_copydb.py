"""``python -m bot copy-db``: a SQLite database with finished and running games copied into the target
(``db_url``: PostgreSQL, and another SQLite file), verified, refused over a non-empty target without
``--force``, and a game continued on the copy."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from pathlib import Path

from bot.copydb import TABLES, counts
from bot.service import GameService
from bot.store import Store
from bot.timers import Timing
from bot.tournaments import TournamentService

from .helpers import random_move

ROOT = Path(__file__).resolve().parents[2]


async def _play(svc: GameService, game_id: int, rng: random.Random, steps: int | None = None) -> None:
    """Random legal moves of whoever decides, ``steps`` of them or until the game ends."""
    done = 0
    while steps is None or done < steps:
        move = await random_move(svc, game_id, rng)
        if move is None:
            return
        await svc.act(game_id, move.user_id, move.action, version=move.version)
        done += 1


async def _source(path: Path) -> dict[str, int]:
    """Two finished games, one running (with timers, a pass mode, a notice), an aborted lobby, server
    settings, a closed-DM mark, a member away, a review, a process and a tournament; returns its row counts."""
    store = await Store.open(path)
    svc = GameService(store, timing=Timing(reminder=60, interval=240, autopass=600))
    rng = random.Random(5)
    ids = []
    for channel in (1, 2, 3):
        game = await svc.create(guild_id=7, channel_id=channel, user_id=10, name="Ann", seed=channel)
        await svc.join(channel, 11, "Bob")
        await svc.start(channel, 10)
        ids.append(game.id)
    await _play(svc, ids[0], rng)
    await _play(svc, ids[1], rng)
    await _play(svc, ids[2], rng, steps=8)
    await svc.set_pass_mode(ids[2], 11, "phase")
    await svc.create(guild_id=7, channel_id=4, user_id=12, name="Cy")
    await svc.leave(4, 12)
    await svc.update_server_settings(7, {"reminder": 30})
    await store.set_dm_unreachable(11, True)
    await store.set_away(7, 11, store.clock() + 86400)
    assert await store.claim_review(ids[0], "me", 60, requested_by=10, iterations=4, seed=0)
    assert await store.add_review_part(ids[0], "me", 3, {"index": 3}, 60)
    assert await store.finish_review(ids[0], "me", {"decisions": []})
    await store.register_process("a machine", 4242, "12345")  # a process's heartbeat (shared databases)
    ts = TournamentService(store, Timing(60, 240, 600))  # a tournament in its first round, its one table's game started
    cup = await ts.create(guild_id=7, channel_id=50, host_id=10, name="Cup", fmt="swiss", options={"size": 2},
                          seed=1)
    await ts.join(cup, 10, "Ann")
    await ts.join(cup, 11, "Bob")
    assert await ts.start(cup)
    [table] = await store.tables_to_make()
    assert await store.set_table_thread(table, 51)
    table.thread_id = 51
    running = await store.get_tournament(cup.id)
    assert running is not None and await ts.table_game(running, table, {10: "Ann", 11: "Bob"}) == 5
    found = await counts(store)
    await store.close()
    return found


def _copy(source: Path, target: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "copy-db", "--from", f"sqlite:///{source}", "--to", target,
                           "--env-file", os.devnull, *extra], cwd=ROOT, capture_output=True, text=True, timeout=120)


async def test_copy_then_continue_on_the_copy(db_url: str, tmp_path: Path) -> None:
    source = tmp_path / "source.sqlite3"
    expected = await _source(source)
    assert all(expected[t] for t in TABLES), expected  # every table has rows to copy

    proc = await asyncio.to_thread(_copy, source, db_url)
    assert proc.returncode == 0, proc.stderr
    assert "verified" in proc.stdout and "results" in proc.stdout
    again = await asyncio.to_thread(_copy, source, db_url)
    assert again.returncode == 1 and "not empty" in again.stderr and "--force" in again.stderr
    forced = await asyncio.to_thread(_copy, source, db_url, "--force")
    assert forced.returncode == 0, forced.stderr

    old, new = await Store.open(source), await Store.open(db_url)
    assert await counts(new) == expected
    for game_id in (1, 2, 3, 4, 5):
        a, b = await old.get_game(game_id), await new.get_game(game_id)
        assert a is not None and b is not None
        assert (a.status, a.version, a.state, a.seats, a.settings) == (b.status, b.version, b.state, b.seats,
                                                                          b.settings)
        assert await old.actions(game_id) == await new.actions(game_id)
        assert await old.hands(game_id) == await new.hands(game_id)
        assert await old.timers(game_id) == await new.timers(game_id)
    assert await old.leaderboard(7) == await new.leaderboard(7)
    assert await old.finished_games(7) == await new.finished_games(7)
    assert await new.pass_modes(3) == await old.pass_modes(3) != {}
    assert await new.guild_settings(7) == {"reminder": 30}
    assert await new.dm_unreachable_since(11) == await old.dm_unreachable_since(11)
    assert [n.key for n in await new.notices(3)] == [n.key for n in await old.notices(3)]
    assert await new.tournament_tables(1) == await old.tournament_tables(1) != []
    assert await new.entrants(1) == await old.entrants(1)
    await old.close()

    # the running game goes on to its end on the copy; a new game gets a new id (the sequences moved on)
    svc = GameService(new)
    await _play(svc, 3, random.Random(9))
    game = await svc.game(3)
    assert game.status == "finished" and len(await new.results(3)) == 2
    fresh = await svc.create(guild_id=7, channel_id=9, user_id=10, name="Ann")
    assert fresh.id == 6
    [notice_id] = [r[0] for r in await new.fetch_all("SELECT MAX(id) FROM notices")]
    await new.set_status(fresh.id, fresh.version, "aborted", [("bot.aborted", {})])
    assert [n.id for n in await new.notices(fresh.id)] == [notice_id + 1]
    assert len(await new.leaderboard(7)) == 2
    await new.close()


async def test_copy_refuses_the_same_database_and_a_bad_target(tmp_path: Path) -> None:
    source = tmp_path / "s.sqlite3"
    await (await Store.open(source)).close()
    same = await asyncio.to_thread(_copy, source, f"sqlite:///{source}")
    assert same.returncode == 2 and "same database" in same.stderr
    bad = await asyncio.to_thread(_copy, source, "postgresql://nobody@127.0.0.1:1/none")
    assert bad.returncode == 1 and "cannot be used" in bad.stderr
