"""Tournaments through the store and the service, on SQLite and PostgreSQL: sign-up and its refusals, whole
Swiss and heats tournaments with real games played to their end, standings recomputed from the stored results,
and each round and table made exactly once (repeated calls, two stores racing)."""

from __future__ import annotations

import asyncio
import random
from fractions import Fraction

import pytest

from bot.service import GameService, UserError
from bot.store import Store
from bot.timers import Timing
from bot.tournaments import Standings, TournamentService, game_of, seated_result
from tournament import Game, Seat, standings

from .helpers import random_move

TIMING = Timing(reminder=60, interval=240, autopass=600)


async def services(url: str) -> tuple[Store, TournamentService, GameService]:
    store = await Store.open(url)
    return store, TournamentService(store, TIMING), GameService(store, timing=TIMING)


async def signed_up(ts: TournamentService, n: int, *, fmt: str = "swiss", **options: object) -> int:
    t = await ts.create(guild_id=7, channel_id=100, host_id=1, name="Spring Cup", fmt=fmt, options=dict(options),
                        seed=5)
    for u in range(1, n + 1):
        await ts.join(t, 1000 + u, f"P{u}")
    return t.id


async def play_round(store: Store, ts: TournamentService, svc: GameService, tid: int, rng: random.Random,
                     threads: list[int]) -> None:
    """Make the current round's tables (a thread id each) and play every game to its end with random moves."""
    t = await store.get_tournament(tid)
    assert t is not None
    names = {e.user_id: e.name for e in await store.entrants(tid)}
    for table in await store.tables_to_make():
        threads.append(9000 + len(threads))
        assert await store.set_table_thread(table, threads[-1])
        table.thread_id = threads[-1]
        assert await ts.table_game(t, table, names) is not None
        assert await ts.table_game(t, table, names) is None  # once
    for table in await store.tournament_tables(tid, t.round):
        assert table.game_id is not None
        while (move := await random_move(svc, table.game_id, rng)) is not None:
            await svc.act(table.game_id, move.user_id, move.action, version=move.version)
    for table, status in await store.tables_ended():
        assert await ts.record(table, status)
        assert not await ts.record(table, status)  # once
    assert await store.finish_round(tid, t.round)
    assert not await store.finish_round(tid, t.round)


def recomputed(rows: Standings, games: list[Game], byes: dict[int, int]) -> None:
    players = [r.player for r in sorted(rows.rows, key=lambda r: r.player)]
    again = {r.player: (r.points, r.games, r.byes, r.buchholz) for r in standings(players, games, byes, "bga", 3)}
    assert {r.player: (r.points, r.games, r.byes, r.buchholz) for r in rows.rows} == again


async def test_bad_input_changes_nothing(db_url: str) -> None:
    store, ts, _ = await services(db_url)
    for name in ("x" * 1000, "**Cup**", "<@123> cup", "Cup\nTwo", "https://x.example", ""):
        with pytest.raises(UserError) as e:
            await ts.create(guild_id=7, channel_id=100, host_id=1, name=name, fmt="swiss", options={})
        assert e.value.code == "tournament_name"
    with pytest.raises(UserError):
        await ts.create(guild_id=7, channel_id=100, host_id=1, name="Cup", fmt="swiss", options={"size": 6})
    assert await store.fetch_all("SELECT COUNT(*) FROM tournaments") == [(0,)]
    tid = await signed_up(ts, 2, size=3)
    t = await store.get_tournament(tid)
    assert t is not None
    with pytest.raises(UserError) as e:
        await ts.join(t, 1001, "P1")
    assert e.value.code == "tournament_already_in"
    with pytest.raises(UserError) as e:
        await ts.start(t)
    assert e.value.code == "tournament_too_few"
    with pytest.raises(UserError) as e:
        await ts.drop(t, 1001)
    assert e.value.code == "tournament_not_running"
    with pytest.raises(UserError) as e:
        await ts.create(guild_id=7, channel_id=100, host_id=1, name="Other", fmt="swiss", options={})
    assert e.value.code == "tournament_busy"
    await ts.join(t, 1003, "P3")
    assert await ts.start(t)
    t = await store.get_tournament(tid)
    assert t is not None and t.status == "running" and t.round == 1
    with pytest.raises(UserError) as e:
        await ts.join(t, 1009, "Late")
    assert e.value.code == "tournament_started"
    with pytest.raises(UserError) as e:
        await ts.drop(t, 1009)
    assert e.value.code == "tournament_not_entrant"
    assert len(await store.entrants(tid)) == 3
    await store.close()


