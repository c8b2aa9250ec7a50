"""🔁 Rematch on the final scores: the first press of one of the game's players opens a lobby with the same
options, language and computer seats, hosted by the presser (in the same channel, or a new thread when the
game was in one); the others are mentioned once and join with one click; a later press, or a press at the
same moment (in one process, or in two processes on either database), finds the same lobby."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import discord
import simcord
from simcord.actors import MemberActor

from bot.service import GameService
from bot.store import Store
from rules import GameState, legal_moves

from .helpers import bot_of, game_in, play_to_end, reply_of, setup_members, start_game


def _rematch_button(channel: simcord.ChannelHandle) -> tuple[discord.Message, str]:
    for m in reversed(channel.history()):
        for row in m.components:
            for c in getattr(row, "children", []):
                if (c.custom_id or "").startswith("pb:rm:"):
                    assert c.label == "Rematch" or c.label == "Revanche"
                    return m, c.custom_id
    raise AssertionError("no Rematch button")


async def _finished(env: simcord.Env, channel: simcord.ChannelHandle, n: int = 2,
                    **create: object) -> list[MemberActor]:
    players = setup_members(env, n, channel.guild)
    await start_game(env, channel, players, **create)
    await play_to_end(env, channel, players)
    return players


async def test_rematch_opens_one_lobby_like_the_game_and_a_second_press_links_it(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("petersburg")
    a, b = await _finished(env, channel, edition=1, money="hidden", language="de")
    old = await game_in(env, channel)
    final, cid = _rematch_button(channel)
    assert channel.guild is not None
    outsider = channel.guild.add_member(env.create_user("onlooker"))
    r = await outsider.click(final, custom_id=cid)
    assert reply_of(r).ephemeral and "Nur wer mitgespielt hat" in reply_of(r).content
    r = await b.click(final, custom_id=cid)
    assert reply_of(r).ephemeral and "Die Lobby der Revanche ist offen" in reply_of(r).content
    lobby = await game_in(env, channel)
    assert lobby.id != old.id and lobby.status == "lobby" and lobby.rematch_of == old.id
    assert lobby.host_id == b.id and lobby.lang == "de" and lobby.channel_id == channel.id
    assert lobby.ruleset == {"edition": 1, "open_money": False}
    assert [s.user_id for s in lobby.seats] == [b.id]
    calls = [m for m in channel.history() if a.mention in m.content and "Revanche" in m.content]
    assert len(calls) == 1 and b.mention in calls[0].content  # the others mentioned once
    assert lobby.board_message_id is not None and f"/{lobby.board_message_id}" in calls[0].content
    r = await a.click(final, custom_id=cid)  # the second press: the lobby already open
    assert "schon offen" in reply_of(r).content and f"/{lobby.board_message_id}" in reply_of(r).content
    assert len([m for m in channel.history() if a.mention in m.content and "Revanche" in m.content]) == 1
    lobby_msg = next(m for m in channel.history() if m.id == lobby.board_message_id)
    r = await a.click(lobby_msg, custom_id=f"pb:l:{lobby.id}:join")  # one click
    store = bot_of(env).store
    assert store is not None
    joined = await store.get_game(lobby.id)
    assert joined is not None and joined.seat_of(a.id) == 1


async def test_a_game_in_a_thread_gets_its_rematch_in_a_new_thread(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    a, b = setup_members(env, 2, guild)
    await a.slash(channel, "petersburg create", thread=True)
    thread = channel.threads[0]
    await b.slash(thread, "petersburg join")
    await a.slash(thread, "petersburg start")
    await play_to_end(env, thread, [a, b])
    old = await game_in(env, thread)
    final, cid = _rematch_button(thread)
    first = await b.click(final, custom_id=cid)
    second = await a.click(final, custom_id=cid)
    answers = [reply_of(x).content.split(":")[0] for x in (first, second)]
    assert answers == ["The rematch lobby is open", "The rematch lobby is already open"], answers
    assert len(channel.threads) == 2  # the game's thread and the rematch's
    new = next(t for t in channel.threads if t.id != thread.id)
    lobby = await game_in(env, new)
    assert lobby.rematch_of == old.id and lobby.parent_id == channel.id
    assert [s.user_id for s in lobby.seats] == [b.id] and lobby.host_id == b.id
    assert any(a.mention in m.content for m in new.history())  # called into the new thread
    assert any(new.mention in m.content and "rematch" in m.content for m in channel.history())


async def _finished_by_service(svc: GameService, channel: int) -> int:
    """A finished 2-player game with a computer seat, played by random legal moves through the service."""
    game = await svc.create(guild_id=7, channel_id=channel, user_id=10, name="Ann", seed=3)
    await svc.add_computer(channel, 10, "easy", "Easy")
    await svc.join(channel, 11, "Bob")
    await svc.start(channel, 10)
    rng = random.Random(3)
    while True:
        g = await svc.game(game.id)
        if g.status != "active":
            return game.id
        st = GameState.from_json(g.state or {})
        action = rng.choice(legal_moves(st)).action
        uid = g.user_at(st.decider)
        if uid is None:
            await svc.computer_act(g.id, st.decider, g.version, action)
        else:
            await svc.act(g.id, uid, action, version=g.version)


async def test_rematch_race_of_two_processes_opens_one_lobby(db_url: str, tmp_path: Path) -> None:
    """Two services on one database (two processes): presses at once, in the channel and in two new threads,
    give one lobby; the database's unique index decides."""
    stores = [await Store.open(db_url), await Store.open(db_url)]
    try:
        one, two = GameService(stores[0]), GameService(stores[1])
        game_id = await _finished_by_service(one, 100)
        got = await asyncio.gather(one.rematch(game_id, 10, "Ann"), two.rematch(game_id, 11, "Bob"),
                                   one.rematch(game_id, 11, "Bob"))  # the last: the same process, its lock
        assert sorted(created for _, created in got) == [False, False, True]
        assert got[0][0].id == got[2][0].id
        assert got[0][0].id == got[1][0].id
        lobby = got[0][0]
        assert [(s.name, s.computer) for s in lobby.seats][1:] == [("Easy", "easy")]
        # the lobby closes: a new press opens another; now racing from two new threads
        await one.leave(100, lobby.host_id)
        again = await asyncio.gather(one.rematch(game_id, 10, "Ann", channel_id=201),
                                     two.rematch(game_id, 11, "Bob", channel_id=202))
        assert sorted(created for _, created in again) == [False, True] and again[0][0].id == again[1][0].id
        assert len(await stores[0].fetch_all("SELECT id FROM games WHERE rematch_of = ? AND status = 'lobby'",
                                             (game_id,))) == 1
    finally:
        for s in stores:
            await s.close()
