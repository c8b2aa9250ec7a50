"""Computer players at the table, in Discord.

A four-player game with three computers played whole; a restart while a computer is to move; the bot keeps
answering another game while a computer thinks (in a worker process); a person takes a computer's seat; the
time-out hands an absent player's seat to a computer; hints, and the host turning them off; history marks
games with computers and the leaderboard ranks people-only games.
"""

from __future__ import annotations

import asyncio
import json
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import PetersburgBot
from bot.thinking import THINK
from cogs import computers
from rules import legal_moves

from .conftest import make_bot
from .helpers import (
    act_by_buttons,
    bot_of,
    decider,
    decider_and_other,
    game_in,
    new_table,
    setup_members,
    state_in,
)


@pytest.fixture(autouse=True)
def _stop_thinking() -> object:
    yield
    THINK.shutdown()  # the next test's event loop starts its own workers


async def _one_human_three_computers(env: simcord.Env) -> tuple[simcord.ChannelHandle, list]:
    channel = env.create_guild().create_text_channel("table")
    players = setup_members(env, 1)
    host = players[0]
    r = await host.slash(channel, "petersburg create", computers=1, level="easy")
    assert r.ephemeral
    for level in ("normal", "strong"):
        r = await host.slash(channel, "petersburg host addbot", level=level)
        assert r.response is not None and "takes a seat" in r.response.content, r.response
    game = await game_in(env, channel)
    assert [s.computer for s in game.seats] == [None, "easy", "normal", "strong"]
    lobby = next(m for m in channel.history() if "opened a game" in m.content)
    assert "🤖 Computer (strong)" in lobby.content
    r = await host.slash(channel, "petersburg start")
    assert r.acknowledged
    return channel, players


async def test_four_players_three_computers_played_whole(env: simcord.Env) -> None:
    channel, players = await _one_human_three_computers(env)
    human = players[0]
    for _ in range(200):
        game = await game_in(env, channel)
        if game.status != "active":
            break
        st = await state_in(env, channel)
        assert game.user_at(st.decider) == human.id, "the computers did not play on by themselves"
        await act_by_buttons(env, channel, players)
    game = await game_in(env, channel)
    assert game.status == "finished" and game.final_posted
    store = bot_of(env).store
    assert store is not None
    rows = await store.actions(game.id)
    by_computer = {r.seat for r in rows if r.auto == "computer"}
    assert by_computer == {1, 2, 3} and all(r.user_id is None for r in rows if r.auto == "computer")
    log = await human.slash(channel, "petersburg log", count=30)
    assert log.response is not None and "computer player" in (log.response.embeds[0].description or "")
    history = await human.slash(channel, "petersburg history")
    assert history.response is not None and "🤖" in history.response.content
    board = await human.slash(channel, "petersburg leaderboard", by="wins")  # by wins: people-only games
    assert board.response is not None and f"<@{human.id}>" not in board.response.content
    board = await human.slash(channel, "petersburg leaderboard")  # by rating: games with computers count
    assert board.response is not None and f"1. <@{human.id}> — **" in board.response.content
    assert bot_of(env).bugs == []


async def test_a_computer_resumes_after_a_restart(env: simcord.Env, db_path: Path) -> None:
    old: PetersburgBot = bot_of(env)
    channel, players = await _one_human_three_computers(env)
    # the next process must find a computer to move: the human moves while the computers wait a long time
    await env.restart_bot(make_bot(db_path, sync=False, computer_pause=10_000.0))
    assert old.store is not None
    await old.store.close()
    waiting = bot_of(env)
    before = await game_in(env, channel)
    await act_by_buttons(env, channel, players)
    stuck = await game_in(env, channel)
    st = await state_in(env, channel)
    assert stuck.computer_at(st.decider) is not None and stuck.version > before.version
    await env.restart_bot(make_bot(db_path, sync=False))  # a restart in the middle of a computer's turn
    assert waiting.store is not None
    await waiting.store.close()
    await env.settle()
    resumed = await game_in(env, channel)
    st = await state_in(env, channel)
    assert resumed.version > stuck.version
    assert resumed.status != "active" or resumed.user_at(st.decider) == players[0].id


def think_when_released(folder: str, *args: Any) -> Any:
    """In the thinking worker: once the test has armed it (the file ``armed``), say the computer's move has
    begun (the file ``started``) and wait until the test releases it (the file ``release``); then think it
    (``bot.thinking.think``). The armed move provably lasts until then, however fast the machine."""
    from bot import thinking

    if Path(folder, "armed").exists():
        Path(folder, "started").touch()
        while not Path(folder, "release").exists():
            time.sleep(0.005)
    return thinking.think(*args)


