"""Tournaments in SimCord, in virtual time: sign-up by command and button, a whole Swiss tournament of 9
members at tables of 3 over 3 rounds (an absent player played by the time-out, a drop in round 2), heats and
a final with 12 members, a restart in the middle of a round's start, and bad input answered privately with
nothing changed."""

from __future__ import annotations

import random
from pathlib import Path

import discord
import simcord
from simcord.actors import MemberActor

from bot.store import Store
from bot.store.tournaments import TableRow, Tournament
from rules import GameState, legal_moves

from .conftest import make_bot
from .helpers import bot_of, reply_of, setup_members

POLL = 31  # seconds: one timer poll (every 30 s) has run


def store_of(env: simcord.Env) -> Store:
    store = bot_of(env).store
    assert store is not None
    return store


async def tournament(env: simcord.Env, channel: simcord.ChannelHandle) -> Tournament:
    tr = await store_of(env).latest_tournament_in_channel(channel.id)
    assert tr is not None
    return tr


def organiser(env: simcord.Env, guild: simcord.GuildHandle) -> MemberActor:
    role = guild.create_role("organisers", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user("organiser"), roles=[role])


async def play_round(env: simcord.Env, channel: simcord.ChannelHandle, rng: random.Random,
                     absent: set[int] = frozenset()) -> None:  # type: ignore[assignment]
    """Every game of the current round to its end: random legal moves by the players present; an absent
    player's turn is played by the time-out (one minute)."""
    store, svc = store_of(env), bot_of(env).service
    assert svc is not None
    tr = await tournament(env, channel)
    for table in await store.tournament_tables(tr.id, tr.round):
        assert table.game_id is not None
        for _ in range(2000):
            game = await svc.game(table.game_id)
            if game.status != "active":
                break
            st = GameState.from_json(game.state or {})
            uid = game.user_at(st.decider)
            if uid is None or uid in absent:
                await env.advance_time(61)
                continue
            await svc.act(game.id, uid, rng.choice(legal_moves(st)).action, version=game.version)
        assert (await svc.game(table.game_id)).status == "finished"


def threads_named(channel: simcord.ChannelHandle, prefix: str) -> list[simcord.ChannelHandle]:
    return [t for t in channel.threads if (t.name or "").startswith(prefix)]


