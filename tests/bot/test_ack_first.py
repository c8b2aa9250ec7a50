"""A move is applied only after its interaction was acknowledged.

Discord answers the acknowledgement (the interaction's first callback) with a 500 or a 503, or the request
times out. discord.py tries a failed callback again after 1 s, then 3 s; Discord expires an interaction not
acknowledged within 3 s. Once: the second try is in time, the move is made and confirmed. Twice: the third try
would come after 4 s, too late, so the player sees "This interaction failed" and nothing changes; their retry
is then a fresh move, made once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import simcord
from simcord.actors import MemberActor

from .helpers import (
    board_message,
    bot_of,
    controls,
    decider,
    game_in,
    new_table,
    open_menu,
    reply_of,
)

CALLBACK = "/interactions/*/callback"


@contextmanager
def timing_out(env: simcord.Env, times: int) -> Iterator[None]:
    """The next ``times`` interaction callbacks time out: no answer for a second, then ``TimeoutError`` (what
    aiohttp raises), at the transport SimCord puts under discord.py's interaction responses."""
    adapter = env._webhook_adapter
    real = adapter.request
    left = [times]

    async def request(route: Any, *args: Any, **kwargs: Any) -> Any:
        if left[0] > 0 and route.method == "POST" and route.url.endswith("/callback"):
            left[0] -= 1
            await asyncio.sleep(1.0)
            raise TimeoutError
        return await real(route, *args, **kwargs)

    adapter.request = request
    try:
        yield
    finally:
        adapter.request = real


def inject(env: simcord.Env, fault: str, times: int) -> Any:
    if fault == "timeout":
        return timing_out(env, times)
    env.inject_error("POST", CALLBACK, status=int(fault), times=times)
    return contextmanager(lambda: iter([None]))()


async def _buy_choice(env: simcord.Env, channel: simcord.ChannelHandle,
                      players: list[MemberActor]) -> tuple[MemberActor, str]:
    actor = decider(channel, players)
    choices = await actor.autocomplete(channel, "petersburg buy", "card", "")
    assert choices, "nothing to buy"
    return actor, choices[0]["value"]


async def _moves_of(env: simcord.Env, channel: simcord.ChannelHandle, actor: MemberActor) -> int:
    store = bot_of(env).store
    assert store is not None
    game = await game_in(env, channel)
    return sum(1 for a in await store.actions(game.id) if a.user_id == actor.id)


@pytest.mark.parametrize("fault", ["500", "503", "timeout"])
async def test_an_acknowledgement_failing_once_is_tried_again_in_time(env: simcord.Env, fault: str) -> None:
    channel, players = await new_table(env)
    actor, value = await _buy_choice(env, channel, players)
    before = (await game_in(env, channel)).version
    with inject(env, fault, 1):
        r = await actor.slash(channel, "petersburg buy", card=value)
    assert r.acknowledged
    shown = reply_of(r)
    assert shown.ephemeral and "✅" in shown.content, shown.content
    assert (await game_in(env, channel)).version > before
    assert await _moves_of(env, channel, actor) == 1


@pytest.mark.parametrize("fault", ["500", "503", "timeout"])
async def test_an_acknowledgement_failing_twice_changes_nothing(env: simcord.Env, fault: str) -> None:
    channel, players = await new_table(env)
    actor, value = await _buy_choice(env, channel, players)
    before = await game_in(env, channel)
    with inject(env, fault, 2):
        r = await actor.slash(channel, "petersburg buy", card=value)
    assert not r.acknowledged  # the player sees "This interaction failed"
    after = await game_in(env, channel)
    assert after.version == before.version and after.state == before.state, "a move shown as failed was kept"
    assert await _moves_of(env, channel, actor) == 0
    again = await actor.slash(channel, "petersburg buy", card=value)  # the player tries again: a fresh move
    assert "✅" in reply_of(again).content, reply_of(again).content
    assert (await game_in(env, channel)).version > before.version
    assert await _moves_of(env, channel, actor) == 1


async def test_a_menu_choice_whose_acknowledgement_fails_twice_changes_nothing(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    actor = decider(channel, players)
    menu = await open_menu(actor, board_message(channel))
    select = next(c for c in controls(menu) if (c.custom_id or "").endswith(":buy-0"))
    option = select.options[0].value
    before = await game_in(env, channel)
    env.inject_error("POST", CALLBACK, status=500, times=2)
    r = await actor.select(menu, [option], custom_id=select.custom_id)
    assert not r.acknowledged
    assert (await game_in(env, channel)).version == before.version
    again = await actor.select(menu, [option], custom_id=select.custom_id)
    assert any("✅" in m.content for m in [again.response, *again.followups] if m is not None)
    assert (await game_in(env, channel)).version > before.version
    assert await _moves_of(env, channel, actor) == 1
