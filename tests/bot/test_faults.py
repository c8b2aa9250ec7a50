"""A move applies once, and DMs are a push that may fail.

4: two identical slash commands (a retry, a double submit), or a command and a click on the same move, must
not both apply where the same player decides again and the move is still legal.
6: one failed DM must not silence a player's hand DMs; only Discord's 50007 (DMs closed) marks a user
unreachable, stored in the database, and the player's own /petersburg hand clears it.
"""

from __future__ import annotations

from pathlib import Path

import simcord

from rules import GameState, legal_moves

from .conftest import make_bot
from .helpers import (
    board_message,
    bot_of,
    controls,
    decider_and_other,
    game_in,
    new_table,
    open_menu,
    rig,
    setup_members,
    start_game,
    state_in,
    take_card,
)


def _two_lumberjacks(st: GameState) -> None:
    """The upper row holds two Lumberjacks, so buying one leaves the very same move legal."""
    for c in st.upper:
        st.decks["workers"].append(c)
    st.upper[:] = [take_card(st, "lumberjack"), take_card(st, "lumberjack")]
    st.round = 2  # past the first worker phase, where every turn must buy (passing is allowed again)


async def _same_player_again(env: simcord.Env, channel: simcord.ChannelHandle, players: list) -> tuple:
    """A position where, after the mover buys a Lumberjack, the other player passes at once (pass mode) and
    the mover decides again with "buy Lumberjack" still legal."""
    await rig(env, channel, players, _two_lumberjacks)
    mover, other = decider_and_other(channel, players)
    r = await other.slash(channel, "petersburg pass", mode="phase")
    assert r.ephemeral
    choices = await mover.autocomplete(channel, "petersburg buy", "card", "Lumberjack")
    assert choices and choices[0]["value"].endswith("buy Lumberjack"), choices
    return mover, choices[0]["value"]


async def test_defect_4_a_repeated_command_applies_once(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    mover, value = await _same_player_again(env, channel, players)
    before = await game_in(env, channel)
    await mover.slash(channel, "petersburg buy", card=value)
    after_first = await game_in(env, channel)
    st = await state_in(env, channel)
    assert after_first.version > before.version
    assert after_first.user_at(st.decider) == mover.id  # the same player decides again ...
    assert any(m.action.kind == "buy" for m in legal_moves(st))
    r = await mover.slash(channel, "petersburg buy", card=value)  # ... and the same command arrives again
    assert r.response is not None and "already made" in r.response.content, r.response
    after = await game_in(env, channel)
    assert after.version == after_first.version
    store = bot_of(env).store
    assert store is not None
    assert sum(1 for a in await store.actions(after.id) if a.notation == "buy Lumberjack") == 1


async def test_defect_4_a_command_racing_a_click_applies_once(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    mover, value = await _same_player_again(env, channel, players)
    menu = await open_menu(mover, board_message(channel))  # chosen against the same version
    await mover.slash(channel, "petersburg buy", card=value)
    applied = await game_in(env, channel)
    select = next(c for c in controls(menu) if (c.custom_id or "").endswith(":buy-0"))
    option = next(o.value for o in select.options if o.value.startswith("buy|lumberjack|"))
    r = await mover.select(menu, [option], custom_id=select.custom_id)
    texts = [m.content for m in [r.response, *r.followups] if m is not None]
    assert any("already made" in x for x in texts), texts
    assert (await game_in(env, channel)).version == applied.version


async def test_defect_6_a_transient_dm_failure_does_not_silence_the_player(env: simcord.Env) -> None:
    """A 500 on the welcome DM: it is sent again shortly after, the player is not marked unreachable and the
    channel is not told that their DMs are closed."""
    channel = env.create_guild().create_text_channel("petersburg")
    players = setup_members(env, 2)
    dm = players[1].user.dm_channel
    env.inject_error("POST", f"/channels/{dm.id}/messages", status=500, times=1)
    await start_game(env, channel, players)
    await env.advance_time(5)  # the background retry (a few seconds later)
    assert len(dm.history()) == 1 and "hand" in dm.history()[0].content.lower()
    store = bot_of(env).store
    assert store is not None
    assert await store.dm_unreachable_since(players[1].id) is None
    assert not any("cannot send direct messages" in m.content for m in channel.history())
    cog = bot_of(env).get_cog("Petersburg")
    assert await cog.dms.send(players[1].id, "later") is True  # type: ignore[union-attr]
    assert dm.history()[-1].content == "later"


async def test_defect_6_closed_dms_are_stored_and_cleared_by_the_hand_command(env: simcord.Env,
                                                                             db_path: Path) -> None:
    channel = env.create_guild().create_text_channel("petersburg")
    players = setup_members(env, 2)
    closed = players[1]
    dm = closed.user.dm_channel
    env.inject_error("POST", f"/channels/{dm.id}/messages", status=403, code=50007,
                     message="Cannot send messages to this user", times=1)
    await start_game(env, channel, players)
    assert any("cannot send direct messages" in m.content for m in channel.history())
    store = bot_of(env).store
    assert store is not None
    assert await store.dm_unreachable_since(closed.id) is not None
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False))  # remembered across a restart
    assert old.store is not None
    await old.store.close()
    store = bot_of(env).store
    assert store is not None
    assert await store.dm_unreachable_since(closed.id) is not None
    cog = bot_of(env).get_cog("Petersburg")
    assert await cog.dms.send(closed.id, "skipped") is False  # type: ignore[union-attr]
    assert dm.history() == []
    r = await closed.slash(channel, "petersburg hand")
    assert r.ephemeral and "hand" in (r.response.content if r.response else "").lower()
    assert await store.dm_unreachable_since(closed.id) is None
    assert await cog.dms.send(closed.id, "your hand again") is True  # type: ignore[union-attr]
    assert [m.content for m in dm.history()] == ["your hand again"]
