"""Issue 11 in Discord: a whole five-player Market game, by buttons and by commands, from the lobby to the
final scores, with the Market's decisions taken from the private menu and by command, a restart in the
middle and a time-out on a crate decision (X-07: an absent player's crate is released); then its
statistics and its exported record, which replays exactly."""

from __future__ import annotations

from pathlib import Path

import simcord

from rules import GameRecord, legal_moves, replay

from .conftest import make_bot
from .helpers import act_by_buttons, act_by_commands, bot_of, game_in, reply_of, setup_members, state_in

DECISION_KINDS = {"as", "confirm", "release"}
SEED = 11


async def test_five_player_market_game_whole(env: simcord.Env, db_path: Path) -> None:
    channel = env.create_guild().create_text_channel("market")
    players = setup_members(env, 5)
    await players[0].slash(channel, "petersburg create", market=True)
    for p in players[1:]:
        await p.slash(channel, "petersburg join")
    lobby = next(m for m in channel.history() if "opened a game" in m.content)
    assert "with the Market" in lobby.content and "(5/5)" in lobby.content
    store = bot_of(env).store
    assert store is not None
    async with store.transaction() as conn:  # a known deal (the lobby draws its seed at random)
        await conn.execute("UPDATE games SET seed = ? WHERE channel_id = ?", (SEED, channel.id))
    r = await players[0].slash(channel, "petersburg start")
    assert r.acknowledged
    game = await game_in(env, channel)
    assert game.ruleset.get("expansions") == ["market"] and len(game.seats) == 5
    timed_out = restarted = False
    decisions: set[str] = set()
    for n in range(3000):
        game = await game_in(env, channel)
        if game.status != "active":
            break
        st = await state_in(env, channel)
        kinds = {m.action.kind for m in legal_moves(st)}
        decisions |= kinds & DECISION_KINDS
        if not timed_out and {"confirm", "release"} <= kinds:
            # the player to decide is away: the host's time-out plays the default (release the crate)
            host = players[0]
            await host.slash(channel, "petersburg settings", autopass="5")
            await env.advance_time(6 * 60)
            await host.slash(channel, "petersburg settings", autopass="off")
            store = bot_of(env).store
            assert store is not None
            rows = [r for r in await store.actions(game.id) if r.auto == "timeout"]
            assert rows and rows[-1].notation.startswith("release "), rows[-1:]
            timed_out = True
            continue
        if not restarted and n == 40:
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
    assert restarted and timed_out, (restarted, timed_out)
    assert decisions >= {"confirm", "release"}, decisions
    store = bot_of(env).store
    assert store is not None
    confirmed = [r for r in await store.actions(game.id) if r.notation.startswith("confirm ") and r.auto is None]
    assert confirmed, "no crate was confirmed by a player"
    final = [m for m in channel.history() if "Final scores" in m.content]
    assert len(final) == 1
    stats = await players[0].slash(channel, "petersburg stats")  # the Market's columns, as on Yucata
    assert stats.response is not None
    table = "\n".join(e.description or "" for e in stats.response.embeds)
    assert "Marketplace VP" in table and "Crates confirmed" in table, table
    # export and replay: the record rebuilds the Market game exactly
    reply = reply_of(await players[1].slash(channel, "petersburg export"))
    record = GameRecord.loads((await reply.attachments[0].read()).decode("utf-8"))
    assert record.ruleset.expansions == ("market",) and record.ruleset.players == 5
    st = await state_in(env, channel)
    assert replay(record).to_json() == st.to_json()
    assert bot_of(env).bugs == []
