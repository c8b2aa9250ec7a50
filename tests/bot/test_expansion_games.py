"""Whole games with the expansions and modules in Discord: from the lobby, where the host picks the parts
(in the expansions select, or the Market with the create command's option), to the final scores, by buttons
and by commands (the new decisions through the private menu and ``/petersburg decide``), with a restart in
the middle and a time-out on one of the new decisions (X-07: the absent player's default; with the Market
alone, a crate's, which is released); then the statistics and the exported record, which replays the game
exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from rules import GameRecord, GameState, catalogue, legal_moves, replay
from rules.cards import all_types

from .conftest import make_bot
from .helpers import (
    bot_of,
    choose_seed,
    game_in,
    pick_parts,
    play_whole_game,
    reply_of,
    setup_members,
    state_in,
)

BASE_PENDING = {"pub", "observatory", "good", "crate"}  # the decisions of the base game and the Market
MARKET_DECISIONS = {"as", "confirm", "release"}
ALL_MODULES = ["market", "module1", "module2", "module3", "module4", "module5", "module6"]

TABLES = [
    pytest.param(1, 5, ["new_society", "module1"], 21, id="ed1-5p-new-society-banquet"),
    pytest.param(2, 5, ["market"], 11, id="ed2-5p-market"),
    # the Market with all six modules (Modules 1 and 2 with the Market among them)
    pytest.param(2, 5, ALL_MODULES, 23, id="ed2-5p-market-all-modules"),
]


@pytest.mark.parametrize(("edition", "seats", "parts", "seed"), TABLES)
async def test_expansion_game_whole(env: simcord.Env, db_path: Path, edition: int, seats: int, parts: list[str],
                                    seed: int) -> None:
    channel = env.create_guild().create_text_channel(f"ed{edition}-{'-'.join(parts)}")
    players = setup_members(env, seats)
    market_only = parts == ["market"]
    if market_only:  # the create command's option
        await players[0].slash(channel, "petersburg create", market=True)
    else:
        assert reply_of(await pick_parts(channel, players[0], parts, edition=edition)).ephemeral
    for p in players[1:]:
        await p.slash(channel, "petersburg join")
    if market_only:
        lobby = next(m for m in channel.history() if "opened a game" in m.content)
        assert "with the Market" in lobby.content and f"({seats}/{seats})" in lobby.content
    await choose_seed(env, channel, seed)
    assert (await players[0].slash(channel, "petersburg start")).acknowledged
    game = await game_in(env, channel)
    assert len(game.seats) == seats and game.status == "active"
    ruleset = (await state_in(env, channel)).ruleset
    assert [*ruleset.expansions, *(f"module{m}" for m in ruleset.modules)] == parts
    decisions: set[str] = set()

    def away(st: GameState) -> bool:
        """Notes the decisions that come up; the first new one (with the Market alone: the first crate to
        confirm or release) is the one an absent player's time-out takes."""
        if market_only:
            kinds = {m.action.kind for m in legal_moves(st)}
            decisions.update(kinds & MARKET_DECISIONS)
            return {"confirm", "release"} <= kinds
        kind = st.pending.kind if st.pending is not None else None
        if kind is None or kind in BASE_PENDING:
            return False
        decisions.add(kind)
        return True

    timed_out = await play_whole_game(env, channel, players, lambda: make_bot(db_path, sync=False),
                                      restart_at=40 if market_only else 60, away=away)
    assert decisions, "no decision of the expansions came up"
    assert len([m for m in channel.history() if "Final scores" in m.content]) == 1
    store = bot_of(env).store
    assert store is not None
    if market_only:
        assert timed_out.notation.startswith("release "), timed_out  # an absent player's crate
        assert decisions >= {"confirm", "release"}, decisions
        rows = await store.actions(game.id)
        assert any(r.notation.startswith("confirm ") and r.auto is None for r in rows), "no crate confirmed"
        stats = await players[0].slash(channel, "petersburg stats")  # the Market's columns, as on Yucata
        assert stats.response is not None
        table = "\n".join(e.description or "" for e in stats.response.embeds)
        assert "Marketplace VP" in table and "Crates confirmed" in table, table
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