async def test_the_bot_answers_other_games_while_a_computer_thinks(
    env: simcord.Env, db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A strong computer thinks in its worker process (held there until the test releases it); meanwhile an
    action in another game is applied and shown (the event loop is free)."""
    monkeypatch.setattr(computers.thinking, "think", partial(think_when_released, str(tmp_path)))
    await env.restart_bot(make_bot(db_path, sync=False))
    guild = env.create_guild()
    table = guild.create_text_channel("table")
    other = guild.create_text_channel("other")
    players = setup_members(env, 3, guild)
    await players[0].slash(table, "petersburg create", computers=1, level="strong")
    await players[0].slash(table, "petersburg start")
    await players[1].slash(other, "petersburg create")
    await players[2].slash(other, "petersburg join")
    await players[1].slash(other, "petersburg start")
    bot = bot_of(env)
    cog = bot.get_cog("Petersburg")
    assert cog is not None and bot.service is not None
    # the human moves (without waiting for the computer) until the computer has a real choice (with a single
    # legal move it answers at once, without thinking)
    for _ in range(40):
        game = await game_in(env, table)
        st = await state_in(env, table)
        if game.computer_at(st.decider) is not None and len(legal_moves(st)) > 1:
            break
        first = legal_moves(st)[0].action
        if game.computer_at(st.decider) is None:
            await bot.service.act(game.id, game.user_at(st.decider) or 0, first, version=game.version)
        else:
            await bot.service.computer_act(game.id, st.decider, game.version, first)
    assert game.computer_at(st.decider) is not None and len(legal_moves(st)) > 1
    (tmp_path / "armed").touch()  # the computer's next move is held (no Discord interaction until released)
    cog.computers.kick(game.id)  # type: ignore[attr-defined]
    runner = cog.computers._runners[game.id]  # type: ignore[attr-defined]
    while not (tmp_path / "started").exists():  # the computer is thinking now
        assert not runner.done()
        await asyncio.sleep(0.005)
    second = await game_in(env, other)
    st2 = await state_in(env, other)
    await bot.service.act(second.id, second.user_at(st2.decider) or 0, legal_moves(st2)[0].action,
                          version=second.version)
    assert await cog.poster.show(second.id) is None  # type: ignore[attr-defined]
    assert (await game_in(env, other)).version > second.version
    assert not runner.done(), "the computer should still be thinking"
    (tmp_path / "release").touch()
    await asyncio.wait_for(runner, 30)
    assert (await game_in(env, table)).version > game.version
    for _ in range(50):  # the boards are shown and the computers done before the test ends
        running = [task for task in [*cog.poster._runners.values(),  # type: ignore[attr-defined]
                                     *cog.computers._runners.values()] if not task.done()]  # type: ignore[attr-defined]
        if not running:
            break
        await asyncio.wait(running, timeout=30)


async def test_a_person_takes_a_computers_seat(env: simcord.Env) -> None:
    channel, players = await _one_human_three_computers(env)
    newcomer = env.guild.add_member(env.create_user("newcomer"))
    r = await newcomer.slash(channel, "petersburg join")
    assert r.ephemeral
    game = await game_in(env, channel)
    seat = game.seat_of(newcomer.id)
    assert seat is not None and game.computer_at(seat) is None
    assert sum(1 for s in game.seats if s.computer) == 2


async def test_time_out_hands_the_seat_to_a_computer(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    r = await players[0].slash(channel, "petersburg host settings", autopass="5", takeover=True)
    assert r.response is not None and "takes over at the time-out: on" in r.response.content
    absent = decider(channel, players)
    await env.advance_time(6 * 60)
    game = await game_in(env, channel)
    seat = next(s.seat for s in game.seats if s.computer is not None)
    assert game.user_at(seat) is None and game.seats[seat].name.endswith("🤖")
    assert any(f"<@{absent.id}>" in m.content and "takes over" in m.content for m in channel.history())
    store = bot_of(env).store
    assert store is not None
    assert any(a.auto == "computer" and a.seat == seat for a in await store.actions(game.id))


async def test_hint_is_private_and_the_host_can_turn_hints_off(env: simcord.Env) -> None:
    channel, players = await new_table(env)
    mover, waiting = decider_and_other(channel, players)
    r = await mover.slash(channel, "petersburg hint")
    assert r.ephemeral and r.response is not None and "Suggested" in r.response.content, r.response
    r = await waiting.slash(channel, "petersburg hint")
    assert r.response is not None and "own turn" in r.response.content
    await players[0].slash(channel, "petersburg host settings", hints=False)
    r = await mover.slash(channel, "petersburg hint")
    assert r.response is not None and "turned hints off" in r.response.content


WORKER = r"""
import json, sys
import bot.thinking as thinking
before = "rules.state" in sys.modules
thinking.init_worker()
from rules import GameState, Ruleset, new_game
import players.search
st = new_game(Ruleset(players=2), ["a", "b"], seed=3)
action = thinking.think(st.to_json(), st.decider, "strong", 1, 0.05)
out = {"before": before, "core": thinking.core(), "search": players.search.__file__, "action": list(action)}
print(json.dumps(out))
"""


def test_thinking_worker_runs_the_compiled_players_when_built(players_build: Path) -> None:
    """A thinking worker takes the compiled rules core and players (players/compile.py) when the build is
    current: it decides before importing the rules, and the players it runs are the build's too."""
    import os
    import subprocess
    import sys

    from players.compile import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", WORKER], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert out["before"] is False
    assert out["core"] == "compiled (mypyc)"
    assert not out["search"].endswith(".py"), out["search"]


def test_thinking_keeps_the_strong_search_tree_per_game() -> None:
    """The thinking worker names the game (tree reuse): after a strong move it keeps the subtree
    under that move for the seat's next decision in the same game, and only there."""
    from bot import thinking
    from players.trees import TREES
    from rules import Ruleset, new_game

    st = new_game(Ruleset(players=2), ["a", "b"], seed=3)
    assert len(legal_moves(st)) > 1
    thinking.think(st.to_json(), st.decider, "strong", 1, 0.05, 4242)
    try:
        assert (4242, st.decider) in TREES.kept
        assert TREES.take(4243, st.decider, st.action_count + 2) is None  # another game
    finally:
        TREES.forget(4242)
