"""Whole games of the base game through the real cogs: 2 members by buttons, 3 by commands (moves by buttons
and by commands mixed in one game: test_expansion_games, with a restart)."""

from __future__ import annotations

import time

import pytest
import simcord

from .helpers import game_in, new_table, play_to_end, state_in


@pytest.mark.parametrize(("n", "by"), [(2, "buttons"), (3, "commands")])
async def test_full_game(env: simcord.Env, n: int, by: str) -> None:
    channel, players = await new_table(env, n)
    t0 = time.perf_counter()
    actions = await play_to_end(env, channel, players, by=by)
    print(f"{n} players by {by}: {actions} actions in {time.perf_counter() - t0:.1f}s")
    game = await game_in(env, channel)
    assert game.status == "finished"
    st = await state_in(env, channel)
    assert st.finished and st.final is not None
    # final scores with the breakdown are in the channel, and no board keeps its controls
    final = channel.history()[-1]
    assert final.embeds and len(final.embeds[0].fields) == n + 1  # a field per player, then the ratings
    assert final.embeds[0].fields[-1].name == "Ratings"
    body = "\n".join(f.value or "" for f in final.embeds[0].fields)
    assert "Hand penalty" in body or "Rubles" in body or "Workers" in body
    assert all(not m.components for m in channel.history() if m.author.bot and "your turn" in m.content)
    # every action is in the log once, in order: the players' and the bot's forced passes
    store = env.bot.store  # type: ignore[attr-defined]
    rows = await store.actions(game.id)
    assert [r.idx for r in rows] == list(range(st.action_count))
    assert len([r for r in rows if r.auto is None]) == actions
