"""Ratings in Discord: the final scores give each player's new rating and its change (a game played to the end,
in German), the leaderboard by rating (people only, everyone) and by wins, and the rule in ``/petersburg
rules``."""

from __future__ import annotations

import re

import simcord

from bot.ratings import USER, shown
from bot.ratings_view import final_rating_field, standings

from .helpers import bot_of, game_in, new_table, play_to_end
from .test_history import _play_through_service
from .test_ratings import _me, _synthetic


async def test_a_game_to_the_end_shows_the_rating_changes(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2, language="de")
    await play_to_end(env, channel, players)
    game = await game_in(env, channel)
    store = bot_of(env).store
    assert store is not None and game.final_posted
    [final] = [m for m in channel.history() if m.content.startswith("🏁")]
    [field] = [f for f in final.embeds[0].fields if f.name == "Wertungszahlen"]
    rows = await store.fetch_all("SELECT user_id, mu_before, sigma_before, mu, sigma FROM rating_changes "
                                 "WHERE game_id = ? ORDER BY seat", (game.id,))
    assert [r[0] for r in rows] == [p.id for p in players]
    lines = (field.value or "").splitlines()
    for line, (uid, mu0, s0, mu, s) in zip(lines, rows, strict=True):
        new, change = shown(mu, s), shown(mu, s) - shown(mu0, s0)
        assert line == f"<@{uid}>: **{new}** ({change:+d})".replace("-", "−")
    best = (await store.results(game.id))[0]
    assert best.winner and f"<@{best.user_id}>: **" in lines[0 if best.user_id == players[0].id else 1]
    assert "(+" in lines[0 if best.user_id == players[0].id else 1]  # the winner gains


async def test_the_leaderboard_by_rating_people_or_everyone_and_by_wins(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("lobby")
    members = [guild.add_member(env.create_user(f"m{i}")) for i in range(3)]
    a, b, c = members
    svc = bot_of(env).service
    store = bot_of(env).store
    assert svc is not None and store is not None
    for n, table in enumerate([[a, b], [b, c, a]]):
        await _play_through_service(svc, guild.id, guild.create_text_channel(f"g{n}").id,
                                    [(m.id, m.name) for m in table], seed=n + 11)
    # c beats two computer players seated from the start; a's seat was taken over by a computer: not counted
    gid = await _synthetic(store, [
        {"user": c.id, "vp": 50, "winner": True, "moves": _me(c.id, 5)},
        {"computer": "normal", "vp": 40, "moves": [(None, "computer")] * 5},
        {"computer": "normal", "vp": 35, "moves": [(None, "computer")] * 5},
        {"computer": "normal", "takeover": True, "vp": 30, "moves": _me(a.id, 1) + [(None, "computer")] * 4}],
        guild=guild.id)
    game = await store.get_game(gid)
    assert game is not None
    field = await final_rating_field(store, game, "en")
    assert field is not None and field[0] == "Ratings"
    assert f"<@{c.id}>: **" in field[1] and "rated above Normal" in field[1] and "🤖 Normal: **" in field[1]
    assert "s3: not rated" in field[1] and field[1].count("🤖 Normal") == 1

    everyone = await standings(store, guild.id, everyone=True)
    people = [r for r in everyone if r.player.startswith(USER)]
    assert len(people) == 3 and len(everyone) == 4
    r = await a.slash(channel, "petersburg leaderboard")
    assert r.response is not None and not r.ephemeral
    lines = r.response.content.splitlines()
    assert lines[0] == "🏆 **Leaderboard by rating** (people; finished games in this server)"
    assert lines[1:4] == [f"{k}. <@{x.player.removeprefix(USER)}> — **{x.shown}** · {x.games} games · {x.wins} wins"
                          for k, x in enumerate(people, 1)]
    normal = next(x for x in everyone if x.player == "computer:normal")
    assert lines[4] == f"🤖 Computer players: Normal {normal.shown}"
    r = await a.slash(channel, "petersburg leaderboard", who="everyone")
    assert r.response is not None
    lines = r.response.content.splitlines()
    assert "people and computer players" in lines[0] and len(lines) == 5
    assert [re.sub(r" — .*", "", x) for x in lines[1:]] == [
        f"{k}. " + (f"<@{x.player.removeprefix(USER)}>" if x.player.startswith(USER) else "🤖 Normal")
        for k, x in enumerate(everyone, 1)]
    r = await a.slash(channel, "petersburg leaderboard", by="wins")  # as before: games among people
    assert r.response is not None
    assert r.response.content.splitlines()[0] == "🏆 **Leaderboard** (finished games in this server)"
    assert "won" in r.response.content and "**" not in r.response.content.splitlines()[1]


async def test_the_rules_tell_how_ratings_count(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    r = await players[0].slash(channel, "petersburg rules")
    assert r.response is not None and r.ephemeral
    [embed] = r.response.embeds
    assert embed.title == "Ratings" and "most of its moves" in (embed.description or "")
    assert "1000 + 40 × (μ − 3σ)" in (embed.description or "")
