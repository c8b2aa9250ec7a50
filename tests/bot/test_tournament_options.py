"""A tournament's game options through the store and the service: the parts (validated by the rules core, as a
lobby's), the language, take-backs and hints in every table's game; unrated tournaments left out of the
ratings (also by a rebuild); computer players filling the tables short of players, never in the standings."""

from __future__ import annotations

import json
import random

import pytest

from bot.ratings import rebuild_in
from bot.service import GameService, UserError
from bot.store import Store
from bot.tournaments import TournamentService
from rules import GameState, legal_moves

from .helpers import random_move
from .test_tournament_service import services, signed_up


async def play_all(store: Store, ts: TournamentService, svc: GameService, tid: int, rng: random.Random) -> None:
    """Make the current round's tables and play their games to the end (random moves, the computers' too)."""
    t = await store.get_tournament(tid)
    assert t is not None
    names = {e.user_id: e.name for e in await store.entrants(tid)}
    for i, table in enumerate(await store.tables_to_make()):
        assert await store.set_table_thread(table, 9000 + 100 * t.round + i)
        table.thread_id = 9000 + 100 * t.round + i
        assert await ts.table_game(t, table, names) is not None
    for table in await store.tournament_tables(tid, t.round):
        assert table.game_id is not None
        while True:
            game = await svc.game(table.game_id)
            if game.status != "active":
                break
            st = GameState.from_json(game.state or {})
            if game.computer_at(st.decider) is not None:
                await svc.computer_act(game.id, st.decider, game.version, rng.choice(legal_moves(st)).action)
                continue
            move = await random_move(svc, table.game_id, rng)
            assert move is not None
            await svc.act(table.game_id, move.user_id, move.action, version=move.version)
    for table, status in await store.tables_ended():
        assert await ts.record(table, status)
    assert await store.finish_round(tid, t.round)


async def test_the_games_have_the_tournaments_parts_and_options(db_url: str) -> None:
    store, ts, _ = await services(db_url)
    tid = await signed_up(ts, 4, size=4, expansions=["market"], modules=[2], lang="de", takeback=0)
    t = await store.get_tournament(tid)
    assert t is not None and t.settings["hints"] == 0 and t.settings["rated"] == 1  # hints off by default
    assert await ts.start(t)
    t = await store.get_tournament(tid)
    assert t is not None
    [table] = await store.tables_to_make()
    assert await store.set_table_thread(table, 9001)
    table.thread_id = 9001
    game_id = await ts.table_game(t, table, {})
    assert game_id is not None
    game = await store.get_game(game_id)
    assert game is not None and game.lang == "de"
    assert game.ruleset["expansions"] == ["market"] and game.ruleset["modules"] == [2]
    assert game.settings["takeback"] == 0 and game.settings["hints"] == 0 and game.settings["rated"] == 1
    await store.close()


def test_parts_are_read_as_the_lobby_names_them() -> None:
    from bot.tournament_options import parse_parts

    assert parse_parts("Market, module2 module6", 2) == {"expansions": ["market"], "modules": [2, 6]}
    assert parse_parts("none", 2) == {"expansions": [], "modules": []}
    with pytest.raises(UserError) as e:
        parse_parts("market", 1)  # the Market is the second edition's
    assert e.value.code == "tournament_parts"


async def test_parts_the_rules_refuse_change_nothing(db_url: str) -> None:
    store, ts, _ = await services(db_url)
    for options, code in (({"edition": 1, "expansions": ["new_society", "new_society_replacements_only"]},
                           "ruleset_excludes"),
                          ({"edition": 1, "expansions": ["market"]}, "tournament_parts"),
                          ({"lang": "fr"}, "tournament_lang"),
                          ({"size": 5}, "tournament_size")):  # five seats need the Market
        with pytest.raises(UserError) as e:
            await ts.create(guild_id=7, channel_id=100, host_id=1, name="Cup", fmt="swiss", options=options)
        assert e.value.code == code, options
    assert await store.fetch_all("SELECT COUNT(*) FROM tournaments") == [(0,)]
    tid = await signed_up(ts, 2, size=5, expansions=["market"])
    t = await store.get_tournament(tid)
    assert t is not None
    with pytest.raises(UserError) as e:  # without the Market, tables of 5 are refused: nothing changes
        await ts.update(t, {"expansions": []})
    assert e.value.code == "tournament_size"
    t = await store.get_tournament(tid)
    assert t is not None and t.settings["expansions"] == ["market"]
    await store.close()


@pytest.mark.parametrize("rated", [True, False])
async def test_an_unrated_tournament_leaves_the_ratings_alone(db_url: str, rated: bool) -> None:
    store, ts, svc = await services(db_url)
    tid = await signed_up(ts, 4, size=2, rounds=1, rated=int(rated))
    t = await store.get_tournament(tid)
    assert t is not None and await ts.start(t)
    await play_all(store, ts, svc, tid, random.Random(1))
    changes = await store.fetch_all("SELECT COUNT(DISTINCT game_id) FROM rating_changes")
    assert changes == [(2 if rated else 0,)]
    async with store.transaction() as tx:
        again = await rebuild_in(tx)
    assert again.games == (2 if rated else 0) and again.differed == 0
    await store.close()


async def test_computer_players_fill_the_tables(db_url: str) -> None:
    """Ten players at tables of 4 with computers: three tables of 4, the two computer seats at two tables; the
    computers' places count for the players' points (a place behind a computer is a place lost), but the
    computers are in no standings, no pairing history and no mention."""
    store, ts, svc = await services(db_url)
    tid = await signed_up(ts, 10, size=4, rounds=2, computers=1)
    t = await store.get_tournament(tid)
    assert t is not None and await ts.start(t)
    rng = random.Random(2)
    for rnd in (1, 2):
        tables = await store.tournament_tables(tid, rnd)
        assert [len(x.players) for x in tables] == [4, 4, 4]
        assert sorted(sum(1 for u in x.players if u < 0) for x in tables) == [0, 1, 1]
        assert (await store.rounds(tid))[-1].byes == []
        await play_all(store, ts, svc, tid, rng)
        for x in tables:
            again = [y for y in await store.tournament_tables(tid, rnd) if y.table_no == x.table_no][0]
            assert again.game_id is not None
            game = await store.get_game(again.game_id)
            assert game is not None
            assert [s.computer is not None for s in game.seats] == [u < 0 for u in x.players]
            assert again.result is not None and again.result["size"] == 4
            assert all(u > 0 for u, _, _ in again.result["seats"])
        t = await store.get_tournament(tid)
        assert t is not None
        await ts.advance(t)
    t = await store.get_tournament(tid)
    assert t is not None and t.status == "finished"
    table = await ts.standings(t)
    assert {r.player for r in table.rows} == set(range(1001, 1011))
    assert all(r.games == 2 for r in table.rows)
    await store.close()


async def test_the_stored_settings_are_json(db_url: str) -> None:
    store, ts, _ = await services(db_url)
    tid = await signed_up(ts, 2, computers=True, hints=True)
    (raw,) = (await store.fetch_all("SELECT settings FROM tournaments WHERE id = ?", (tid,)))[0]
    assert json.loads(raw)["computers"] == 1 and json.loads(raw)["hints"] == 1
    await store.close()

