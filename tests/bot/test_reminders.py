"""Turn reminders and the time-out for absent players, driven by SimCord's virtual time."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import simcord
from simcord.actors import MemberActor

from bot.store import Seat, Store
from bot.timers import Timer

from .conftest import make_bot
from .helpers import (
    act_by_buttons,
    board_message,
    bot_of,
    decider,
    decider_of,
    game_in,
    new_table,
    play_to_end,
    reply_of,
    setup_members,
    start_game,
    state_in,
    texts,
)

MIN = 60.0


async def _setup(env: simcord.Env, n: int = 2, **settings: str) -> tuple[simcord.ChannelHandle, list[MemberActor]]:
    channel, players = await new_table(env, n)
    if settings:
        r = await players[0].slash(channel, "petersburg host settings", **settings)
        assert r.response is not None and r.ephemeral and "set game" in r.response.content, r
        # everyone at the table sees the new settings in the channel
        assert texts([m for m in channel.history() if not m.flags.ephemeral], r.response.content) == [
            r.response.content]
    return channel, players


def _pings(env: simcord.Env, channel: simcord.ChannelHandle, who: MemberActor) -> list[str]:
    """Every reminder the bot posted in the channel for ``who`` (a reminder replaces the one before it, so
    they are counted as sent, not as still there)."""
    return [req.json["content"] for req in env.http_requests
            if req.method == "POST" and req.path == f"/channels/{channel.id}/messages"
            and isinstance(req.json, dict) and "⏰" in (req.json.get("content") or "")
            and who.mention in req.json["content"]]


def _shown(channel: simcord.ChannelHandle, needle: str) -> list[str]:
    """The channel's messages (still there) that contain ``needle``."""
    return texts(channel.history(), needle)


def _dms(who: MemberActor) -> list[str]:
    return texts(who.user.dm_channel.history(), "⏰")


async def test_reminder_once_then_every_interval_and_not_after_acting(env: simcord.Env) -> None:
    channel, players = await _setup(env, reminder="30", interval="2h")
    first = decider(channel, players)
    assert not _shown(channel, "it is your turn")  # the game just started: at the board, not pinged
    await env.advance_time(6 * MIN)
    assert _shown(channel, f"{first.mention}, it is your turn.")  # no move within the live window: pinged
    await env.advance_time(23 * MIN)
    assert _pings(env, channel, first) == [] and _dms(first) == []
    await env.advance_time(2 * MIN)
    assert len(_pings(env, channel, first)) == 1 and len(_dms(first)) == 1
    assert "waiting for you" in _pings(env, channel, first)[0] and "channels/" in _dms(first)[0]  # a board link
    # the reminder replaced the turn message: one message pings the player
    assert _shown(channel, "⏰") == _pings(env, channel, first) and not _shown(channel, "it is your turn")
    await env.advance_time(100 * MIN)  # 131 min: the interval (2 h after the first) has not passed
    assert len(_pings(env, channel, first)) == 1
    await env.advance_time(25 * MIN)  # 156 min: the second reminder
    assert len(_pings(env, channel, first)) == 2 and len(_dms(first)) == 2
    assert _shown(channel, "⏰") == _pings(env, channel, first)[1:]  # it replaced the first one: no pile-up
    # acting ends the turn's reminders; the next player's clock starts now
    await act_by_buttons(env, channel, players)
    second = decider(channel, players)
    assert second is not first
    assert _shown(channel, "⏰") == [] and _shown(channel, "it is your turn") == [f"{second.mention}, it is your turn."]
    await env.advance_time(29 * MIN)
    assert _pings(env, channel, second) == []
    await env.advance_time(2 * MIN)
    assert len(_pings(env, channel, second)) == 1
    await env.advance_time(10 * 60 * MIN)
    assert len(_pings(env, channel, first)) == 2  # none for the earlier turn, ever
    assert bot_of(env).store is not None