async def test_a_swiss_tournament_of_nine_in_discord(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cup")
    boss = organiser(env, guild)
    members = setup_members(env, 9, guild)
    r = await members[0].slash(channel, "petersburg tournament create", name="Spring Cup")
    assert "Only an organiser" in reply_of(r).content
    r = await boss.slash(channel, "petersburg tournament create", name="x" * 1000)
    assert "1 to 60 characters" in reply_of(r).content
    r = await boss.slash(channel, "petersburg tournament create", name="**bold** @everyone")
    assert "plain text" in reply_of(r).content
    assert await store_of(env).latest_tournament_in_channel(channel.id) is None
    r = await boss.slash(channel, "petersburg tournament create", name="Spring Cup", size=3, rounds=3,
                         timeout="1m", reminder="off", takeover=False)
    assert reply_of(r).ephemeral and "open for sign-up" in reply_of(r).content
    tr = await tournament(env, channel)
    announcement = next(m for m in channel.history() if m.id == tr.message_id)
    for m in members[:8]:
        r = await m.slash(channel, "petersburg tournament join")
        assert "signed up" in reply_of(r).content
    r = await members[8].click(announcement, custom_id=f"pb:tj:{tr.id}")  # the sign-up button
    assert "signed up" in reply_of(r).content
    r = await members[8].click(announcement, custom_id=f"pb:tj:{tr.id}")
    assert "signed up already" in reply_of(r).content
    shown = next(m for m in channel.history() if m.id == tr.message_id)  # kept current
    assert "(9/64)" in shown.content and all(m.mention in shown.content for m in members)
    r = await members[0].slash(channel, "petersburg tournament start")
    assert "Only an organiser" in reply_of(r).content
    assert (await tournament(env, channel)).status == "signup"

    r = await boss.slash(channel, "petersburg tournament start")
    assert "begins" in reply_of(r).content
    await env.advance_time(5)  # the tables' threads, paced a second apart
    tr = await tournament(env, channel)
    assert tr.status == "running" and tr.round == 1
    late = guild.add_member(env.create_user("late"))
    r = await late.slash(channel, "petersburg tournament join")
    assert "has started" in reply_of(r).content
    r = await boss.slash(channel, "petersburg tournament drop", player=late)
    assert "not a player" in reply_of(r).content
    assert len(await store_of(env).entrants(tr.id)) == 9

    rng = random.Random(7)
    ids = {m.id for m in members}
    for rnd in (1, 2, 3):
        tr = await tournament(env, channel)
        assert tr.round == rnd
        tables = await store_of(env).tournament_tables(tr.id, rnd)
        threads = threads_named(channel, f"Spring Cup · R{rnd} ·")
        assert sorted(t.name or "" for t in threads) == [f"Spring Cup · R{rnd} · T{x.table_no}" for x in tables]
        for x in tables:  # one thread and one started game a table, its players called in it
            thread = next(t for t in threads if t.id == x.thread_id)
            call = [m for m in thread.history() if "your game starts here" in m.content]
            assert len(call) == 1 and all(f"<@{u}>" in call[0].content for u in x.players)
            assert bot_of(env).service is not None
            game = await bot_of(env).service.game(x.game_id or 0)  # type: ignore[union-attr]
            assert game.status == "active" and [s.user_id for s in game.seats] == x.players
            assert game.parent_id == channel.id
        if rnd == 2:
            r = await members[3].slash(channel, "petersburg tournament drop")
            assert "dropped out" in reply_of(r).content
        if rnd == 3:  # 8 players left: tables of 3, 3 and 2, without the dropped player
            assert sorted(len(x.players) for x in tables) == [2, 3, 3]
            assert members[3].id not in {u for x in tables for u in x.players}
        else:
            assert sorted(len(x.players) for x in tables) == [3, 3, 3]
            assert {u for x in tables for u in x.players} == ids
        await play_round(env, channel, rng, absent={members[8].id} if rnd == 1 else set())
        await env.advance_time(POLL)
        await env.advance_time(5)
    tr = await tournament(env, channel)
    assert tr.status == "finished"
    timed_out = await store_of(env).fetch_all(
        "SELECT COUNT(*) FROM actions a JOIN tournament_tables x ON x.game_id = a.game_id WHERE x.round = 1 "
        "AND a.auto = 'timeout'")
    assert timed_out[0][0] > 0  # the absent player's moves
    standing = next(m for m in channel.history() if m.id == tr.standings_message_id)
    assert standing.embeds and "final standings" in (standing.embeds[0].title or "")
    assert "(dropped)" in (standing.embeds[0].description or "")
    podium = [m for m in channel.history() if "is over" in m.content]
    assert len(podium) == 1 and "🥇" in podium[0].content
    r = await members[0].slash(channel, "petersburg tournament standings")
    text = reply_of(r).content
    assert reply_of(r).ephemeral and text.count("\n") == 10  # title, header, nine players
    # every round and table once: 3 rounds, 9 tables, 9 threads, 9 games
    assert await store_of(env).fetch_all("SELECT COUNT(*) FROM tournament_tables") == [(9,)]
    assert len(threads_named(channel, "Spring Cup")) == 9


async def signed_up(env: simcord.Env, n: int, **options: object) -> tuple[simcord.ChannelHandle, MemberActor,
                                                                          list[MemberActor]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("cup")
    boss = organiser(env, guild)
    members = setup_members(env, n, guild)
    r = await boss.slash(channel, "petersburg tournament create", name="Cup", **options)
    assert "open for sign-up" in reply_of(r).content
    for m in members:
        await m.slash(channel, "petersburg tournament join")
    return channel, boss, members


async def test_heats_and_a_final_of_twelve_in_discord(env: simcord.Env) -> None:
    channel, boss, members = await signed_up(env, 12, format="heats", size=3, timeout="1m", reminder="off")
    await boss.slash(channel, "petersburg tournament start")
    await env.advance_time(5)
    rng = random.Random(11)
    stages = []
    for _ in range(4):
        tr = await tournament(env, channel)
        if tr.status != "running":
            break
        rnd = (await store_of(env).rounds(tr.id))[-1]
        stages.append((rnd.stage, len(await store_of(env).tournament_tables(tr.id, rnd.round))))
        round_call = [m for m in channel.history() if f"round {rnd.round} (" in m.content]
        assert len(round_call) == 1  # one mention of the round's players
        await play_round(env, channel, rng)
        await env.advance_time(POLL)
        await env.advance_time(5)
    assert stages == [("heat", 4), ("semi", 3), ("final", 1)]
    tr = await tournament(env, channel)
    assert tr.status == "finished"
    final = (await store_of(env).tournament_tables(tr.id, 3))[0]
    heat_winners = {s[0] for x in await store_of(env).tournament_tables(tr.id, 1) for s in (x.result or {})["seats"]
                    if s[1] == 1}
    semi = {u for x in await store_of(env).tournament_tables(tr.id, 2) for u in x.players}
    assert heat_winners <= semi and len(semi) == 9 and set(final.players) <= semi
    podium = [m for m in channel.history() if "is over" in m.content]
    best = sorted((final.result or {})["seats"], key=lambda s: s[1])[0][0]
    assert len(podium) == 1 and podium[0].content.index(f"<@{best}>") < podium[0].content.index("🥈")


async def test_a_restart_in_the_middle_of_a_round_start_completes_it_once(env: simcord.Env, db_path: Path) -> None:
    """The process dies after opening table 2's thread and before storing it: the next process finds that thread
    by its name and completes the round, with no second thread or game for any table."""
    channel, boss, members = await signed_up(env, 9, size=3)
    old = bot_of(env)
    store = store_of(env)
    real = store.set_table_thread
    calls = []

    class Killed(Exception):
        pass

    async def dies_at_the_second(table: TableRow, thread_id: int) -> bool:
        calls.append(thread_id)
        if len(calls) == 2:
            raise Killed("SIGKILL")
        return await real(table, thread_id)

    store.set_table_thread = dies_at_the_second  # type: ignore[method-assign,assignment]
    await boss.slash(channel, "petersburg tournament start")
    await env.advance_time(3)
    assert len(calls) == 2 and len(threads_named(channel, "Cup · R1")) == 2
    tr = await tournament(env, channel)
    made = [x for x in await store.tournament_tables(tr.id, 1) if x.game_id is not None]
    assert len(made) == 1
    old.bugs.clear()  # the "kill" (logged by the old process)
    await env.restart_bot(make_bot(db_path, sync=False))
    await old.store.close() if old.store is not None else None
    await env.advance_time(POLL)
    await env.advance_time(5)
    tr = await tournament(env, channel)
    tables = await store_of(env).tournament_tables(tr.id, 1)
    threads = threads_named(channel, "Cup · R1")
    assert len(threads) == 3 and sorted(x.thread_id or 0 for x in tables) == sorted(t.id for t in threads)
    assert all(x.game_id is not None for x in tables)
    assert await store_of(env).fetch_all("SELECT COUNT(*) FROM games") == [(3,)]
    for x in tables:
        thread = next(t for t in threads if t.id == x.thread_id)
        assert len([m for m in thread.history() if "your game starts here" in m.content]) == 1


async def test_the_deadline_hurries_an_absent_player(env: simcord.Env) -> None:
    """A round of one hour whose games have a day's time-out, one player away for 30 days: past the deadline
    the absent player is played after a minute all the same, so the round ends."""
    channel, boss, members = await signed_up(env, 3, size=3, rounds=1, deadline_hours=1, timeout="1d",
                                             reminder="off", takeover=False)
    r = await members[0].slash(channel, "petersburg away", days=30)
    assert reply_of(r).ephemeral
    await boss.slash(channel, "petersburg tournament start")
    await env.advance_time(5)
    svc = bot_of(env).service
    assert svc is not None
    tr = await tournament(env, channel)
    [table] = await store_of(env).tournament_tables(tr.id, 1)
    absent = members[0].id
    rng = random.Random(2)
    hurried = False
    for _ in range(3000):
        game = await svc.game(table.game_id or 0)
        if game.status != "active":
            break
        st = GameState.from_json(game.state or {})
        uid = game.user_at(st.decider)
        if uid == absent:
            await env.advance_time(61 if hurried else 3600)
            hurried = True
            continue
        assert uid is not None
        await svc.act(game.id, uid, rng.choice(legal_moves(st)).action, version=game.version)
    assert hurried and (await svc.game(table.game_id or 0)).status == "finished"
    assert (await store_of(env).rounds(tr.id))[0].hurried
    assert any("deadline has passed" in m.content for m in channel.history())
    await env.advance_time(POLL)
    assert (await tournament(env, channel)).status == "finished"


async def test_the_tournament_group_fits_discord(env: simcord.Env) -> None:
    guild = env.create_guild()
    root = env.backend.find_command("petersburg", guild.id, type=1)
    assert root is not None
    subs = {o["name"]: o for o in root["options"]}
    assert len(subs) <= 25 and "tournament" in subs
    assert sorted(o["name"] for o in subs["tournament"]["options"]) == [
        "adjudicate", "cancel", "create", "drop", "join", "leave", "settings", "standings", "start"]


async def test_the_rules_tell_of_tournaments(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("cup")
    [member] = setup_members(env, 1, guild)
    r = await member.slash(channel, "petersburg rules")
    [embed] = reply_of(r).embeds
    field = next(f for f in embed.fields if f.name == "Tournaments")
    assert "/petersburg tournament create" in (field.value or "") and "Buchholz" in (field.value or "")


async def test_settings_window_and_cancel_answer_privately(env: simcord.Env) -> None:
    channel, boss, members = await signed_up(env, 2, size=2, signup_hours=1)
    tr = await tournament(env, channel)
    r = await members[0].slash(channel, "petersburg tournament settings")
    assert "tables of 2" in reply_of(r).content
    r = await members[0].slash(channel, "petersburg tournament settings", rounds=5)
    assert "Only an organiser" in reply_of(r).content
    r = await boss.slash(channel, "petersburg tournament settings", rounds=5, size=3)
    assert "changed the options" in reply_of(r).content and "Swiss, 5 rounds" in reply_of(r).content
    assert (await tournament(env, channel)).settings["rounds"] == 5
    r = await boss.slash(channel, "petersburg tournament start")
    assert "2 players have signed up; the tournament needs at least 3" in reply_of(r).content
    late = setup_members(env, 1, channel.guild, prefix="late")[0]
    await env.advance_time(3700)  # the sign-up window has closed
    r = await late.slash(channel, "petersburg tournament join")
    assert "window" in reply_of(r).content and len(await store_of(env).entrants(tr.id)) == 2
    r = await members[1].slash(channel, "petersburg tournament leave")
    assert "no longer signed up" in reply_of(r).content
    r = await members[0].slash(channel, "petersburg tournament cancel")
    assert "Only an organiser" in reply_of(r).content
    r = await boss.slash(channel, "petersburg tournament cancel")
    assert "is cancelled" in reply_of(r).content
    announcement = next(m for m in channel.history() if m.id == tr.message_id)
    assert "Cancelled" in announcement.content and not announcement.components  # the button is gone
    r = await late.slash(channel, "petersburg tournament join")
    assert "no tournament open" in reply_of(r).content


async def test_an_organiser_extends_a_round(env: simcord.Env) -> None:
    channel, boss, members = await signed_up(env, 3, size=3, rounds=1, deadline_hours=1, reminder="off")
    r = await boss.slash(channel, "petersburg tournament settings", extend_hours=2)
    assert "not running" in reply_of(r).content
    await boss.slash(channel, "petersburg tournament start")
    tr = await tournament(env, channel)
    before = (await store_of(env).rounds(tr.id))[0].deadline
    r = await members[0].slash(channel, "petersburg tournament settings", extend_hours=2)
    assert "Only an organiser" in reply_of(r).content
    r = await boss.slash(channel, "petersburg tournament settings", extend_hours=2)
    assert "moved the deadline" in reply_of(r).content
    assert (await store_of(env).rounds(tr.id))[0].deadline == before + 7200
    assert any("moved the deadline" in m.content for m in channel.history())  # told in the channel
    await env.advance_time(3600 + POLL)
    assert not (await store_of(env).rounds(tr.id))[0].hurried
    await env.advance_time(7200)
    assert (await store_of(env).rounds(tr.id))[0].hurried
    r = await boss.slash(channel, "petersburg tournament settings", extend_hours=2)
    assert "deadline has passed" in reply_of(r).content
