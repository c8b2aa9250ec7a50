"""Turn discipline through the real cogs: private errors, stale boards, double clicks, DMs, restarts."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, NoReturn

import discord
import simcord
from simcord import interactions as sc_interactions
from simcord.actors import _find_component, _visible_message
from simcord.backend import serializers
from simcord.enums import SELECT_TYPES, ComponentType, InteractionType

from bot.client import PetersburgBot
from cogs.components import decode
from rules import Ruleset, format_action, legal_moves, new_game

from .conftest import GameSeeds, make_bot
from .helpers import (
    act_by_buttons,
    act_by_commands,
    board_message,
    boards_with_controls,
    bot_of,
    controls,
    decider,
    decider_and_other,
    decider_of,
    game_in,
    new_table,
    open_menu,
    pick_control,
    play_to_end,
    setup_members,
    start_game,
    state_in,
    texts,
)


def _reply(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The private answer of an interaction (first response or followup)."""
    msgs = [m for m in [result.response, *result.followups] if m is not None and m.content]
    assert msgs, result
    return msgs[-1]


def _version_shown(channel: simcord.ChannelHandle) -> int:
    """The game version in the live board's "Your move" button."""
    cid = next(c.custom_id for c in controls(board_message(channel)) if (c.custom_id or "").startswith("pb:y:"))
    return int(cid.split(":")[-1])


def _no_move_controls(board: discord.Message) -> bool:
    """The public board offers no move (selects and buttons of moves are only in the private menu)."""
    return not [c for c in controls(board) if (c.custom_id or "").startswith(("pb:s:", "pb:b:"))]


async def _forged_click(env: simcord.Env, actor: simcord.MemberActor, menu: simcord.ResponseMessage,
                        custom_id: str, value: str | None) -> simcord.InteractionResult:
    """A click by ``actor`` of a control on someone else's private menu (which Discord would not show them):
    a forged or replayed interaction; the bot must check who acts itself."""
    stored = env.backend.get_message(menu.channel_id, menu.id)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    if value is not None:
        data = {"custom_id": custom_id, "component_type": ComponentType.STRING_SELECT, "values": [value]}
    record = _emit_component(env, actor, stored, data)
    await env.settle()
    return simcord.InteractionResult(env, record)


def _emit_component(env: simcord.Env, actor: simcord.MemberActor, stored: Any, data: dict[str, Any]) -> Any:
    """Send a component interaction on ``stored`` to the bot without waiting for it (returns SimCord's
    record of the interaction)."""
    backend = env.backend
    record, payload = sc_interactions.base_payload(
        backend, type=InteractionType.MESSAGE_COMPONENT, channel_id=stored.channel_id,
        guild_id=actor.guild.id, user_id=actor.id, data=data)
    payload["message"] = dict(serializers.message_payload(backend, stored))
    record.source_message_id = stored.id
    backend.emit("INTERACTION_CREATE", payload)
    return record


def _answers_to(env: simcord.Env, needle: str) -> list[str]:
    """Contents of interaction answers (responses, edits, followups) the bot sent that contain ``needle``."""
    out = []
    for req in env.http_requests:
        body = req.json if isinstance(req.json, dict) else {}
        content = body.get("content") or (body.get("data") or {}).get("content") or ""
        if ("/webhooks/" in req.path or "/interactions/" in req.path) and needle in content:
            out.append(content)
    return out