async def test_a_swiss_tournament_to_its_end(db_url: str) -> None:
    """Nine players at tables of 3, three rounds, a drop in round 2: every round once, no repeat opponents
    where avoidable, the standings equal to a recomputation from the results of the games."""
    store, ts, svc = await services(db_url)
    tid = await signed_up(ts, 9, size=3, rounds=3)
    rng = random.Random(3)
    threads: list[int] = []
    t = await store.get_tournament(tid)
    assert t is not None and await ts.start(t)
    assert not await ts.advance(t)  # the same round again: nothing
    for rnd in (1, 2, 3):
        t = await store.get_tournament(tid)
        assert t is not None and t.round == rnd
        if rnd == 2:
            await ts.drop(t, 1005)
        await play_round(store, ts, svc, tid, rng, threads)
        t = await store.get_tournament(tid)
        assert t is not None
        await ts.advance(t)
    t = await store.get_tournament(tid)
    assert t is not None and t.status == "finished" and t.round == 3
    tables = await store.tournament_tables(tid)
    rounds = await store.rounds(tid)
    assert [len([x for x in tables if x.round == r]) for r in (1, 2, 3)] == [3, 3, 3]
    assert all(x.result is not None for x in tables)
    # after the drop (from round 3): 8 players, tables of 3, 3 and 2
    assert sorted(len(x.players) for x in tables if x.round == 3) == [2, 3, 3]
    assert 1005 not in {u for x in tables if x.round == 3 for u in x.players}
    assert all(r.byes == [] for r in rounds)
    # standings from the store equal those recomputed from the games' stored results
    games = []
    for x in tables:
        assert x.game_id is not None
        results = await store.game_results(x.game_id)
        games.append(game_of(type(x)(x.tournament_id, x.round, x.table_no, x.players, x.thread_id, x.game_id,
                                     seated_result(x, results, False))))
    table = await ts.standings(t)
    assert table.finished and {r.player for r in table.rows} == set(range(1001, 1010))
    assert next(r for r in table.rows if r.player == 1005).dropped
    recomputed(table, games, {})
    assert sum(r.points for r in table.rows) == sum(sum(g.points("bga").values()) for g in games)
    await store.close()


async def test_heats_and_a_final_of_twelve(db_url: str) -> None:
    store, ts, svc = await services(db_url)
    tid = await signed_up(ts, 12, fmt="heats", size=3)
    rng = random.Random(4)
    threads: list[int] = []
    t = await store.get_tournament(tid)
    assert t is not None and await ts.start(t)
    stages = []
    t = await store.get_tournament(tid)
    assert t is not None
    while t.status == "running":
        await play_round(store, ts, svc, tid, rng, threads)
        t = await store.get_tournament(tid)
        assert t is not None
        await ts.advance(t)
        t = await store.get_tournament(tid)
        assert t is not None
        stages = [(r.stage, len(await store.tournament_tables(tid, r.round))) for r in await store.rounds(tid)]
    assert stages == [("heat", 4), ("semi", 3), ("final", 1)]
    tables = await store.tournament_tables(tid)
    heat = [game_of(x) for x in tables if x.round == 1]
    semis = [x for x in tables if x.round == 2]
    winners = {s.player for g in heat for s in g.seats if s.place == 1}
    assert winners <= {u for x in semis for u in x.players}
    final = [x for x in tables if x.round == 3][0]
    semi_winners = {s.player for x in semis for s in game_of(x).seats if s.place == 1}
    assert set(final.players) <= semi_winners or len(semi_winners) > 3
    table = await ts.standings(t)
    top = sorted(game_of(final).seats, key=lambda s: (s.place, -Fraction(s.vp, max(1, game_of(final).vp_total))))
    assert table.rows[0].player == top[0].player
    await store.close()


async def test_a_round_and_its_tables_are_made_once_by_racing_stores(db_url: str) -> None:
    store, ts, _ = await services(db_url)
    other, ts2, _ = await services(db_url)
    tid = await signed_up(ts, 8, size=4)
    t = await store.get_tournament(tid)
    assert t is not None
    started = await asyncio.gather(ts.start(t), ts2.start(t), ts.advance(t), ts2.advance(t))
    assert sorted(started) == [False, False, False, True]
    assert [r.round for r in await store.rounds(tid)] == [1]
    t = await store.get_tournament(tid)
    assert t is not None
    names = {e.user_id: e.name for e in await store.entrants(tid)}
    [table, _] = await store.tables_to_make()
    assert await store.set_table_thread(table, 555)
    assert not await other.set_table_thread(table, 556)
    table.thread_id = 555
    made = await asyncio.gather(ts.table_game(t, table, names), ts2.table_game(t, table, names))
    assert sorted(m is None for m in made) == [False, True]
    assert await store.fetch_all("SELECT COUNT(*) FROM games WHERE channel_id = 555") == [(1,)]
    await store.close()
    await other.close()


def test_a_table_result_from_the_game() -> None:
    from bot.store import Result
    from bot.store.tournaments import TableRow

    x = TableRow(1, 1, 1, [11, 12, 13], 5, 9)
    res = [Result(0, 11, "a", 40, 5, False), Result(1, 12, "b", 50, 1, True), Result(2, None, "c 🤖", 40, 5, False)]
    got = seated_result(x, res, False)
    assert got == {"size": 3, "vp_total": 130, "seats": [[11, 2, 40], [12, 1, 50], [13, 2, 40]]}
    assert seated_result(x, res, True)["seats"] == [[11, 1, 0], [12, 1, 0], [13, 1, 0]]
    g = game_of(TableRow(1, 1, 1, [11, 12, 13], 5, 9, got))
    assert g.seats[1] == Seat(12, 1, 50)
