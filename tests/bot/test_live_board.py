"""The board as durable state, kept live, in a quiet channel.

Defects covered: 1 a failed board post leaves the game without a board; 2 a crash
between storing a move and posting the board; 3 "nothing was changed" after a stored move; 9 the host role
stays with a host who left; 10 channel noise (a new board image per move).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import simcord

from rules import legal_moves

from .conftest import make_bot
from .helpers import (
    act_by_buttons,
    board_message,
    bot_of,
    controls,
    decider,
    decider_of,
    game_in,
    new_table,
    open_menu,
    pick_control,
    play_to_end,
    state_in,
    your_move_id,
)


def _shown_version(board: object) -> int:
    cid = your_move_id(board)  # type: ignore[arg-type]
    assert cid is not None
    return int(cid.split(":")[-1])


async def test_defect_10_one_live_board_and_a_quiet_channel(env: simcord.Env) -> None:
    """A whole two-player game leaves a handful of messages, not one board image per move."""
    channel, players = await new_table(env)
    first = board_message(channel)
    for _ in range(6):
        await act_by_buttons(env, channel, players)
        board = board_message(channel)
        assert board.id == first.id  # edited in place: nobody chatted
        assert _shown_version(board) == (await game_in(env, channel)).version
    actions = await play_to_end(env, channel, players)
    assert actions > 20
    game = await game_in(env, channel)
    assert game.status == "finished" and game.final_posted
    history = channel.history()
    # the lobby, "the game starts", the board, the final scores (and nothing per move)
    assert len(history) <= 5, [m.content[:60] for m in history]
    assert sum(1 for m in history if "Final scores" in m.content) == 1


async def test_turn_message_pings_the_player_to_decide_and_is_replaced(env: simcord.Env) -> None:
    """Players who are away (not seen for longer than the live window) are pinged at their turns."""
    channel, players = await new_table(env)
    for _ in range(5):
        await env.advance_time(10 * 60)
        game = await game_in(env, channel)
        st = await state_in(env, channel)
        turn = [m for m in channel.history() if "your turn" in m.content]
        assert len(turn) == 1, [m.content for m in turn]
        assert f"<@{game.user_at(st.decider)}>" in turn[0].content
        assert turn[0].id == game.turn_message_id
        await act_by_buttons(env, channel, players)


async def test_board_reposted_at_the_bottom_after_chat(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    old = board_message(channel)
    for i in range(6):
        await players[i % 2].send(channel, f"chatting {i}")
    await act_by_buttons(env, channel, players)
    new = board_message(channel)
    assert new.id != old.id
    assert all(m.id != old.id for m in channel.history())  # the old board was removed
    assert channel.history()[-1].id in (new.id, (await game_in(env, channel)).turn_message_id)
    assert [m for m in channel.history() if your_move_id(m)] == [new]


async def test_board_command_reposts_at_the_bottom(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    old = board_message(channel)
    r = await players[1].slash(channel, "petersburg board")
    assert r.ephemeral and "shown again" in (r.response.content if r.response else "")
    assert board_message(channel).id != old.id
    assert len([m for m in channel.history() if your_move_id(m)]) == 1


async def test_defect_1_failed_board_edit_is_retried_and_the_old_board_keeps_working(env: simcord.Env) -> None:
    """Discord fails (500) while the board is updated: the move is stored and confirmed, the channel keeps
    its board (with working buttons), and the poster shows the new board once Discord recovers."""
    channel, players = await new_table(env)
    board = board_message(channel)
    before = await game_in(env, channel)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/{board.id}", status=500, times=None)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=503, times=None)
    r = await act_by_buttons(env, channel, players)
    assert any("✅" in m.content for m in [r.response, *r.followups] if m is not None)
    game = await game_in(env, channel)
    assert game.version > before.version and game.shown_version < game.version  # stored, not shown yet
    assert your_move_id(board_message(channel)) is not None  # the channel still has a board with buttons
    env.backend.faults.clear()  # Discord recovers
    await env.advance_time(30)
    game = await game_in(env, channel)
    assert game.shown_version == game.version
    assert _shown_version(board_message(channel)) == game.version


async def test_defect_1_missing_permission_is_told_to_the_host(env: simcord.Env) -> None:
    """The bot may no longer post in the channel (403 Missing Permissions): the host is told by DM what is
    wrong, with Discord's reason and the permissions the bot needs; once the permission is back, the board
    appears."""
    channel, players = await new_table(env)
    board = board_message(channel)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/{board.id}", status=403, code=50013,
                     message="Missing Permissions", times=None)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013,
                     message="Missing Permissions", times=None)
    await act_by_buttons(env, channel, players)
    host_dms = [m.content for m in players[0].user.dm_channel.history()]
    told = [c for c in host_dms if "cannot show the board" in c]
    assert len(told) == 1, host_dms
    assert ": ." not in told[0] and "Missing Permissions" in told[0], told[0]
    for permission in ("View Channel", "Send Messages", "Embed Links", "Attach Files", "Read Message History"):
        assert permission in told[0], told[0]
    r = await players[1].slash(channel, "petersburg board")
    assert r.response is not None and "could not show the board" in r.response.content
    env.backend.faults.clear()
    await env.advance_time(60)
    game = await game_in(env, channel)
    assert game.shown_version == game.version and game.board_problem is None
    assert len([c for c in players[0].user.dm_channel.history() if "cannot show the board" in c.content]) == 1


async def test_defect_2_restart_between_commit_and_post_shows_the_board(env: simcord.Env, db_path: Path) -> None:
    """A move stored by a process that died before posting: the next process shows its board at startup."""
    channel, players = await new_table(env)
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    bot = bot_of(env)
    assert bot.service is not None
    await bot.service.act(game.id, game.user_at(st.decider) or 0, legal_moves(st)[0].action)  # no Discord
    stored = await game_in(env, channel)
    assert stored.shown_version < stored.version
    old = bot
    await env.restart_bot(make_bot(db_path, sync=False))
    assert old.store is not None
    await old.store.close()
    game = await game_in(env, channel)
    assert game.shown_version == game.version
    board = board_message(channel)
    assert _shown_version(board) == game.version
    actor = decider_of(board, players)
    menu = await open_menu(actor, board)
    _, cid, value = pick_control(menu)
    r = await (actor.click(menu, custom_id=cid) if value is None else actor.select(menu, [value], custom_id=cid))
    assert (await game_in(env, channel)).version > game.version, r


async def test_defect_3_failed_confirmation_never_says_nothing_changed(env: simcord.Env) -> None:
    """The move is stored, then editing the interaction's answer fails (404 10015): no "nothing was changed",
    no bug, and the board moves on."""
    channel, players = await new_table(env)
    before = await game_in(env, channel)
    actor = decider(channel, players)
    choices = await actor.autocomplete(channel, "petersburg buy", "card", "")
    choices = choices or await actor.autocomplete(channel, "petersburg take", "card", "")
    assert choices
    env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=404, code=10015,
                     message="Unknown Webhook", times=None)
    command = "petersburg buy" if choices[0]["value"].split(" ", 1)[1].startswith("buy") else "petersburg take"
    r = await actor.slash(channel, command, card=choices[0]["value"])
    env.backend.faults.clear()
    texts = [m.content for m in [r.response, *r.followups] if m is not None]
    assert not any("Nothing was changed" in x for x in texts), texts
    after = await game_in(env, channel)
    assert after.version > before.version and after.shown_version == after.version
    assert bot_of(env).bugs == []


async def test_defect_9_host_role_passes_when_the_host_leaves(env: simcord.Env) -> None:
    channel, players = await new_table(env, 3)
    host, second, third = players
    r = await host.slash(channel, "petersburg leave")
    assert r.ephemeral
    game = await game_in(env, channel)
    assert game.host_id == second.id
    assert any(f"<@{second.id}> is the host now" in m.content for m in channel.history())
    r = await host.slash(channel, "petersburg host kick", player=third)
    assert (await game_in(env, channel)).user_at(2) == third.id  # the old host may not kick any more
    r = await second.slash(channel, "petersburg host settings", reminder="30")
    assert "30" in (r.response.content if r.response else "")
    assert (await game_in(env, channel)).settings.get("reminder") == 30


async def test_defect_9_a_player_who_left_is_never_pinged(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    leaver = decider(channel, players)
    await leaver.slash(channel, "petersburg leave")
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    assert game.user_at(st.decider) is None  # the empty seat is to decide
    turn = [m for m in channel.history() if m.id == game.turn_message_id]
    assert turn and leaver.mention not in turn[0].content and "empty" in turn[0].content
    assert leaver.mention not in "\n".join(e.description or "" for e in board_message(channel).embeds)


async def test_a_reminder_for_a_turn_already_played_is_dropped(env: simcord.Env) -> None:
    """The reminder is claimed, then the player acts before it is posted: no stale ping, and the next
    player's turn message stays."""
    channel, players = await new_table(env)
    await players[0].slash(channel, "petersburg host settings", reminder="1", interval="off")
    bot = bot_of(env)
    bot.config = dataclasses.replace(bot.config, live_minutes=0)  # every turn pinged, live or not
    cog = bot.get_cog("Petersburg")
    assert cog is not None and bot.service is not None
    service, original = bot.service, cog.poster.remind  # type: ignore[attr-defined]

    async def racing(game_id: int, *rest: object) -> bool:
        game = await service.game(game_id)
        st = service.state(game)
        await service.act(game_id, game.user_at(st.decider) or 0, legal_moves(st)[0].action)
        await cog.poster.show(game_id)  # type: ignore[attr-defined]
        return bool(await original(game_id, *rest))

    cog.poster.remind = racing  # type: ignore[attr-defined]
    await env.advance_time(90)
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    assert not [m.content for m in channel.history() if "⏰" in m.content]
    turn = [m for m in channel.history() if m.id == game.turn_message_id]
    assert turn and f"<@{game.user_at(st.decider)}>" in turn[0].content
    assert game.turn_user_id == game.user_at(st.decider)


async def test_a_pass_mode_shows_on_the_board_at_once(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    waiting = next(p for p in players if p is not decider(channel, players))
    before = await game_in(env, channel)
    await waiting.slash(channel, "petersburg pass", mode="phase")
    board = board_message(channel)
    assert (await game_in(env, channel)).version == before.version
    text = "\n".join(e.description or "" for e in board.embeds)
    assert f"Passing automatically: {waiting.name}" in text, text


async def test_UI_05_stacks_button_shows_unseen_cards_privately(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    board = board_message(channel)
    cid = next(c.custom_id for c in controls(board) if (c.custom_id or "").startswith("pb:k:"))
    r = await players[1].click(board, custom_id=cid)
    shown = r.followups[-1] if r.followups else r.response
    assert shown is not None and shown.ephemeral and "What you cannot see" in shown.content
    st = await state_in(env, channel)
    assert f"Workers ({len(st.decks['workers']) + sum(1 for c in st.hands[0] if st.cards[c].deck == 'workers')})" \
        in shown.content