async def test_out_of_turn_click_is_private_and_changes_nothing(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    board = board_message(channel)
    assert _no_move_controls(board)
    actor = decider_of(board, players)
    waiting = next(p for p in players if p is not actor)
    before = await game_in(env, channel)
    # "Your move" for the player who waits: a private answer naming the player to decide, no controls
    shown = await open_menu(waiting, board)
    assert shown.ephemeral and "turn" in shown.content and actor.user.name in shown.content
    assert not controls(shown)
    # a move control of the decider's private menu, sent by the waiting player: refused privately
    menu = await open_menu(actor, board)
    _, cid, value = pick_control(menu)
    assert value is not None
    r = await _forged_click(env, waiting, menu, cid, value)
    assert _reply(r).ephemeral and "not your turn" in _reply(r).content
    after = await game_in(env, channel)
    assert after.version == before.version and after.state == before.state
    assert board_message(channel).id == board.id  # no new board
    assert _version_shown(channel) == before.version  # nor a changed one


async def test_outsider_click_and_hand_button(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    outsider = env.guild.add_member(env.create_user("kibitz"))
    board = board_message(channel)
    before = await game_in(env, channel)
    shown = await open_menu(outsider, board)
    assert shown.ephemeral and "not playing" in shown.content and not controls(shown)
    actor = decider_of(board, players)
    menu = await open_menu(actor, board)
    _, cid, value = pick_control(menu)
    r = await _forged_click(env, outsider, menu, cid, value)  # a control the outsider cannot see
    assert _reply(r).ephemeral and "not playing" in _reply(r).content
    hand_id = next(c.custom_id for c in controls(board) if c.custom_id.startswith("pb:h:"))
    r = await outsider.click(board, custom_id=hand_id)
    assert _reply(r).ephemeral and "not playing" in _reply(r).content
    r = await players[1].click(board, custom_id=hand_id)  # not to move, may still look at the hand
    assert _reply(r).ephemeral and "Your hand" in _reply(r).content
    assert (await game_in(env, channel)).version == before.version


async def test_illegal_commands_answered_privately(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    actor, other = decider_and_other(channel, players)
    before = await game_in(env, channel)
    st = await state_in(env, channel)
    card = st.cards[st.upper[0]].name_en
    cases: list[tuple[simcord.MemberActor, str, dict[str, Any], str]] = [
        (actor, "petersburg take", {"card": card}, "must buy a worker"),  # first worker phase
        (actor, "petersburg buy", {"card": "Czar"}, "not available"),
        (actor, "petersburg buy", {"card": "no such thing"}, "Cannot read"),
        (actor, "petersburg decide", {"choice": "pub 3"}, "no Pub or Observatory decision"),
        (actor, "petersburg pass", {}, "must buy a worker"),
        (other, "petersburg buy", {"card": card}, "not your turn"),
        (other, "petersburg start", {}, "already started"),
    ]
    for who, cmd, opts, expected in cases:
        r = await who.slash(channel, cmd, **opts)
        reply = _reply(r)
        assert reply.ephemeral, (cmd, reply.content)
        assert expected in reply.content, (cmd, reply.content)
        assert "Traceback" not in reply.content
    after = await game_in(env, channel)
    assert after.version == before.version and after.state == before.state


async def test_autocomplete_offers_only_legal_moves(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    actor, other = decider_and_other(channel, players)
    st = await state_in(env, channel)

    version = (await game_in(env, channel)).version
    legal = {format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st)}
    buys = await actor.autocomplete(channel, "petersburg buy", "card", "")
    assert buys and {c["value"] for c in buys} == {f"v{version} {x}" for x in legal if x.startswith("buy")}
    assert all("rubles" in c["name"] for c in buys)
    assert _version_shown(channel) == version  # the version the channel's board shows
    assert await actor.autocomplete(channel, "petersburg take", "card", "") == []  # forced worker buy
    assert await other.autocomplete(channel, "petersburg buy", "card", "") == []  # not to move
    cards = await actor.autocomplete(channel, "petersburg card", "name", "lumb")
    assert [c["value"] for c in cards] == ["lumberjack"]


async def test_stale_board_click(env: simcord.Env, game_seeds: GameSeeds) -> None:
    # a deal where the first player has a choice (in about 1 deal in 400 the four workers are of one kind)
    rs = Ruleset(players=2)
    game_seeds.queue(next(s for s in itertools.count(1) if len(legal_moves(new_game(rs, ["a", "b"], seed=s))) > 1))
    channel, players = await new_table(env)
    board = board_message(channel)
    actor = decider_of(board, players)
    old_version = (await game_in(env, channel)).version
    old_menu = await open_menu(actor, board)  # the actor looks at the menu ...
    await act_by_commands(env, channel, players)  # ... but moves by command instead
    store = bot_of(env).store
    assert store is not None
    done = (await store.actions((await game_in(env, channel)).id))[0]
    for _ in range(10):  # play on until the actor decides again
        if decider(channel, players) is actor:
            break
        await act_by_buttons(env, channel, players)
    assert decider(channel, players) is actor
    before = await game_in(env, channel)
    assert before.version > old_version and board_message(channel).id == board.id  # the live board, edited
    assert _version_shown(channel) == before.version
    st = await state_in(env, channel)
    # an option of the outdated menu other than the move made then: refused as out of date
    stale = [(c.custom_id, o.value) for c in controls(old_menu) if (c.custom_id or "").startswith("pb:s:")
             for o in c.options if not o.value.startswith("?")
             and format_action(decode(o.value), st.ruleset.catalogue) != done.notation]
    assert stale
    cid, value = stale[0]
    assert cid.split(":")[3] == str(old_version)
    r = await actor.select(old_menu, [value], custom_id=cid)
    assert _reply(r).ephemeral and "out of date" in _reply(r).content
    after = await game_in(env, channel)
    assert after.version == before.version and after.state == before.state


async def _emit_select_twice(env: simcord.Env, actor: simcord.MemberActor,
                             message: discord.Message | simcord.ResponseMessage, custom_id: str,
                             value: str) -> None:
    """Two clicks of the same option that reach the bot before it answers either (no settle between)."""
    stored = _visible_message(actor, message)
    menu = _find_component(stored.components, types=SELECT_TYPES, custom_id=custom_id, label=None)
    for _ in range(2):
        _emit_component(env, actor, stored, {"custom_id": menu["custom_id"],
                                             "component_type": ComponentType.STRING_SELECT, "values": [value]})
    await env.settle()


async def test_two_fast_clicks_apply_once(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    board = board_message(channel)
    actor = decider_of(board, players)
    before = await game_in(env, channel)
    menu = await open_menu(actor, board)
    _, cid, value = pick_control(menu)
    assert value is not None
    await _emit_select_twice(env, actor, menu, cid, value)
    after = await game_in(env, channel)
    assert after.version == before.version + 1
    store = bot_of(env).store
    assert store is not None
    assert len(await store.actions(after.id)) == 1
    assert len(boards_with_controls(channel)) == 1
    assert board_message(channel).id == board.id and _version_shown(channel) == after.version
    # the winning click was confirmed, the losing one told privately that the move was made already
    assert len(_answers_to(env, "✅")) == 1
    assert len(_answers_to(env, "already made")) == 1
    assert not _answers_to(env, "out of date")
    other = next(p for p in players if p is not actor)
    assert not [m for m in channel.history(viewer=other) if "already made" in m.content]  # privately


async def test_restart_mid_game_buttons_still_work(env: simcord.Env, db_path: Path) -> None:
    channel, players = await new_table(env, 3)
    for _ in range(10):
        await act_by_buttons(env, channel, players)
    before = await game_in(env, channel)
    old_bot = bot_of(env)
    # a new process: new bot object, new database connection, commands not synced again
    await env.restart_bot(make_bot(db_path, sync=False))
    assert old_bot.store is not None
    await old_bot.store.close()
    assert bot_of(env) is not old_bot
    await act_by_buttons(env, channel, players)  # a button of the board posted before the restart
    after = await game_in(env, channel)
    assert after.version == before.version + 1
    await play_to_end(env, channel, players, by="mixed")
    assert (await game_in(env, channel)).status == "finished"


async def test_closed_dms_do_not_stall_the_game(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("petersburg")
    players = setup_members(env, 2)
    closed = players[1]
    env.inject_error("POST", f"/channels/{closed.user.dm_channel.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=None)
    await start_game(env, channel, players)
    notice = [line for m in channel.history() for line in m.content.splitlines()
              if "cannot send direct messages" in line]
    assert len(notice) == 1 and closed.mention in notice[0] and players[0].mention not in notice[0]
    assert players[0].user.dm_channel.history()  # the open DM got its welcome
    actions = await play_to_end(env, channel, players)
    assert actions > 20 and (await game_in(env, channel)).status == "finished"
    r = await closed.slash(channel, "petersburg hand")  # the game is over: no game in the channel
    assert _reply(r).ephemeral


async def test_two_games_at_once_in_channel_and_thread(env: simcord.Env) -> None:
    guild = env.create_guild()
    ch1 = guild.create_text_channel("one")
    ch2_parent = guild.create_text_channel("two")
    a, b, c = setup_members(env, 3, guild)
    thread = simcord.ChannelHandle(env, guild, env.backend.create_thread(ch2_parent.id, "game", owner_id=a.id))
    await start_game(env, ch1, [a, b])
    await start_game(env, thread, [c, a], edition=1, language="de")
    # a channel holds one open game at a time
    r = await b.slash(ch1, "petersburg create")
    assert _reply(r).ephemeral and "already has a game" in _reply(r).content
    g1, g2 = await game_in(env, ch1), await game_in(env, thread)
    assert g1.id != g2.id and g2.lang == "de" and g2.ruleset["edition"] == 1
    done = {ch1.id: False, thread.id: False}
    for _ in range(600):
        for ch, ps in ((ch1, [a, b]), (thread, [c, a])):
            if not done[ch.id]:
                await act_by_buttons(env, ch, ps)
                done[ch.id] = (await game_in(env, ch)).status == "finished"
        if all(done.values()):
            break
    assert all(done.values())
    assert "Schlusswertung" in (thread.history()[-1].embeds[0].title or "")


async def test_lobby_flow_and_host_tools(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("lobby")
    host, b, c, d, e = setup_members(env, 5, guild)
    r = await host.slash(channel, "petersburg start")
    assert "no game" in _reply(r).content
    r = await host.slash(channel, "petersburg create", money="hidden")
    assert r.ephemeral  # answered privately; the lobby itself is a channel message
    lobby = channel.history()[-1]
    assert not lobby.flags.ephemeral and host.mention in lobby.content
    r = await host.slash(channel, "petersburg start")
    assert "2 to 4 players" in _reply(r).content
    r = await b.click(lobby, custom_id=f"pb:l:{(await game_in(env, channel)).id}:join")
    assert _reply(r).ephemeral
    assert b.mention in channel.history()[0].content  # the lobby message lists the players
    for p in (c, d):
        await p.slash(channel, "petersburg join")
    r = await e.slash(channel, "petersburg join")
    assert "full" in _reply(r).content
    r = await b.slash(channel, "petersburg start")
    assert "Only the host" in _reply(r).content
    assert d.mention in channel.history()[0].content
    r = await host.slash(channel, "petersburg host kick", player=d)
    assert r.ephemeral and "removed" in _reply(r).content
    assert d.mention not in channel.history()[0].content  # the lobby message no longer lists them
    await c.slash(channel, "petersburg leave")
    game = await game_in(env, channel)
    assert [s.user_id for s in game.seats] == [host.id, b.id]
    await host.slash(channel, "petersburg start")
    game = await game_in(env, channel)
    assert game.status == "active" and game.ruleset["open_money"] is False
    assert "?" in (board_message(channel).embeds[0].fields[0].value or "")  # money hidden from the channel
    # replace an absent player: the newcomer plays the seat with its hand
    r = await host.slash(channel, "petersburg host replace", player=b, new_player=e)
    assert r.ephemeral
    game = await game_in(env, channel)
    assert game.seats[1].user_id == e.id
    # the channel is told by a public notice (posted by the board poster, not as the command's answer)
    notice = texts([m for m in channel.history() if not m.flags.ephemeral], "takes over seat 2")
    assert len(notice) == 1 and e.mention in notice[0] and b.mention in notice[0]
    for _ in range(3):
        await act_by_buttons(env, channel, [host, e])
    # kick in play empties the seat; someone joins it
    r = await host.slash(channel, "petersburg host kick", player=e)
    assert r.ephemeral
    game = await game_in(env, channel)
    assert game.seats[1].user_id is None
    notice = texts([m for m in channel.history() if not m.flags.ephemeral], "was removed (seat 2)")
    assert len(notice) == 1 and e.mention in notice[0]
    r = await c.slash(channel, "petersburg join")
    assert r.ephemeral and "seat 2" in _reply(r).content
    notice = texts([m for m in channel.history() if not m.flags.ephemeral], "takes seat 2")
    assert len(notice) == 1 and c.mention in notice[0]
    await act_by_buttons(env, channel, [host, c])
    # abort: not by a plain member, yes by the host
    r = await c.slash(channel, "petersburg host abort")
    assert "Only the host" in _reply(r).content
    r = await host.slash(channel, "petersburg host abort")
    assert r.ephemeral
    assert (await game_in(env, channel)).status == "aborted"
    assert boards_with_controls(channel) == []
    notice = texts([m for m in channel.history() if not m.flags.ephemeral], "ended the game without scoring")
    assert len(notice) == 1 and host.mention in notice[0]
    r = await host.slash(channel, "petersburg create")  # the channel is free again
    assert r.ephemeral and "already has a game" not in _reply(r).content
    assert (await game_in(env, channel)).status == "lobby"


async def test_moderator_can_abort_and_info_commands(env: simcord.Env) -> None:
    import discord

    channel, players = await new_table(env)
    mods = env.guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    mod = env.guild.add_member(env.create_user("mod"), roles=[mods])
    r = await mod.slash(channel, "petersburg rules")
    assert _reply(r).ephemeral and "/petersburg create" in _reply(r).content
    r = await mod.slash(channel, "petersburg card", name="lumberjack")
    assert _reply(r).ephemeral and "Lumberjack" in _reply(r).content
    old = board_message(channel)
    await env.advance_time(10 * 60)  # the players are away: the one to decide was pinged
    r = await mod.slash(channel, "petersburg board")
    assert _reply(r).ephemeral and "shown again" in _reply(r).content
    board = board_message(channel)
    assert len(boards_with_controls(channel)) == 1 and board.id != old.id  # reposted, the old one deleted
    public = [m for m in channel.history() if not m.flags.ephemeral]
    decider = decider_of(board, players)
    # at the bottom: the board, then the one turn message pinging the player to decide
    assert public[-2].id == board.id and public[-1].content == f"{decider.mention}, it is your turn."
    assert len(texts(public, "it is your turn")) == 1
    r = await mod.slash(channel, "petersburg host abort")
    assert r.ephemeral
    assert (await game_in(env, channel)).status == "aborted"
    assert len(texts(channel.history(), f"{mod.mention} ended the game without scoring")) == 1
    assert not texts(channel.history(), "it is your turn") and boards_with_controls(channel) == []


async def test_no_bug_reaches_users_as_traceback(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    bot: PetersburgBot = bot_of(env)
    board = board_message(channel)
    actor = decider_of(board, players)

    async def boom(*args: object, **kwargs: object) -> NoReturn:
        raise RuntimeError("simulated bug")

    store = bot.store
    assert store is not None
    original = store.record_action
    store.record_action = boom  # type: ignore[method-assign]
    try:
        menu = await open_menu(actor, board)
        _, cid, value = pick_control(menu)
        assert value is not None
        r = await actor.select(menu, [value], custom_id=cid)
    finally:
        store.record_action = original  # type: ignore[method-assign]
    reply = _reply(r)
    assert reply.ephemeral and "went wrong" in reply.content and "simulated" not in reply.content
    assert len(bot.bugs) == 1
    bot.bugs.clear()
    await act_by_buttons(env, channel, players)  # the game goes on
