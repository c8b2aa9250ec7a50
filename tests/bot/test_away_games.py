"""A member's games (``/petersburg games``), one reminder DM for several games (the digest), and time away
(``/petersburg away``): seats marked on the board, no reminders, no time-out plays for them, over when they
act."""

from __future__ import annotations

import simcord
from simcord.actors import MemberActor

from bot.store import Store

from .helpers import (
    act_by_buttons,
    board_message,
    bot_of,
    decider_of,
    game_in,
    reply_of,
    setup_members,
    start_game,
    state_in,
    texts,
)
from .traffic import traffic

MIN = 60.0


def _store(env: simcord.Env) -> Store:
    store = bot_of(env).store
    assert store is not None
    return store


async def _until(env: simcord.Env, channel: simcord.ChannelHandle, players: list[MemberActor],
                 waits: MemberActor, *, for_them: bool) -> None:
    """Moves by the board's buttons until the game waits (or does not wait) for ``waits``."""
    for _ in range(40):
        if (decider_of(board_message(channel), players) == waits) == for_them:
            return
        await act_by_buttons(env, channel, players)
    raise AssertionError("the turn never came")


async def _two_games(env: simcord.Env, *, second_waits: bool) -> tuple[simcord.GuildHandle, list[simcord.ChannelHandle],
                                                                        list[MemberActor]]:
    guild = env.create_guild()
    one, two = guild.create_text_channel("one"), guild.create_text_channel("two")
    a, b, c = setup_members(env, 3, guild)
    await start_game(env, one, [a, b])
    await start_game(env, two, [a, c])
    await _until(env, one, [a, b], a, for_them=True)
    await _until(env, two, [a, c], a, for_them=second_waits)
    return guild, [one, two], [a, b, c]


async def test_my_games_lists_waiting_then_others_then_lobbies_to_join(env: simcord.Env) -> None:
    guild, (one, two), (a, b, c) = await _two_games(env, second_waits=False)
    lobby_channel = guild.create_text_channel("three")
    d = guild.add_member(env.create_user("d"))
    await d.slash(lobby_channel, "petersburg create")
    r = await a.slash(one, "petersburg games")
    text = reply_of(r).content
    assert r.ephemeral and text.startswith("Your games in this server")
    g1, g2, g3 = [await game_in(env, ch) for ch in (one, two, lobby_channel)]
    waiting, others, lobbies = text.index("Waiting for you"), text.index("Your other games"), text.index("Lobbies")
    assert waiting < text.index(f"#{g1.id} in {one.mention}: your move since <t:") < others
    assert others < text.index(f"#{g2.id} in {two.mention}") < lobbies
    assert lobbies < text.index(f"#{g3.id} in {lobby_channel.mention}")
    assert f"/{one.id}/{g1.board_message_id}" in text and f"/{g3.board_message_id}" in text  # links
    r = await b.slash(one, "petersburg games")
    assert "Waiting for you" not in reply_of(r).content and f"#{g1.id}" in reply_of(r).content
    r = await d.slash(lobby_channel, "petersburg games")  # d's lobby, and nothing to join
    assert "Lobbies" not in reply_of(r).content and f"#{g3.id}" in reply_of(r).content


async def test_one_reminder_dm_lists_every_game_waiting(env: simcord.Env) -> None:
    """Reminders of two games waiting for a member: the first DM lists both, the second game's own reminder
    ten minutes later pings its channel but sends no second DM; two falling due together make one DM."""
    guild, (one, two), (a, b, c) = await _two_games(env, second_waits=True)
    await a.slash(one, "petersburg host settings", reminder="10", interval="off")
    await a.slash(two, "petersburg host settings", reminder="20", interval="off")
    await env.advance_time(11 * MIN)
    dms = texts(a.user.dm_channel.history(), "⏰")
    assert len(dms) == 1 and dms[0].startswith("⏰ 2 of your games wait for you"), dms
    assert one.mention in dms[0] and two.mention in dms[0]
    assert texts(one.history(), "⏰") and not texts(two.history(), "⏰")
    await env.advance_time(10 * MIN)
    assert texts(two.history(), "⏰")  # the channel's own reminder
    assert len(texts(a.user.dm_channel.history(), "⏰")) == 1  # listed already: no second DM


async def test_reminders_due_together_come_in_one_dm(env: simcord.Env) -> None:
    guild, (one, two), (a, b, c) = await _two_games(env, second_waits=True)
    for channel in (one, two):
        await a.slash(channel, "petersburg host settings", reminder="10")
    await env.advance_time(11 * MIN)
    dms = texts(a.user.dm_channel.history(), "⏰")
    assert len(dms) == 1 and dms[0].startswith("⏰ 2 of your games wait for you"), dms
    for channel in (one, two):  # each channel keeps its own reminder
        assert texts(channel.history(), "⏰")


def _marked(channel: simcord.ChannelHandle) -> bool:
    return "🏖️" in " ".join(f.name or "" for f in board_message(channel).embeds[0].fields)


async def test_a_member_away_is_marked_gets_no_reminder_and_no_time_out(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel, other = guild.create_text_channel("one"), guild.create_text_channel("two")
    a, b, c = setup_members(env, 3, guild)
    await start_game(env, channel, [a, b])
    await start_game(env, other, [c, b])  # b's other game in the server
    await _until(env, channel, [a, b], b, for_them=True)
    await a.slash(channel, "petersburg host settings", reminder="3", autopass="5")
    r = await b.slash(channel, "petersburg away", days=3)
    assert "until 4 Jan" in reply_of(r).content, reply_of(r).content  # SimCord's clock starts on 1 Jan
    board = board_message(channel)
    names = " ".join(f.name or "" for f in board.embeds[0].fields)
    assert "p1 🏖️ until 4 Jan" in names and "p0 🏖️" not in names
    assert _marked(other)  # in every game of the server
    game = await game_in(env, channel)
    await env.advance_time(30 * MIN)  # the reminder and the time-out would have come long ago
    assert [r for r in await _store(env).actions(game.id) if r.auto == "timeout"] == []
    assert texts(b.user.dm_channel.history(), "⏰") == []
    assert (await game_in(env, channel)).version == game.version
    await act_by_buttons(env, channel, [a, b])  # b acts: back
    assert await _store(env).away_until(guild.id, [b.id]) == {}
    assert not _marked(channel) and not _marked(other)
    st = await state_in(env, channel)
    assert st.decider is not None
    r = await b.slash(channel, "petersburg rules")  # written in the help
    [embed] = reply_of(r).embeds
    assert any(f.name == "Away, rematches, threads" and "/petersburg away days:" in (f.value or "")
               for f in embed.fields)


async def test_a_member_away_is_not_pinged_when_the_turn_reaches_them(env: simcord.Env) -> None:
    """Time away: the turn message still says whose turn it is (the board shows 🏖️), but it pings nobody while
    the member is away, though they have not been at the board for longer than the live window."""
    guild = env.create_guild()
    channel = guild.create_text_channel("one")
    a, b = setup_members(env, 2, guild)
    await start_game(env, channel, [a, b])
    await _until(env, channel, [a, b], b, for_them=False)
    await b.slash(channel, "petersburg away", days=3)
    await env.advance_time(10 * MIN)  # longer than the live window: b would be pinged
    start = len(env.http_requests)
    await _until(env, channel, [a, b], b, for_them=True)  # a moves until the turn reaches b
    await env.advance_time(1)
    sent = traffic(env, channel.id, start)
    assert any(f"<@{b.id}>" in str(p.get("content")) for p in sent.posted), "no turn message for b"
    assert b.id not in sent.mentions()
