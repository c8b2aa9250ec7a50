"""Games in threads: ``create thread:True`` (or the server's default) opens the game in a new public thread of
the channel, with one line in the channel linking it; a channel hosts any number of games that way; the
thread is archived a while after the final scores and its buttons keep working; missing permissions are
named."""

from __future__ import annotations

import discord
import simcord

from bot.store import Store
from cogs.social import ARCHIVE_AFTER

from .helpers import act_by_buttons, board_message, bot_of, controls, game_in, play_to_end, reply_of, setup_members


def _store(env: simcord.Env) -> Store:
    store = bot_of(env).store
    assert store is not None
    return store


def _lines(channel: simcord.ChannelHandle) -> list[str]:
    """What the bot wrote in the channel (not Discord's own notes such as "started a thread")."""
    return [m.content for m in channel.history() if m.type == discord.MessageType.default]


def _thread_of(channel: simcord.ChannelHandle, known: list[int]) -> simcord.ChannelHandle:
    new = [t for t in channel.threads if t.id not in known]
    assert len(new) == 1, channel.threads
    return new[0]


async def test_a_whole_game_in_a_thread_then_archived_with_its_buttons_working(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    a, b = setup_members(env, 2, guild)
    r = await a.slash(channel, "petersburg create", thread=True)
    thread = _thread_of(channel, [])
    assert r.ephemeral and thread.mention in reply_of(r).content
    assert thread.name is not None and thread.name.startswith("Saint Petersburg: p0")
    lines = _lines(channel)
    assert lines == [f"🎲 {a.mention} opened a game of Saint Petersburg in {thread.mention}."]
    r = await b.slash(thread, "petersburg join")
    assert r.ephemeral
    r = await a.slash(thread, "petersburg start")
    game = await game_in(env, thread)
    assert game.channel_id == thread.id and game.parent_id == channel.id and game.status == "active"
    assert env.backend.channels[thread.id].name == "Saint Petersburg: p0, p1"  # named after its players
    await play_to_end(env, thread, [a, b])
    assert _lines(channel) == lines  # everything happened in the thread
    final = next(m for m in reversed(thread.history()) if any((c.custom_id or "").startswith("pb:rm:")
                                                               for c in controls(m)))
    await env.advance_time(ARCHIVE_AFTER + 120)
    meta = env.backend.channels[thread.id].thread_metadata
    assert meta is not None and meta.archived
    r = await b.click(final, custom_id=f"pb:r:{game.id}:0:open")  # the replay still opens
    assert reply_of(r).ephemeral and reply_of(r).embeds


async def test_two_games_in_threads_of_one_channel_at_once_and_the_server_default(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    a, b, c, d = setup_members(env, 4, guild)
    role = guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[role])
    r = await a.slash(channel, "petersburg host settings", threads=True)  # a game setting it is not
    assert "server:True" in reply_of(r).content
    r = await admin.slash(channel, "petersburg host settings", server=True, threads=True)
    assert "New games open in a thread: on" in reply_of(r).content
    await a.slash(channel, "petersburg create")  # the server's default: a thread
    first = _thread_of(channel, [])
    await c.slash(channel, "petersburg create", computers=1, level="easy", language="de")
    second = _thread_of(channel, [first.id])
    assert second.name == "Sankt Petersburg: p2, 🤖 Computer (leicht)"
    assert await _store(env).open_game_in_channel(channel.id) is None  # the channel itself is free
    for thread, (host, guest) in ((first, (a, b)), (second, (c, d))):
        await guest.slash(thread, "petersburg join")
        await host.slash(thread, "petersburg start")
    g1, g2 = await game_in(env, first), await game_in(env, second)
    assert g1.id != g2.id and {g1.parent_id, g2.parent_id} == {channel.id} and g2.lang == "de"
    for thread, players in ((first, [a, b]), (second, [c, d])):  # a move in each, by the board's buttons
        before = (await game_in(env, thread)).version
        board = board_message(thread)
        assert board.channel.id == thread.id
        await act_by_buttons(env, thread, players)
        assert (await game_in(env, thread)).version > before
    # reminders and the host's kick work in a thread as in a channel
    await a.slash(first, "petersburg host settings", reminder="2")
    await env.advance_time(3 * 60)
    assert any("⏰" in m.content for m in first.history())
    r = await c.slash(second, "petersburg host kick", player=d)
    assert "seat" in reply_of(r).content.lower() or "Platz" in reply_of(r).content
    assert (await game_in(env, second)).seat_of(d.id) is None
    lines = _lines(channel)  # the settings' announcement, then one line a game, nothing else
    assert len(lines) == 3 and lines[0].startswith("⚙️") and first.mention in lines[1] and second.mention in lines[2]


async def test_missing_thread_permissions_are_named(env: simcord.Env) -> None:
    guild = env.create_guild()
    me = env.bot.user
    assert me is not None
    channel = guild.create_text_channel("games", overwrites={
        me: discord.PermissionOverwrite(create_public_threads=False, send_messages_in_threads=False)})
    a, = setup_members(env, 1, guild)
    r = await a.slash(channel, "petersburg create", thread=True)
    text = reply_of(r).content
    assert r.ephemeral and "Create Public Threads" in text and "Send Messages in Threads" in text, text
    assert channel.threads == [] and _lines(channel) == []
    assert await _store(env).open_game_in_channel(channel.id) is None
    r = await a.slash(channel, "petersburg create")  # without a thread the channel still works
    assert "opened" in reply_of(r).content or reply_of(r).ephemeral
    assert await game_in(env, channel) is not None
