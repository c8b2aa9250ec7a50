"""Games in threads: ``create thread:True`` (or the server's default) opens the game in a new public thread of
the channel, with one line in the channel linking it; a channel hosts any number of games that way; the
thread is archived a while after the final scores and its buttons keep working; missing permissions are
named."""

from __future__ import annotations

import discord
import simcord

from cogs.social import ARCHIVE_AFTER

from .helpers import board_message, bot_of, game_in, play_to_end, reply_of, setup_members, start_game


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
    await play_to_end(env, thread, [a, b])
    assert _lines(channel) == lines  # everything happened in the thread
    final = next(m for m in reversed(thread.history()) if any((c.custom_id or "").startswith("pb:rm:")
                                                               for row in m.components for c in row.children))
    await env.advance_time(ARCHIVE_AFTER + 120)
    assert env.backend.channels[thread.id].thread_metadata.archived
    r = await b.click(final, custom_id=f"pb:r:{game.id}:0:open")  # the replay still opens
    assert reply_of(r).ephemeral and reply_of(r).embeds