async def test_no_reminders_after_the_game_ends_or_is_aborted(env: simcord.Env) -> None:
    channel, players = await _setup(env, reminder="10", interval="10")
    await play_to_end(env, channel, players)
    assert (await game_in(env, channel)).status == "finished"
    before = [_pings(env, channel, p) for p in players]
    assert not _shown(channel, "⏰") and not _shown(channel, "it is your turn")  # nobody is pinged any more
    await env.advance_time(5 * 60 * MIN)
    assert [_pings(env, channel, p) for p in players] == before
    store = bot_of(env).store
    assert store is not None and await store.fetch_all("SELECT * FROM reminders") == []
    # an aborted game (in another channel) stops its reminders too
    other = env.guild.create_text_channel("second")
    await start_game(env, other, players)
    await players[0].slash(other, "petersburg host settings", reminder="10")
    r = await players[0].slash(other, "petersburg host abort")
    assert r.response is not None and r.ephemeral and "ended the game" in r.response.content
    assert len(_shown(other, "ended the game")) == 1  # the channel's notice
    await env.advance_time(60 * MIN)
    assert all(_pings(env, other, p) == [] for p in players)


async def test_reminders_survive_a_restart_and_are_not_sent_twice(env: simcord.Env, db_path: Path) -> None:
    channel, players = await _setup(env, reminder="30", interval="3h")
    first = decider(channel, players)
    await env.advance_time(20 * MIN)
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False))  # a new process on the same database
    assert old.store is not None
    await old.store.close()
    await env.advance_time(15 * MIN)  # due at 30 min: the new process sends it
    assert len(_pings(env, channel, first)) == 1 and len(_dms(first)) == 1
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False))  # restart again after it was sent
    assert old.store is not None
    await old.store.close()
    await env.advance_time(2 * 60 * MIN)  # 2 h 35 min: claimed once, not again before the interval
    assert len(_pings(env, channel, first)) == 1
    await env.advance_time(60 * MIN)
    assert len(_pings(env, channel, first)) == 2
    assert _shown(channel, "⏰") == _pings(env, channel, first)[1:]  # replaced across restarts too


async def test_claiming_is_atomic(db_url: str) -> None:
    """Two pollers racing for the same due reminder: exactly one wins; a newer game version voids it."""
    store = await Store.open(db_url, clock=lambda: 1000.0)
    game = await store.create_game(guild_id=1, channel_id=5, host_id=10, host_name="Ann",
                                   ruleset={"edition": 2}, seed=1, lang="en")
    await store.update_lobby(game.id, game.version, [Seat(0, 10, "Ann"), Seat(1, 11, "Bob")])
    from rules import Ruleset, new_game

    st = new_game(Ruleset(players=2), ["Ann", "Bob"], seed=1)
    version = await store.start_game(game.id, 1, ruleset=st.ruleset.to_json(), state=st.to_json(), hands={},
                                     timers=[Timer("remind", st.decider, 900.0)])
    [due] = await store.due_timers(1000.0)
    assert (due.version, due.kind) == (version, "remind")
    wins = await asyncio.gather(*(store.claim_timer(due, 2000.0) for _ in range(5)))
    assert sorted(wins) == [False] * 4 + [True]
    assert await store.due_timers(1000.0) == []  # moved on to 2000
    [later] = await store.due_timers(2000.0)
    assert later.sent == 1
    await store.set_status(game.id, version, "aborted")  # the game moved on: the reminder is void
    assert await store.claim_timer(later, 3000.0) is False
    assert await store.due_timers(5000.0) == [] and await store.fetch_all("SELECT * FROM reminders") == []
    await store.close()


