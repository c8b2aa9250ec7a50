"""The game log, statistics, the exported record, finished games' history and the leaderboard."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import aiosqlite
import simcord

from bot.service import GameService
from bot.store import MIGRATIONS, Store
from rules import GameRecord, GameState, Ruleset, apply, legal_moves, new_game, replay, view
from rules.describe import describe, describe_all

from .helpers import (
    act_by_buttons,
    bot_of,
    game_in,
    new_table,
    play_to_end,
    reply_of,
    setup_members,
    start_game,
    state_in,
)

ROOT = Path(__file__).resolve().parents[2]


def _table(description: str) -> dict[str, list[str]]:
    """The stats code block as label -> cells."""
    body = description.strip().removeprefix("```").removesuffix("```").strip("\n")
    out = {}
    for line in body.splitlines()[1:]:
        if line.strip():
            label, *cells = re.split(r"\s{2,}", line.strip())
            out[label] = cells
    return out


async def test_log_shows_the_recent_actions_in_words(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    for _ in range(6):
        await act_by_buttons(env, channel, players)
    store = bot_of(env).store
    assert store is not None
    game = await game_in(env, channel)
    rows = await store.actions(game.id)
    r = await players[1].slash(channel, "petersburg log", count=4)
    reply = reply_of(r)
    assert reply.ephemeral and reply.embeds
    text = reply.embeds[0].description or ""
    names = [s.name for s in game.seats]
    for row in rows[-4:]:  # the words are rules.describe's, numbered by action
        for line in describe_all(row.events, names, 2, "en"):
            assert line in text
        assert f"`{row.idx + 1:>3}`" in text
    assert f"`{rows[-5].idx + 1:>3}`" not in text
    assert re.search(r"p\d bought \w[\w ]* for \d+\.", text)


async def test_hidden_money_in_log_and_stats(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2, money="hidden")
    store = bot_of(env).store
    assert store is not None
    scored = None
    for _ in range(80):  # until someone's scoring brought rubles
        await act_by_buttons(env, channel, players)
        game = await game_in(env, channel)
        scored = next((e for row in await store.actions(game.id) for e in row.events
                       if e["type"] == "score" and e["rubles"] > 0), None)
        if scored is not None:
            break
    assert scored is not None and game.status == "active"
    owner = next(p for p in players if p.id == game.user_at(scored["seat"]))
    other = next(p for p in players if p is not owner)
    line = describe(scored, [s.name for s in game.seats], 2, "en")
    assert line is not None and "rubles" in line
    own = reply_of(await owner.slash(channel, "petersburg log", count=100)).embeds[0].description or ""
    seen = reply_of(await other.slash(channel, "petersburg log", count=100)).embeds[0].description or ""
    assert line in own and line not in seen
    # statistics: the others' ruble figures are unknown, one's own are there
    st = await state_in(env, channel)
    table = _table(reply_of(await other.slash(channel, "petersburg stats")).embeds[0].description or "")
    s_other, s_owner = game.seat_of(other.id), scored["seat"]
    assert s_other is not None
    assert table["Spent ₽"][s_owner] == "?" and table["Rubles"][s_owner] == "?"
    assert table["Spent ₽"][s_other] == str(st.stats[s_other].get("spent", 0))
    assert table["Rubles"][s_other] == str(st.rubles[s_other])
    assert table["Cards bought"] == [str(st.stats[s].get("bought", 0)) for s in range(st.n)]  # public


async def test_stats_after_the_game_and_export_replays_it(env: simcord.Env, tmp_path: Path) -> None:
    channel, players = await new_table(env, 3)
    for _ in range(3):
        await act_by_buttons(env, channel, players)
    r = await players[0].slash(channel, "petersburg export")
    assert reply_of(r).ephemeral and "when the game is over" in reply_of(r).content  # the seed tells the stacks
    await play_to_end(env, channel, players)
    st = await state_in(env, channel)
    game = await game_in(env, channel)
    assert st.finished
    # the statistics as the table shows them: everything is open at the end
    reply = reply_of(await players[2].slash(channel, "petersburg stats"))
    assert reply.embeds[0].title == "Statistics — final"
    table = _table(reply.embeds[0].description or "")
    v = view(st, None)
    assert table["VP"] == [str(x) for x in st.vp]
    for key in ("bought", "taken", "traded"):
        label = {"bought": "Cards bought", "taken": "Cards taken", "traded": "Traded"}[key]
        assert table[label] == [str(p["stats"].get(key, 0)) for p in v["players"]]
    assert table["Workers ₽"] == [str(p["stats"].get("workers_rubles", 0)) for p in v["players"]]
    for source, label in (("aristocrat_bonus", "Distinct aristocrats"), ("hand_penalty", "Hand penalty")):
        if any(p["vp_by_source"].get(source) for p in v["players"]):  # the final breakdown's rows
            assert table[label] == [f"{p['vp_by_source'].get(source, 0):+d}" for p in v["players"]]
    # the export: a record that replays to the same final scores
    reply = reply_of(await players[1].slash(channel, "petersburg export"))
    assert reply.ephemeral and [a.filename for a in reply.attachments] == [f"petersburg-{game.id}.json"]
    data = await reply.attachments[0].read()
    record = GameRecord.loads(data.decode("utf-8"))
    assert record.seats == [s.name for s in game.seats] and record.seed == game.seed
    again = replay(record)
    assert again.finished and (again.vp, again.rubles, again.winners) == (st.vp, st.rubles, st.winners)
    # and from the command line, as the reply says
    path = tmp_path / "game.json"
    path.write_bytes(data)
    proc = subprocess.run([sys.executable, "-m", "rules", "replay", str(path), "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert [p["vp"] for p in json.loads(proc.stdout)["players"]] == st.vp


async def _play_through_service(svc: GameService, guild_id: int | None, channel_id: int,
                                seats: list[tuple[int, str]], seed: int) -> GameState:
    """A whole game by the service (as the commands would), with random legal moves."""
    game = await svc.create(guild_id=guild_id, channel_id=channel_id, user_id=seats[0][0], name=seats[0][1],
                            seed=seed)
    for uid, name in seats[1:]:
        await svc.join(channel_id, uid, name)
    await svc.start(channel_id, seats[0][0])
    rng = random.Random(seed)
    while True:
        game = await svc.game(game.id)
        st = svc.state(game)
        if game.status != "active":
            return st
        moves = legal_moves(st)
        buys = [m for m in moves if m.action.kind in ("buy", "play")]
        move = rng.choice(buys) if buys and rng.random() < 0.9 else rng.choice(moves)
        decider = game.user_at(st.decider)
        assert decider is not None
        await svc.act(game.id, decider, move.action)


async def test_history_and_leaderboard_after_several_games(env: simcord.Env) -> None:
    guild = env.create_guild()
    a, b, c = setup_members(env, 3, guild)
    bot = bot_of(env)
    svc = bot.service
    assert svc is not None
    tables = [[a, b], [b, c], [a, b, c], [c, a]]
    finals = []
    for n, members in enumerate(tables):
        channel = guild.create_text_channel(f"game{n}")
        st = await _play_through_service(svc, guild.id, channel.id, [(m.id, m.name) for m in members], seed=n + 1)
        finals.append((members, st))
    # not counted: a game in another server, an aborted one
    other = env.create_guild()
    await _play_through_service(svc, other.id, other.create_text_channel("x").id, [(a.id, "a"), (b.id, "b")], 9)
    aborted = guild.create_text_channel("aborted")
    await start_game(env, aborted, [a, b])
    await a.slash(aborted, "petersburg host abort")

    r = await c.slash(guild.create_text_channel("lobby"), "petersburg history")
    assert r.response is not None and not r.ephemeral
    lines = r.response.content.splitlines()
    assert lines[0].startswith("📜") and len(lines) == 1 + len(tables)
    store = bot.store
    assert store is not None
    ids = [g.id for g in await store.finished_games(guild.id)]
    assert [int(re.search(r"#(\d+)", x).group(1)) for x in lines[1:]] == ids  # type: ignore[union-attr]
    newest_members, newest = finals[-1]
    for s, m in enumerate(newest_members):  # scores with the winners crowned
        crowned = f"👑 <@{m.id}> {newest.vp[s]}" in lines[1]
        assert crowned == (s in newest.winners) and f"<@{m.id}> {newest.vp[s]}" in lines[1]

    expected: dict[int, list[int]] = {}
    wins: dict[int, int] = {}
    for members, st in finals:
        for s, m in enumerate(members):
            expected.setdefault(m.id, []).append(st.vp[s])
            wins[m.id] = wins.get(m.id, 0) + (s in st.winners)
    r = await a.slash(aborted, "petersburg leaderboard", by="wins")
    assert r.response is not None
    rows = r.response.content.splitlines()[1:]
    order = sorted(expected, key=lambda u: (-wins[u], -sum(expected[u]) / len(expected[u]), -len(expected[u]), u))
    assert [int(re.search(r"<@(\d+)>", x).group(1)) for x in rows] == order  # type: ignore[union-attr]
    for rank, uid in enumerate(order, 1):
        vps = expected[uid]
        assert rows[rank - 1] == (f"{rank}. <@{uid}> — won {wins[uid]} of {len(vps)} · "
                                  f"average {sum(vps) / len(vps):.1f} VP · best {max(vps)}")


async def test_results_backfilled_for_games_finished_before_the_migration(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    store = Store(conn)
    assert await store.migrate(MIGRATIONS[:1]) == 1  # the database as the first release left it
    st = new_game(Ruleset(players=2), ["Ann", "Bob"], seed=3)
    rng = random.Random(3)
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
    await conn.execute("INSERT INTO games (id, guild_id, channel_id, host_id, ruleset, seed, lang, status, version, "
                       "state, created_at, updated_at) VALUES (1, 7, 70, 10, ?, 3, 'en', 'finished', 99, ?, 0, 0)",
                       (json.dumps(st.ruleset.to_json()), json.dumps(st.to_json())))
    await conn.execute("INSERT INTO seats VALUES (1, 0, 10, 'Ann'), (1, 1, 11, 'Bob')")
    assert await store.migrate() == len(MIGRATIONS)
    results = await store.results(1)
    assert sorted((r.seat, r.user_id, r.vp, r.winner) for r in results) == [
        (s, 10 + s, st.vp[s], s in st.winners) for s in range(2)]
    [standing, *_] = await store.leaderboard(7)
    assert standing.games == 1
    await store.close()
