"""A command typed without a version (no autocomplete value) right after the board changed is
checked against what the player has seen. It used to be checked against the version stored as shown, which
is saved only after the visible edit (0.33 s later at p50 under load, 1.6 s at p99): a move typed against the
board on screen was refused "This board is out of date", and so was a ``/pass`` typed right after the
private "✅ … You decide again".

The windows are held open here: the bot's step waits until the test lets it go on (a declared external wait,
so SimCord settles around it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import simcord

from rules import GameState, format_action, legal_moves

from .helpers import (
    board_message,
    bot_of,
    decider,
    decider_and_other,
    game_in,
    new_table,
    reply_of,
    rig,
    state_in,
)
from .test_faults import _two_lumberjacks

if TYPE_CHECKING:
    from cogs.petersburg import Petersburg


def _hold(env: simcord.Env, target: Any, name: str, held: list[int], gate: asyncio.Event) -> None:
    """``target.name`` waits until ``gate`` is set before doing its work (each call is counted in ``held``)."""
    original: Callable[..., Awaitable[Any]] = getattr(target, name)

    async def waiting(*args: Any, **kwargs: Any) -> Any:
        held.append(1)
        await env.external_wait(gate.wait(), reason="the test holds this step back")
        return await original(*args, **kwargs)

    setattr(target, name, waiting)


def _version_shown(channel: simcord.ChannelHandle) -> int:
    """The game version in the live board's "Your move" button (what the channel shows)."""
    board = board_message(channel)
    cid = next(c.custom_id for row in board.components for c in getattr(row, "children", [])
               if (c.custom_id or "").startswith("pb:y:"))
    return int(cid.split(":")[-1])


def _typed(st: GameState) -> tuple[str, str]:
    """A legal move of the decider as a person types it: (command, its text without a version)."""
    move = legal_moves(st)[0].action
    notation = format_action(move, st.ruleset.catalogue)
    if move.kind == "pass":
        return "petersburg pass", ""
    return f"petersburg {move.kind}", notation


async def test_a_move_typed_against_the_visible_board_is_accepted(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    store = bot_of(env).store
    assert store is not None
    held: list[int] = []
    gate = asyncio.Event()
    _hold(env, store, "mark_shown", held, gate)  # the board is edited; saving that it shows the new version is late
    first = decider(channel, players)
    st = await state_in(env, channel)
    command, text = _typed(st)
    r = await first.slash(channel, command, **({"card": text} if text else {}))
    assert "✅" in reply_of(r).content
    game = await game_in(env, channel)
    assert held and _version_shown(channel) == game.version  # the channel shows the move ...
    assert game.shown_version < game.version  # ... before the bot has stored that it does
    second = decider(channel, players)
    command, text = _typed(await state_in(env, channel))
    r = await second.slash(channel, command, **({"card": text} if text else {}))
    assert "✅" in reply_of(r).content, reply_of(r).content  # typed against the board on screen
    assert (await game_in(env, channel)).version > game.version
    gate.set()
    await env.settle()
    assert _version_shown(channel) == (await game_in(env, channel)).version


async def test_pass_typed_right_after_you_decide_again_is_accepted(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    await rig(env, channel, players, _two_lumberjacks)
    mover, other = decider_and_other(channel, players)
    assert (await other.slash(channel, "petersburg pass", mode="phase")).ephemeral
    held: list[int] = []
    gate = asyncio.Event()
    cog = bot_of(env).get_cog("Petersburg")
    assert cog is not None
    _hold(env, cast("Petersburg", cog).poster, "_attempt", held, gate)  # the board is late
    r = await mover.slash(channel, "petersburg buy", card="Lumberjack")
    assert "You decide again" in reply_of(r).content, reply_of(r).content
    game = await game_in(env, channel)
    assert held and _version_shown(channel) < game.version  # the channel still shows the old board
    r = await mover.slash(channel, "petersburg pass")
    assert "✅" in reply_of(r).content, reply_of(r).content
    assert (await game_in(env, channel)).version > game.version
    gate.set()
    await env.settle()
    assert _version_shown(channel) == (await game_in(env, channel)).version