async def test_time_out_plays_for_an_absent_player(env: simcord.Env) -> None:
    channel, players = await _setup(env, reminder="1h", interval="off", autopass="3h")
    store = bot_of(env).store
    assert store is not None
    game = await game_in(env, channel)
    absent = decider(channel, players)
    await env.advance_time(61 * MIN)
    assert len(_pings(env, channel, absent)) == 1
    assert "will play for you" in _pings(env, channel, absent)[0]
    await env.advance_time(2 * 60 * MIN)  # 3 h 1 min: the bot plays for them
    rows = await store.actions(game.id)
    assert len(rows) == 1 and rows[0].auto == "timeout" and rows[0].user_id is None
    assert rows[0].seat == game.seat_of(absent.id)
    board = board_message(channel)
    assert "time ran out" in (board.embeds[0].description or "")
    assert decider_of(board, players) is not absent
    nxt = decider_of(board, players)
    assert _shown(channel, "⏰") == [] and _shown(channel, "it is your turn") == [f"{nxt.mention}, it is your turn."]
    assert texts(absent.user.dm_channel.history(), "⌛")  # told by DM
    # the other player acts; the absent one times out again on their next turn
    await act_by_buttons(env, channel, players)
    await env.advance_time(3 * 60 * MIN + MIN)
    rows = await store.actions(game.id)
    assert [r.auto for r in rows][:3] == ["timeout", None, "timeout"]
    st = await state_in(env, channel)
    assert st.action_count == len(rows)


async def test_settings_validation_and_server_defaults(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("petersburg")
    players = setup_members(env, 2, guild)
    r = await players[0].slash(channel, "petersburg host settings", reminder="soon")
    assert reply_of(r).ephemeral and "not a duration" in reply_of(r).content
    r = await players[0].slash(channel, "petersburg host settings", reminder="15", server=True)
    assert reply_of(r).ephemeral and "Manage Server" in reply_of(r).content
    role = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[role])
    r = await admin.slash(channel, "petersburg host settings", reminder="15", interval="off", server=True)
    assert r.response is not None and "server defaults" in r.response.content and "15 min" in r.response.content
    await start_game(env, channel, players)
    first = decider(channel, players)
    await env.advance_time(16 * MIN)  # the server's 15 minutes apply to the new game
    assert len(_pings(env, channel, first)) == 1
    await env.advance_time(5 * 60 * MIN)  # interval off: once
    assert len(_pings(env, channel, first)) == 1
    r = await players[1].slash(channel, "petersburg host settings", reminder="5")
    assert reply_of(r).ephemeral and "Only the host" in reply_of(r).content
    r = await players[1].slash(channel, "petersburg host settings")
    assert reply_of(r).ephemeral and "15 min" in reply_of(r).content
    for option in ("reminder", "interval", "autopass"):
        choices = await players[0].autocomplete(channel, "petersburg host settings", option, "")
        assert choices[0] == {"name": "off", "value": "off"} and {"name": "1 h", "value": "60"} in choices


async def test_kicked_seat_is_played_for_and_its_new_holder_reminded(env: simcord.Env) -> None:
    channel, players = await _setup(env, reminder="30", interval="off", autopass="2h")
    host = players[0]
    absent = decider(channel, players)
    if absent is host:  # let the host move first so that the other player is the one to decide
        await act_by_buttons(env, channel, players)
        absent = decider(channel, players)
    r = await host.slash(channel, "petersburg host kick", player=absent)
    assert r.response is not None and r.ephemeral and "was removed" in r.response.content
    await env.advance_time(60 * MIN)
    assert _pings(env, channel, absent) == []  # nobody holds the seat: no reminder
    await env.advance_time(61 * MIN)  # the time-out still plays for the empty seat
    store = bot_of(env).store
    assert store is not None
    rows = await store.actions((await game_in(env, channel)).id)
    assert rows[-1].auto == "timeout" and rows[-1].user_id is None
    # someone takes the seat: when it is their turn again, they are the one reminded
    newcomer = env.guild.add_member(env.create_user("newcomer"))
    r = await newcomer.slash(channel, "petersburg join")
    assert reply_of(r).ephemeral and "took seat" in reply_of(r).content
    everyone = [host, newcomer]
    while decider_of(board_message(channel), everyone) is not newcomer:
        await act_by_buttons(env, channel, everyone)
    await env.advance_time(31 * MIN)
    assert len(_pings(env, channel, newcomer)) == 1 and len(_dms(newcomer)) == 1
