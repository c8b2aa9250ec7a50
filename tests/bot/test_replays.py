"""Replays of finished games: the private viewer opened from the final scores and from the history, by a
member who did not play; each step shows what the channel showed then (the board message and its picture,
the spectator's view: nothing hidden revealed); its buttons step by action, phase and round, and work after
a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import simcord
from simcord.actors import MemberActor

from bot.replays import rebuild

from .conftest import make_bot
from .helpers import act_by_buttons, bot_of, controls, game_in, reply_of, setup_members, start_game


def _store(env: simcord.Env) -> Any:
    store = bot_of(env).store
    assert store is not None
    return store


def _embed(e: discord.Embed) -> dict[str, Any]:
    """An embed as shown, without its picture (whose URL Discord gives per message)."""
    d: dict[str, Any] = dict(e.to_dict())
    return {k: v for k, v in d.items() if k not in ("image", "type")}


async def _live_board(env: simcord.Env, channel: simcord.ChannelHandle) -> tuple[int, discord.Message]:
    """The channel's live board now and the step it shows (the number of actions stored)."""
    game = await game_in(env, channel)
    assert game.shown_version == game.version
    board = next(m for m in channel.history() if m.id == game.board_message_id)
    return len(await _store(env).actions(game.id)), board


async def play_recording(env: simcord.Env, channel: simcord.ChannelHandle, players: list[MemberActor],
                         *, pictures: bool = False) -> dict[int, tuple[dict[str, Any], bytes | None]]:
    """Play the game to its end by the board's buttons; for every step the channel showed, its board embed
    and picture."""
    shown: dict[int, tuple[dict[str, Any], bytes | None]] = {}
    while True:
        step, board = await _live_board(env, channel)
        png = await board.attachments[0].read() if pictures else None
        assert (png is not None) == pictures or not board.attachments
        shown[step] = (_embed(board.embeds[0]), png)
        if (await game_in(env, channel)).status != "active":
            return shown
        await act_by_buttons(env, channel, players)


def _button(viewer: simcord.ResponseMessage | discord.Message, go: str) -> Any:
    return next(c for c in controls(viewer) if (c.custom_id or "").endswith(f":{go}"))


async def click(member: MemberActor, viewer: simcord.ResponseMessage, go: str) -> int:
    """Click one of the viewer's buttons; the step the viewer shows then."""
    button = _button(viewer, go)
    assert not button.disabled, go
    r = await member.click(viewer, custom_id=button.custom_id)
    assert r.acknowledged
    return shown_step(viewer)


def shown_step(viewer: simcord.ResponseMessage) -> int:
    first = viewer.content.split("\n", 1)[0]
    return 0 if "the start" in first else int(first.split("action ", 1)[1].split(" ", 1)[0])


async def open_from_final(member: MemberActor, channel: simcord.ChannelHandle) -> simcord.ResponseMessage:
    final = next(m for m in reversed(channel.history()) if any((c.custom_id or "").startswith("pb:r:")
                                                                for c in controls(m)))
    assert "Final scores" in final.content or "game is over" in final.content
    r = await member.click(final, custom_id=_button(final, "open").custom_id)
    viewer = reply_of(r)
    assert viewer.ephemeral
    return viewer


