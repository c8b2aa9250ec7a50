"""↩️ Take back in Discord (SimCord): a move taken back from its private confirmation and from the menu, in a
base game and in one with the Market and modules; what the board, the log, the stale menus, the record and
the replay make of it; and the refusals: another seat chose since, a card was drawn, the game ended, the
host or the server switched take-backs off."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.actors import MemberActor

from bot.replays import rebuild
from bot.service import GameService, UserError
from bot.store import TAKEBACK, Store
from rules import GameState, legal_moves, replay

from .helpers import (
    board_message,
    bot_of,
    controls,
    decider_of,
    game_in,
    new_table,
    open_menu,
    reply_of,
    select_kind,
    setup_members,
    state_in,
)


def service_of(env: simcord.Env) -> GameService:
    service = bot_of(env).service
    assert service is not None
    return service


def takeback_id(message: Any) -> str | None:
    return next((c.custom_id for c in controls(message) if (c.custom_id or "").startswith("pb:u:")), None)


def answer(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    msgs = [m for m in [result.response, *result.followups] if m is not None and m.content]
    assert msgs, result
    return msgs[-1]


def board_text(channel: simcord.ChannelHandle) -> str:
    return "\n".join(e.description or "" for e in board_message(channel).embeds)


async def choose(actor: MemberActor, menu: simcord.ResponseMessage, kind: str) -> simcord.InteractionResult:
    """Pick the first move of ``kind`` in a private menu (a select option, or the pass button)."""
    for c in controls(menu):
        cid = c.custom_id or ""
        if cid.startswith("pb:s:") and select_kind(cid) == kind:
            value = next(o.value for o in c.options if not o.value.startswith("?"))
            return await actor.select(menu, [value], custom_id=cid)
        if cid.startswith("pb:b:") and cid.split(":")[-1].startswith(kind + "|"):
            return await actor.click(menu, custom_id=cid)
    raise AssertionError(f"no {kind} in the menu")


async def move(channel: simcord.ChannelHandle, players: list[MemberActor], kind: str = "buy"
               ) -> tuple[MemberActor, simcord.ResponseMessage]:
    """The player to decide picks a move of ``kind`` from ▶️ Your move; returns them and their confirmation."""
    actor = decider_of(board_message(channel), players)
    result = await choose(actor, await open_menu(actor, board_message(channel)), kind)
    return actor, reply_of(result)


async def test_takeback_in_a_base_game_from_the_confirmation(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    store = bot_of(env).store
    assert store is not None
    start = await game_in(env, channel)
    anna, done = await move(channel, players)
    assert done.ephemeral and done.content.startswith("✅")
    cid = takeback_id(done)
    assert cid is not None and cid.endswith(f":{(await game_in(env, channel)).version}")
    boris = decider_of(board_message(channel), players)
    assert boris is not anna
    stale_menu = await open_menu(boris, board_message(channel))  # opened before the take-back

    result = await anna.click(done, custom_id=cid)
    back = answer(result)
    assert back.ephemeral and "took back: bought" in back.content and "Your move" in back.content
    game = await game_in(env, channel)
    assert game.version == start.version + 2 and game.state == start.state  # a new version, the old position
    assert decider_of(board_message(channel), players) is anna
    assert "took back: bought" in board_text(channel)

    refused = answer(await choose(boris, stale_menu, "buy"))
    assert "took back a move" in refused.content and "out of date" in refused.content
    assert (await game_in(env, channel)).version == game.version

    rows = await store.actions(game.id)
    assert [r.auto for r in rows] == [None, TAKEBACK] and rows[0].taken_back == 1 and not rows[0].stands
    record = await service_of(env).record(game)
    assert record.actions == [] and replay(record).to_json() == game.state
    log = reply_of(await anna.slash(channel, "petersburg log"))
    text = log.message.embeds[0].description or ""
    assert "(taken back)" in text and "↩️" in text and "took back: bought" in text

    anna2, again = await move(channel, players)  # the game goes on from there
    assert anna2 is anna and again.content.startswith("✅")
    game = await game_in(env, channel)
    assert replay(await service_of(env).record(game)).to_json() == game.state


async def test_takeback_from_the_menu_and_refused_once_another_seat_chose(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    anna, done = await move(channel, players)
    # ▶️ Your move while it is someone else's turn: the window is still open, ↩️ is offered there too
    menu = await open_menu(anna, board_message(channel))
    assert "take back" in menu.content and takeback_id(menu) is not None
    boris, _ = await move(channel, players)
    assert boris is not anna
    late = answer(await anna.click(done, custom_id=takeback_id(done)))
    assert "Too late" in late.content
    late = answer(await anna.click(menu, custom_id=takeback_id(menu)))
    assert "Too late" in late.content
    game = await game_in(env, channel)
    with pytest.raises(UserError) as e:
        await service_of(env).take_back(game.id, anna.id, None)
    assert e.value.code == "takeback_others"
    assert takeback_id(await open_menu(anna, board_message(channel))) is None
    # Boris may take his back; then Anna still may not take back hers (Boris chose since)
    assert (await service_of(env).take_back(game.id, boris.id, game.version)).seat == game.seat_of(boris.id)
    with pytest.raises(UserError) as e:
        await service_of(env).take_back(game.id, anna.id, None)
    assert e.value.code == "takeback_others"


async def test_takeback_refused_when_a_card_was_drawn(env: simcord.Env) -> None:
    """Moves until one ends a phase that deals the next one's cards (2nd edition: the display bought empty):
    every move before it offers ↩️, that one does not, and its take-back is refused."""
    channel, players = await new_table(env, 2)
    service = service_of(env)
    game = await game_in(env, channel)
    for _ in range(40):
        before = await state_in(env, channel)
        buy = any(m.action.kind == "buy" for m in legal_moves(before))
        actor, done = await move(channel, players, "buy" if buy else "pass")
        after = await state_in(env, channel)
        if any(len(after.decks[d]) < len(cards) for d, cards in before.decks.items()):
            break
        assert takeback_id(done) is not None  # nothing hidden came to light: ↩️ offered
    else:
        raise AssertionError("no move dealt cards")
    assert takeback_id(done) is None and after.phase != before.phase
    with pytest.raises(UserError) as e:
        await service.take_back(game.id, actor.id, None)
    assert e.value.code == "takeback_revealed"


async def test_takeback_never_after_the_game_ended(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    service = service_of(env)
    game = await game_in(env, channel)
    rng = random.Random(3)
    while game.status == "active":
        st = GameState.from_json(game.state or {})
        uid = game.user_at(st.decider)
        assert uid is not None
        out = await service.act(game.id, uid, rng.choice(legal_moves(st)).action, version=game.version)
        game = await game_in(env, channel)
    assert game.status == "finished"
    with pytest.raises(UserError) as e:
        await service.take_back(game.id, out.game.user_at(out.seat) or 0, None)
    assert e.value.code == "takeback_game_over"
    # the replay shows what stands; a game with a take-back in it: see the Market test


async def test_takeback_switched_off_by_the_host_and_the_server(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    service = service_of(env)
    host = players[0]
    shown = answer(await host.slash(channel, "petersburg host settings", takeback=False))
    assert "last move: off" in shown.content
    anna, done = await move(channel, players)
    assert takeback_id(done) is None
    game = await game_in(env, channel)
    with pytest.raises(UserError) as e:
        await service.take_back(game.id, anna.id, None)
    assert e.value.code == "takeback_off"
    await host.slash(channel, "petersburg host settings", takeback=True)
    assert (await service.take_back(game.id, anna.id, None)).seat == game.seat_of(anna.id)
    # the server's default: off unless the game says otherwise
    assert game.guild_id is not None
    await service.update_server_settings(game.guild_id, {"takeback": 0})
    game = await game_in(env, channel)
    assert await service.takeback_allowed(game)  # this game switched them on itself
    game.settings.pop("takeback")
    assert not await service.takeback_allowed(game) and not await service.server_takeback(game.guild_id)


async def test_takeback_with_the_market_and_modules_and_its_replay(env: simcord.Env) -> None:
    """Three players, the Market and Modules 4 and 6: a take-back, then the game to its end; the replay
    shows the taken-back move and the take-back as steps, the record only what stands."""
    channel = env.create_guild().create_text_channel("market")
    players = setup_members(env, 3)
    await players[0].slash(channel, "petersburg create", market=True)
    lobby = next(m for m in reversed(channel.history()) if any((c.custom_id or "").startswith("pb:x:")
                                                              for c in controls(m)))
    picker = next(c for c in controls(lobby) if (c.custom_id or "").startswith("pb:x:"))
    assert isinstance(picker, discord.SelectMenu)
    await players[0].select(lobby, ["market", "module4", "module6"], custom_id=picker.custom_id)
    for p in players[1:]:
        await p.slash(channel, "petersburg join")
    await players[0].slash(channel, "petersburg start")
    game = await game_in(env, channel)
    assert set(game.ruleset.get("modules", [])) == {4, 6}
    start = game.state
    anna, done = await move(channel, players)
    back = answer(await anna.click(done, custom_id=takeback_id(done)))
    assert "took back" in back.content
    assert (await game_in(env, channel)).state == start
    service = service_of(env)
    store = bot_of(env).store
    assert store is not None
    rng = random.Random(5)
    game = await game_in(env, channel)
    while game.status == "active":
        st = GameState.from_json(game.state or {})
        uid = game.user_at(st.decider)
        assert uid is not None
        await service.act(game.id, uid, rng.choice(legal_moves(st)).action, version=game.version)
        game = await game_in(env, channel)
    rows = await store.actions(game.id)
    record = await service.record(game)
    assert len(record.actions) == len(rows) - 2 and replay(record).to_json() == game.state
    r = rebuild(game.id, record, rows)
    assert r.last == len(rows)
    assert r.states[1] != start and r.states[2] == start  # the move, then the take-back back to the start
    assert r.states[-1] == game.state
    # the replay viewer: the move, marked, then the take-back as a step of its own
    history = reply_of(await players[1].slash(channel, "petersburg history"))
    viewer = reply_of(await players[1].click(history, custom_id=f"pb:r:{game.id}:0:open"))
    lines = []
    for _ in range(2):
        fwd = next(c for c in controls(viewer) if (c.custom_id or "").endswith(":fwd"))
        await players[1].click(viewer, custom_id=fwd.custom_id)
        lines.append(viewer.content)
    assert "(taken back)" in lines[0] and "took back: bought" in lines[1]


async def test_takeback_gives_back_a_pass_mode_the_action_used_up(db_path: Path) -> None:
    """Boris's "pass my next turn" passed for him right after Anna's move: taken back with it, and his mode is
    his again (it has not been used)."""
    store = await Store.open(db_path)
    svc = GameService(store)
    game = await svc.create(guild_id=1, channel_id=100, user_id=10, name="Anna", seed=9)
    await svc.join(100, 11, "Boris")
    await svc.start(100, 10)
    rng = random.Random(9)
    for _ in range(300):
        game = await svc.game(game.id)
        st = GameState.from_json(game.state or {})
        mover = game.user_at(st.decider)
        assert mover is not None
        other = 21 - mover  # the members are 10 and 11
        if st.pending is None and any(m.action.kind == "pass" for m in legal_moves(st)) and st.passes == 0:
            await svc.set_pass_mode(game.id, other, "turn")
            safe = [m.action for m in legal_moves(st) if m.action.kind == "take"]
            if safe:
                out = await svc.act(game.id, mover, safe[0], version=game.version)
                if [o.auto for o in out.followups][:1] == ["mode_turn"] and await svc.can_take_back(
                        await svc.game(game.id), mover):
                    break
                continue
            await svc.set_pass_mode(game.id, other, None)
        await svc.act(game.id, mover, rng.choice(legal_moves(st)).action, version=game.version)
    else:
        raise AssertionError("no pass mode came to pass after a take")
    seat = game.seat_of(other)
    assert seat is not None and (await svc.pass_modes(game.id)).get(seat) is None  # used up
    await svc.take_back(game.id, mover, None)
    mode = (await svc.pass_modes(game.id)).get(seat)
    assert mode is not None and mode.mode == "turn"
    await store.close()
