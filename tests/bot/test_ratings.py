"""Ratings (docs/ratings.md): equal to openskill's own computation over a fixed sequence of games (two, three
and five players), shared wins, the counting rule (aborted games, seats played by others, the time-out or a
computer that took over), rebuilt exactly (SQLite and PostgreSQL, also by ``python -m bot ratings --rebuild``),
carried by ``copy-db``, and back-filled by the migration."""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from openskill.models import PlackettLuce

import bot.ratings
from bot.copydb import copy_db
from bot.ratings import (
    COMPUTER,
    USER,
    SeatMoves,
    SeatResult,
    player_of,
    ranks_of,
    rate_finished,
    rate_game,
    shown,
)
from bot.ratings_cli import rebuild
from bot.service import GameService
from bot.store import MIGRATIONS, Store
from bot.timers import Timing
from rules import GameState, legal_moves

ROOT = Path(__file__).resolve().parents[2]
GUILD = 7
_clock = itertools.count(1)


async def _play(svc: GameService, channel: int, members: Sequence[int], seed: int,
                expansions: Sequence[str] = ()) -> int:
    """A whole game among ``members`` by the service, with seeded random legal moves; its id."""
    game = await svc.create(guild_id=GUILD, channel_id=channel, user_id=members[0], name=f"m{members[0]}",
                            seed=seed, expansions=expansions)
    for uid in members[1:]:
        await svc.join(channel, uid, f"m{uid}")
    await svc.start(channel, members[0])
    rng = random.Random(seed)
    while True:
        game = await svc.game(game.id)
        if game.status != "active":
            return game.id
        st = GameState.from_json(game.state or {})
        decider = game.user_at(st.decider)
        assert decider is not None
        await svc.act(game.id, decider, rng.choice(legal_moves(st)).action, version=game.version)


async def _synthetic(store: Store, seats: list[dict[str, Any]], *, guild: int = GUILD) -> int:
    """A finished game written directly (seats, results, the seats' actions), rated like the finishing
    transaction rates it. A seat: user/computer/takeover/vp/rubles/winner and ``moves``, (user_id, auto) per
    action."""
    async with store.transaction() as tx:
        [(gid,)] = await tx.fetch(
            "INSERT INTO games (guild_id, channel_id, host_id, ruleset, seed, lang, status, version, created_at, "
            "updated_at) VALUES (?, 1, 1, '{}', 1, 'en', 'finished', 1, 0, 0) RETURNING id", (guild,))
        idx = 0
        for n, s in enumerate(seats):
            await tx.execute("INSERT INTO seats (game_id, seat, user_id, name, computer, takeover) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             (gid, n, s.get("user"), f"s{n}", s.get("computer"), int(s.get("takeover", False))))
            await tx.execute("INSERT INTO results (game_id, seat, user_id, name, vp, rubles, winner, computer) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (gid, n, s.get("user"), f"s{n}", s["vp"],
                                                                 s.get("rubles", 0), int(s.get("winner", False)),
                                                                 s.get("computer")))
            for uid, auto in s["moves"]:
                await tx.execute("INSERT INTO actions (game_id, idx, seat, user_id, notation, events, created_at, "
                                 "auto, version) VALUES (?, ?, ?, ?, 'pass', '[]', ?, ?, ?)",
                                 (gid, idx, n, uid, float(next(_clock)), auto, idx))
                idx += 1
        await rate_finished(tx, int(gid))
    return int(gid)


async def _ratings(store: Store) -> dict[tuple[int, str], tuple[float, float, int, int]]:
    rows = await store.fetch_all("SELECT guild_id, player, mu, sigma, games, wins FROM ratings")
    return {(int(g), p): (float(m), float(s), int(n), int(w)) for g, p, m, s, n, w in rows}


async def _changes(store: Store) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in await store.fetch_all("SELECT * FROM rating_changes ORDER BY game_id, seat")]


def _me(uid: int, n: int = 3) -> list[tuple[int | None, str | None]]:
    return [(uid, None)] * n


