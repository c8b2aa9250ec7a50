"""Whole games with the expansions and modules in Discord (issue 16; issue 19 adds its modules here): from
the lobby, where the host picks the parts in the expansions select, to the final scores, by buttons and by
commands (the new decisions through the private menu and ``/petersburg decide``), with a restart in the
middle and a time-out on one of the new decisions (X-07: the absent player's default); then the exported
record replays the game exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import simcord

from rules import GameRecord, catalogue, replay
from rules.cards import all_types

from .conftest import make_bot
from .helpers import act_by_buttons, act_by_commands, bot_of, controls, game_in, reply_of, setup_members, state_in

BASE_PENDING = {"pub", "observatory", "good", "crate"}  # the decisions of the base game and the Market

TABLES = [
    pytest.param(1, 5, ["new_society", "module1"], 21, id="ed1-5p-new-society-banquet"),
    pytest.param(2, 4, ["market", "module1", "module2"], 22, id="ed2-4p-market-modules-1-2"),
]


def _lobby(channel: simcord.ChannelHandle) -> Any:
    return next(m for m in reversed(channel.history())
                if any((c.custom_id or "").startswith("pb:x:") for c in controls(m)))


@pytest.mark.parametrize(("edition", "seats", "parts", "seed"), TABLES)
async def test_expansion_game_whole(env: simcord.Env, db_path: Path, edition: int, seats: int, parts: list[str],
                                    seed: int) -> None:
    channel = env.create_guild().create_text_channel(f"ed{edition}-{'-'.join(parts)}")
    players = setup_members(env, seats)
    await players[0].slash(channel, "petersburg create", edition=edition)
    lobby = _lobby(channel)
    picker = next(c for c in controls(lobby) if (c.custom_id or "").startswith("pb:x:"))
    assert reply_of(await players[0].select(lobby, parts, custom_id=picker.custom_id)).ephemeral
    for p in players[1:]:
        await p.slash(channel, "petersburg join")
    store = bot_of(env).store
    assert store is not None
    async with store.transaction() as conn:  # a known deal (the lobby draws its seed at random)
        await conn.execute("UPDATE games SET seed = ? WHERE channel_id = ?", (seed, channel.id))
    assert (await players[0].slash(channel, "petersburg start")).acknowledged
    game = await game_in(env, channel)
    assert len(game.seats) == seats and game.status == "active"
    ruleset = (await state_in(env, channel)).ruleset
    assert [*ruleset.expansions, *(f"module{m}" for m in ruleset.modules)] == parts
    timed_out: str | None = None
    restarted = False
    new_decisions: set[str] = set()
    for n in range(4000):
        game = await game_in(env, channel)
        if game.status != "active":
            break
        st = await state_in(env, channel)
        kind = st.pending.kind if st.pending is not None else None
        if kind is not None and kind not in BASE_PENDING:
            new_decisions.add(kind)
            if timed_out is None:  # the player to decide is away: the time-out takes the default
                host = players[0]
                await host.slash(channel, "petersburg settings", autopass="5")
                await env.advance_time(6 * 60)
                await host.slash(channel, "petersburg settings", autopass="off")
                store = bot_of(env).store
                assert store is not None
                rows = [r for r in await store.actions(game.id) if r.auto == "timeout"]
                assert rows, "the time-out did not decide"
                timed_out = kind
                continue
        if not restarted and n == 60:
            old = bot_of(env)
            await env.restart_bot(make_bot(db_path, sync=False))
            assert old.store is not None
            await old.store.close()
            restarted = True
        if n % 3 == 2:
            await act_by_commands(env, channel, players)
        else:
            await act_by_buttons(env, channel, players)
    game = await game_in(env, channel)
    assert game.status == "finished" and game.final_posted, "the game did not end"
    assert restarted and timed_out is not None, (restarted, timed_out)
    assert new_decisions, "no decision of the expansions came up"
    assert len([m for m in channel.history() if "Final scores" in m.content]) == 1
    reply = reply_of(await players[1].slash(channel, "petersburg export"))
    record = GameRecord.loads((await reply.attachments[0].read()).decode("utf-8"))
    assert record.ruleset == ruleset
    assert replay(record).to_json() == (await state_in(env, channel)).to_json()
    assert bot_of(env).bugs == []


@pytest.mark.parametrize("edition", [1, 2])
async def test_card_and_rules_cover_every_new_card(env: simcord.Env, edition: int) -> None:
    """``/petersburg card`` finds every card of the expansions and modules of the channel's edition by its
    English and German name, and answers with its data; ``rules`` tells of the expansions."""
    channel = env.create_guild().create_text_channel(f"cards{edition}")
    host = setup_members(env, 1)[0]
    await host.slash(channel, "petersburg create", edition=edition)
    base = {t.id for t in catalogue(edition).types}
    new = [t for t in all_types(edition) if t.id not in base]
    assert len(new) >= 20
    for t in new:
        for name in {t.name_en, t.name_de}:
            reply = reply_of(await host.slash(channel, "petersburg card", name=name))
            assert reply.ephemeral and t.name_en in reply.content, (name, reply.content)
    rules = reply_of(await host.slash(channel, "petersburg rules"))
    assert "Expansions and modules" in rules.content and "/petersburg decide" in rules.content