async def test_a_member_who_did_not_play_steps_through_from_the_final_scores(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("petersburg")
    players = setup_members(env, 2, guild)
    onlooker = guild.add_member(env.create_user("onlooker"))
    await start_game(env, channel, players)
    shown = await play_recording(env, channel, players)
    total = len(await _store(env).actions((await game_in(env, channel)).id))
    viewer = await open_from_final(onlooker, channel)
    assert shown_step(viewer) == 0 and f"({total} actions)" in viewer.content
    assert _button(viewer, "first").disabled and _button(viewer, "back").disabled
    game_id = (await game_in(env, channel)).id
    assert any(c.custom_id == f"pb:v:{game_id}" for c in controls(viewer))  # no review yet: 📈 Review starts one
    seen = {0}
    step = 0
    while step < total:  # every step by "forward": the board message the channel showed then
        step = await click(onlooker, viewer, "fwd")
        seen.add(step)
        if step in shown:
            assert _embed(viewer.embeds[0]) == shown[step][0], step
        assert len(viewer.embeds) == (2 if step == total else 1)
    assert seen == set(range(total + 1)) and len(shown) > total // 3
    assert "The end" in viewer.content and "Final scores" in (viewer.embeds[1].title or "")
    assert _button(viewer, "fwd").disabled and _button(viewer, "last").disabled
    # phases and rounds: back to the start by phases passes every phase's beginning
    phase_starts = [step]
    while step > 0:
        step = await click(onlooker, viewer, "pback")
        phase_starts.append(step)
    rounds = []
    while step < total:
        step = await click(onlooker, viewer, "rfwd")
        rounds.append(step)
    assert len(phase_starts) > len(rounds) > 3 and set(rounds[:-1]) <= set(phase_starts)
    assert await click(onlooker, viewer, "first") == 0
    assert await click(onlooker, viewer, "pfwd") == sorted(phase_starts)[1]
    assert await click(onlooker, viewer, "last") == total
    assert await click(onlooker, viewer, "rback") == rounds[-2]
    assert await click(onlooker, viewer, "back") == rounds[-2] - 1


async def test_from_the_history_and_after_a_restart(env: simcord.Env, db_path: Path) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("petersburg")
    players = setup_members(env, 2, guild)
    onlooker = guild.add_member(env.create_user("onlooker"))
    await start_game(env, channel, players, money="hidden")
    shown = await play_recording(env, channel, players)
    game = await game_in(env, channel)
    r = await onlooker.slash(channel, "petersburg history")
    history = reply_of(r)
    assert not history.ephemeral and f"#{game.id}" in history.content
    r = await onlooker.click(history, custom_id=f"pb:r:{game.id}:0:open")
    viewer = reply_of(r)
    assert viewer.ephemeral and shown_step(viewer) == 0
    assert _embed(viewer.embeds[0]) == shown[0][0]
    assert await click(onlooker, viewer, "fwd") == 1
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False))
    assert old.store is not None
    await old.store.close()
    step = await click(onlooker, viewer, "pfwd")  # nothing of the game in memory now
    assert step > 1 and (step not in shown or _embed(viewer.embeds[0]) == shown[step][0])
    assert await click(onlooker, viewer, "back") == step - 1
    # another server's history does not offer it
    other = env.create_guild()
    stranger = other.add_member(env.create_user("stranger"))
    elsewhere = other.create_text_channel("x")
    r = await stranger.slash(elsewhere, "petersburg history")
    assert f"#{game.id}" not in reply_of(r).content and not controls(reply_of(r))


async def test_rebuilt_steps_end_in_the_stored_state_and_phases_begin_where_the_state_says(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("petersburg")
    players = setup_members(env, 3, guild)
    await start_game(env, channel, players, edition=1)
    while (await game_in(env, channel)).status == "active":
        await act_by_buttons(env, channel, players)
    game = await game_in(env, channel)
    service = bot_of(env).service
    assert service is not None
    rows = await _store(env).actions(game.id)
    r = rebuild(game.id, await service.record(game), rows)
    assert r.states[-1] == game.state and r.last == len(rows)
    phases = r.starts(phase=True)
    assert phases[0] == 0 and all((r.states[k]["round"], r.states[k]["phase"]) != (r.states[k - 1]["round"],
                                                                                  r.states[k - 1]["phase"])
                                  for k in phases[1:])
    assert set(r.starts(phase=False)) < set(phases)
    mid = phases[3] + 1
    assert r.back(mid, phase=True) == phases[3] and r.back(phases[3], phase=True) == phases[2]
    assert r.forward(mid, phase=True) == phases[4] and r.forward(r.last, phase=True) == r.last