# --- equal to openskill's own computation -----------------------------------------------------------
async def test_a_fixed_sequence_of_games_equals_openskills_computation(db_url: str) -> None:
    """Two-, three- and five-player games (the Market) among five members, rated as they finish; the stored
    ratings are exactly what openskill's Plackett–Luce gives when fed the same games in order (ranked by
    score: winners first, then VP, then rubles)."""
    store = await Store.open(db_url)
    svc = GameService(store)
    tables = [([1, 2], ()), ([2, 3, 4], ()), ([1, 2, 3, 4, 5], ("market",)), ([5, 1], ()), ([3, 1, 4], ())]
    ids = [await _play(svc, ch, members, seed=ch, expansions=ex) for ch, (members, ex) in enumerate(tables, 1)]

    model = PlackettLuce()
    expected: dict[int, Any] = {}
    games: dict[int, int] = {}
    for gid in ids:
        results = sorted(await store.results(gid), key=lambda r: r.seat)
        uids = [r.user_id for r in results if r.user_id is not None]
        assert len(uids) == len(results)
        teams = [[expected.get(u) or model.rating()] for u in uids]
        scores = [r.winner * 1_000_000.0 + r.vp * 1000.0 + r.rubles for r in results]
        for u, [new] in zip(uids, model.rate(teams, scores=scores), strict=True):
            expected[u] = new
            games[u] = games.get(u, 0) + 1
    stored = await _ratings(store)
    assert {p: v[:3] for (_, p), v in stored.items()} == {
        f"{USER}{u}": (r.mu, r.sigma, games[u]) for u, r in expected.items()}
    five = [c for c in await _changes(store) if c[0] == ids[2]]
    assert len(five) == 5  # every seat of the five-player game rated
    await store.close()


def test_a_shared_win_is_a_tie() -> None:
    """Two winners (same VP and rubles) rank equal: from equal ratings they gain exactly the same, as openskill
    rates a tie."""
    seats = [SeatResult(0, 1, None, False, 30, 5, True, SeatMoves(own=9)),
             SeatResult(1, 2, None, False, 30, 5, True, SeatMoves(own=9)),
             SeatResult(2, 3, None, False, 20, 9, False, SeatMoves(own=9))]
    assert ranks_of(seats) == [1, 1, 3]
    changes = rate_game({}, seats)
    assert changes[0].after == changes[1].after and changes[0].after[0] > changes[2].after[0]
    model = PlackettLuce()
    [[a], [b], [c]] = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 1, 3])
    assert [ch.after for ch in changes] == [(a.mu, a.sigma), (b.mu, b.sigma), (c.mu, c.sigma)]


async def test_shared_wins_and_computer_levels_stored(db_url: str) -> None:
    """A shared win stored and rated as a tie; two computers of one level end with the mean of their seats'
    new ratings; games and wins counted once per player."""
    store = await Store.open(db_url)
    gid = await _synthetic(store, [
        {"user": 1, "vp": 40, "rubles": 3, "winner": True, "moves": _me(1)},
        {"user": 2, "vp": 40, "rubles": 3, "winner": True, "moves": _me(2)},
        {"computer": "normal", "vp": 35, "moves": [(None, "computer")] * 3},
        {"computer": "normal", "vp": 30, "moves": [(None, "computer")] * 3}])
    rows = await _ratings(store)
    one, two = rows[(GUILD, f"{USER}1")], rows[(GUILD, f"{USER}2")]
    assert one == two and one[2:] == (1, 1)
    model = PlackettLuce()
    fresh = [[model.rating()] for _ in range(4)]
    out = model.rate(fresh, ranks=[1, 1, 3, 4])
    assert one[:2] == (out[0][0].mu, out[0][0].sigma)
    normal = rows[(GUILD, f"{COMPUTER}normal")]
    assert normal == ((out[2][0].mu + out[3][0].mu) / 2, (out[2][0].sigma + out[3][0].sigma) / 2, 1, 0)
    assert len([c for c in await _changes(store) if c[0] == gid]) == 4
    await store.close()


# --- the counting rule --------------------------------------------------------------------------------
def test_the_counting_rule() -> None:
    def seat(user: int | None = None, level: str | None = None, takeover: bool = False,
             **moves: int) -> SeatResult:
        return SeatResult(0, user, level, takeover, 10, 0, False, SeatMoves(**moves))

    assert player_of(seat(5, own=10)) == f"{USER}5"
    assert player_of(seat(5, own=6, others=2, timeout=2, computer=1)) == f"{USER}5"  # 6 of 11
    assert player_of(seat(5, own=5, timeout=5)) is None  # half is not most
    assert player_of(seat(5, own=3, others=7)) is None  # replaced late: the seat was someone else's
    assert player_of(seat(5, own=2, computer=9)) is None  # a computer took over, then the member came back late
    assert player_of(seat(5)) is None  # no moves of its own (only passes the bot made)
    assert player_of(seat(None, "strong", computer=20)) == f"{COMPUTER}strong"
    assert player_of(seat(None, "normal", takeover=True, computer=20)) is None  # a take-over counts for nobody
    assert player_of(seat(None, "normal", takeover=True, own=15, computer=5)) is None
    assert player_of(seat(None, None, timeout=3)) is None  # an empty seat


