"""Tournaments in SimCord: the games' options given at ``tournament create`` (parts as the lobby names them,
language, hints, computers filling a table), and an organiser adjudicating tables (bad input refused
privately, nothing changed; the decision in the game's thread and the channel, the standings after it)."""

from __future__ import annotations

import simcord

from bot.service import UserError
from bot.tournament_judge import parse_places

from .helpers import bot_of, reply_of
from .test_tournament_discord import POLL, signed_up, store_of, tournament


def test_places_are_a_tables_ranking() -> None:
    assert parse_places("2 1 3", 3) == [2, 1, 3]
    assert parse_places("1,1,3", 3) == [1, 1, 3]
    assert parse_places(" 3 1 1 ", 3) == [3, 1, 1]
    for bad in ("1 1 2", "1 2", "1 2 3 4", "0 1 2", "1 2 x", "2 2 3", ""):
        try:
            parse_places(bad, 3)
        except UserError as e:
            assert e.code == "tournament_places"
        else:
            raise AssertionError(bad)


async def test_an_organiser_adjudicates_tables(env: simcord.Env) -> None:
    channel, boss, members = await signed_up(env, 6, size=3, rounds=1, reminder="off")
    r = await boss.slash(channel, "petersburg tournament adjudicate", round=1, table=1, places="1 2 3")
    assert "not running" in reply_of(r).content
    await boss.slash(channel, "petersburg tournament start")
    await env.advance_time(5)
    tr = await tournament(env, channel)
    store = store_of(env)
    tables = await store.tournament_tables(tr.id, 1)
    assert len(tables) == 2 and all(x.game_id for x in tables)
    for who, options, answer in ((members[0], {"round": 1, "table": 1, "places": "2 1 3"}, "Only an organiser"),
                                 (boss, {"round": 1, "table": 1, "places": "1 1 2"}, "one place for each"),
                                 (boss, {"round": 1, "table": 1, "places": "1 2"}, "one place for each"),
                                 (boss, {"round": 2, "table": 1, "places": "1 2 3"}, "no such table"),
                                 (boss, {"round": 1, "table": 7, "places": "1 2 3"}, "no such table")):
        r = await who.slash(channel, "petersburg tournament adjudicate", **options)
        assert reply_of(r).ephemeral and answer in reply_of(r).content, (options, reply_of(r).content)
    assert all(x.result is None for x in await store.tournament_tables(tr.id, 1))  # nothing changed
    first = tables[0]
    r = await boss.slash(channel, "petersburg tournament adjudicate", round=1, table=1, places="2 1 3")
    assert "adjudicated" in reply_of(r).content
    decided = (await store.tournament_tables(tr.id, 1))[0]
    assert decided.result is not None and decided.result["adjudicated"]
    assert sorted((u, p) for u, p, _ in decided.result["seats"]) == sorted(zip(first.players, [2, 1, 3],
                                                                               strict=True))
    svc = bot_of(env).service
    assert svc is not None
    game = await svc.game(first.game_id or 0)
    assert game.status == "aborted"
    await env.advance_time(2)
    thread = next(t for t in channel.threads if t.id == first.thread_id)
    assert any("adjudicated the table" in m.content for m in thread.history())  # the game's log
    assert any("adjudicated Cup, round 1, table 1" in m.content for m in channel.history())
    assert await store.fetch_all("SELECT COUNT(*) FROM rating_changes WHERE game_id = ?", (game.id,)) == [(0,)]
    r = await boss.slash(channel, "petersburg tournament adjudicate", round=1, table=1, places="1 2 3")
    assert "recorded already" in reply_of(r).content
    tr = await tournament(env, channel)
    standing = next(m for m in channel.history() if m.id == tr.standings_message_id)
    winner = first.players[1]
    assert standing.embeds and (standing.embeds[0].description or "").split("\n")[1].startswith("1. ")
    names = {e.user_id: e.name for e in await store.entrants(tr.id)}
    assert (standing.embeds[0].description or "").split("\n")[1].startswith(f"1. {names[winner]}: **6**")
    r = await boss.slash(channel, "petersburg tournament adjudicate", round=1, table=2, places="1 1 1")
    assert "adjudicated" in reply_of(r).content
    await env.advance_time(POLL)
    tr = await tournament(env, channel)
    assert tr.status == "finished"  # the round's last table decided: the one-round tournament is over
    assert any("is over" in m.content for m in channel.history())


async def test_the_games_options_at_create(env: simcord.Env) -> None:
    channel, boss, members = await signed_up(env, 5, size=3, rounds=1, parts="market, module2", language="de",
                                             computers=True, reminder="off")
    tr = await tournament(env, channel)
    assert tr.settings["expansions"] == ["market"] and tr.settings["modules"] == [2]
    assert tr.settings["lang"] == "de" and tr.settings["hints"] == 0 and tr.settings["computers"] == 1
    announcement = next(m for m in channel.history() if m.id == tr.message_id)
    assert "Markt" in announcement.content or "Market" in announcement.content
    r = await boss.slash(channel, "petersburg tournament settings", parts="market, nonsense")
    assert reply_of(r).ephemeral and "nonsense" in reply_of(r).content
    r = await boss.slash(channel, "petersburg tournament settings", edition=1)
    assert reply_of(r).ephemeral and (await tournament(env, channel)).settings["edition"] == 2
    await boss.slash(channel, "petersburg tournament start")
    await env.advance_time(5)
    tables = await store_of(env).tournament_tables(tr.id, 1)
    assert [len(x.players) for x in tables] == [3, 3]  # 5 players and one computer, no table of 2
    svc = bot_of(env).service
    assert svc is not None
    seats = [s for x in tables for s in (await svc.game(x.game_id or 0)).seats]
    assert sum(1 for s in seats if s.computer) == 1 and {s.user_id for s in seats} - {None} == {m.id for m in members}
    game = await svc.game(tables[0].game_id or 0)
    assert game.lang == "de" and game.ruleset["expansions"] == ["market"] and game.settings["hints"] == 0
    thread = next(t for t in channel.threads if t.id == tables[0].thread_id)
    player = next(m for m in members if m.id in tables[0].players)
    r = await player.slash(thread, "petersburg hint")  # hints are off in the tournament's games
    assert reply_of(r).ephemeral and "Hinweise in diesem Spiel ausgeschaltet" in reply_of(r).content