async def test_the_counting_rule_in_stored_games(db_url: str) -> None:
    """Passes the bot makes by itself count for nobody; a seat played mostly by the time-out, by a computer that
    took over, or by someone before the member holding it at the end counts for nobody; a game with fewer
    than two counted seats is not rated; aborted games never are."""
    store = await Store.open(db_url)
    passes = [(None, "forced"), (None, "mode_phase")] * 10
    gid = await _synthetic(store, [
        {"user": 1, "vp": 50, "winner": True, "moves": _me(1, 2) + passes},  # 2 own moves, 20 bot passes: counts
        {"user": 2, "vp": 40, "moves": _me(2) + [(None, "timeout")] * 4},  # mostly the time-out
        {"user": 3, "vp": 30, "moves": [(9, None)] * 5 + _me(3, 2)},  # replaced late: seat 9's game
        {"computer": "normal", "takeover": True, "vp": 20, "moves": _me(4, 1) + [(None, "computer")] * 8},
        {"user": 5, "vp": 10, "moves": _me(5, 4)}])
    changes = [c for c in await _changes(store) if c[0] == gid]
    assert [(c[1], c[4]) for c in changes] == [(0, f"{USER}1"), (4, f"{USER}5")]
    assert set(await _ratings(store)) == {(GUILD, f"{USER}1"), (GUILD, f"{USER}5")}
    # one counted seat: not rated at all
    lone = await _synthetic(store, [{"user": 1, "vp": 9, "winner": True, "moves": _me(1)},
                                    {"user": 2, "vp": 8, "moves": [(None, "timeout")] * 3}])
    assert not [c for c in await _changes(store) if c[0] == lone]
    # an aborted game and one still in play: nothing
    svc = GameService(store)
    before = await _ratings(store)
    for channel in (50, 51):
        await svc.create(guild_id=GUILD, channel_id=channel, user_id=1, name="a")
        await svc.join(channel, 2, "b")
        await svc.start(channel, 1)
    await svc.abort(50, 1, may_manage=False)
    assert await _ratings(store) == before
    await store.close()


async def test_a_computer_taking_over_marks_the_seat(db_url: str) -> None:
    """The time-out hands an absent member's seat to a computer (the host's ``takeover``): the seat is marked,
    and at the end it counts for nobody, while the member who played counts."""
    store = await Store.open(db_url)
    svc = GameService(store, timing=Timing(reminder=0, interval=0, autopass=1))
    game = await svc.create(guild_id=GUILD, channel_id=60, user_id=1, name="a", seed=4)
    await svc.join(60, 2, "b")
    await svc.start(60, 1)
    await svc.update_settings(60, 1, {"takeover": 1})
    rng = random.Random(4)
    while True:
        game = await svc.game(game.id)
        if game.status != "active":
            break
        st = GameState.from_json(game.state or {})
        move = rng.choice(legal_moves(st)).action
        if game.computer_at(st.decider):
            await svc.computer_act(game.id, st.decider, game.version, move)
        elif game.user_at(st.decider) == 2:  # the second member is away: the time-out gives the seat away
            [timer] = [tm for tm in await store.timers(game.id) if tm.kind == "autopass"]
            await svc.timeout(timer)
        else:
            await svc.act(game.id, 1, move, version=game.version)
    rows = await store.fetch_all("SELECT seat, computer, takeover FROM seats WHERE game_id = ? ORDER BY seat",
                                 (game.id,))
    assert [tuple(r) for r in rows] == [(0, None, 0), (1, "normal", 1)]
    assert [c[4] for c in await _changes(store) if c[0] == game.id] == []  # one counted seat: not rated
    await store.close()


# --- rebuilt exactly, carried, back-filled --------------------------------------------------------------
async def _some_games(store: Store) -> None:
    svc = GameService(store)
    for ch, members in enumerate([[1, 2], [2, 3, 1], [3, 1]], 70):
        await _play(svc, ch, members, seed=ch)
    await _synthetic(store, [{"user": 1, "vp": 9, "winner": True, "moves": _me(1)},
                             {"computer": "easy", "vp": 8, "moves": [(None, "computer")] * 3}])
    await _synthetic(store, [{"user": 2, "vp": 9, "winner": True, "moves": _me(2)},
                             {"user": 4, "vp": 8, "moves": _me(4)}], guild=8)


async def test_a_rebuild_reproduces_the_stored_ratings(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.ratings, "BATCH", 2)  # games read a few at a time, as in a large database
    store = await Store.open(db_url)
    await _some_games(store)
    ratings, changes = await _ratings(store), await _changes(store)
    assert len(ratings) == 6 and len({c[2] for c in changes}) == 2
    done = await rebuild(store)
    assert (done.games, done.players, done.differed) == (5, 6, 0)
    assert await _ratings(store) == ratings and await _changes(store) == changes
    # a stored rating tampered with is put right, and counted
    await store.write("UPDATE ratings SET mu = mu + 1 WHERE player = ?", (f"{USER}1",))
    assert (await rebuild(store)).differed == 1
    assert await _ratings(store) == ratings
    await store.close()
    proc = subprocess.run([sys.executable, "-m", "bot", "ratings", "--rebuild", "--database", db_url,
                           "--env-file", os.devnull], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "5 games rated, 6 players; 0 stored ratings differed" in proc.stdout


async def test_games_finishing_at_once_in_two_processes_rebuild_exactly(db_url: str) -> None:
    """Two processes (two stores on one database) finish games of one server at the same time: each game is
    rated from the ratings of those rated before it (one at a time, numbered in that order), so a rebuild
    finds every stored rating exact."""
    stores = [await Store.open(db_url) for _ in range(2)]
    services = [GameService(s) for s in stores]
    tables = [[1, 2], [2, 3], [3, 1], [1, 2, 3]]
    ids = await asyncio.gather(*(_play(services[n % 2], 90 + n, members, seed=90 + n)
                                 for n, members in enumerate(tables)))
    changes = await _changes(stores[0])
    assert {c[0] for c in changes} == set(ids)
    assert sorted({(c[2], c[3]) for c in changes}) == [(GUILD, k) for k in range(1, 5)]
    ratings = await _ratings(stores[0])
    assert (await rebuild(stores[1])).differed == 0
    assert await _ratings(stores[0]) == ratings and await _changes(stores[0]) == changes
    for s in stores:
        await s.close()


async def test_copy_db_carries_the_ratings(db_url: str, tmp_path: Path) -> None:
    source = await Store.open(tmp_path / "source.sqlite3")
    await _some_games(source)
    target = await Store.open(db_url)
    copied = await copy_db(source, target)
    assert copied["ratings"] == 6 and copied["rating_changes"] > 0
    assert await _ratings(target) == await _ratings(source)
    assert await _changes(target) == await _changes(source)
    assert (await rebuild(target)).differed == 0
    await source.close()
    await target.close()


async def test_the_migration_rates_the_games_finished_before(tmp_path: Path) -> None:
    """A database at the schema before ratings with finished games: migrating rates them in the order they
    finished, as a rebuild would."""
    path = tmp_path / "old.sqlite3"
    old = await Store.open(path)
    svc = GameService(old)
    for ch, members in enumerate([[1, 2], [2, 3]], 80):
        await _play(svc, ch, members, seed=ch)
    expected = await _ratings(old)
    await old.close()
    conn = await aiosqlite.connect(str(path), isolation_level=None)  # back to the schema before ratings
    for sql in ("DROP TABLE rating_changes", "DROP TABLE ratings", "ALTER TABLE seats DROP COLUMN takeover",
                # and what the later migrations added: rematches, threads, time away; take-backs
                "DROP INDEX games_one_rematch", "DROP INDEX games_guild_open", "DROP TABLE away",
                "ALTER TABLE games DROP COLUMN parent_id", "ALTER TABLE games DROP COLUMN rematch_of",
                "ALTER TABLE games DROP COLUMN archived", "ALTER TABLE actions DROP COLUMN taken_back",
                "DELETE FROM schema_version WHERE version >= 6"):
        await conn.execute(sql)
    old = Store(conn)
    assert await old.schema_version() == 5
    assert await old.migrate() == len(MIGRATIONS)
    assert await _ratings(old) == expected and len(expected) == 3
    assert (await rebuild(old)).differed == 0
    await old.close()


def test_the_shown_rating_is_the_scaled_ordinal() -> None:
    model = PlackettLuce()
    assert shown(25.0, 25 / 3) == 1000  # a new player
    r = model.rating(mu=30.0, sigma=2.0)
    assert shown(30.0, 2.0) == round(r.ordinal(alpha=40, target=1000)) == 1000 + 40 * 24
    assert pytest.approx(r.ordinal()) == 24.0
