"""With the real ``python -m bot`` process: a game of computer players plays on while its
database file is deleted, then replaced by an older copy. The bot writes the open database back each time and
plays on; when it has stopped, the file holds every move it made, in order, and replaying them gives the
stored state: nothing was lost.

The process runs against the minimal Discord on the wire (``tests.bot.wire``), which says READY so the bot
resumes its games; every other Discord call fails there (boards are not shown), which never stalls a game."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
from pathlib import Path

from bot.service import GameService
from bot.store import Store
from bot.store.sqlite_file import backup_file
from rules import GameRecord, GameState
from rules.record import replay

from .helpers import versions_in
from .wire import Proc, descendants, end_all, ended, read_rest, read_until, start_bot, survivors, wire_discord

WRITTEN_BACK = "the database was written back to"


async def _computers_only(db: Path, games: int) -> list[int]:
    """``games`` started games of two computer players each (a person's seat handed to a computer)."""
    store = await Store.open(db)
    svc = GameService(store)
    ids = []
    for g in range(games):
        game = await svc.create(guild_id=None, channel_id=100 + g, user_id=10, name="Ann", seed=7 + g)
        await svc.add_computer(100 + g, 10, "easy", "Easy")
        await svc.start(100 + g, 10)
        async with svc.lock(game.id):
            await svc.hand_to_computer(await svc.game(game.id), 0)
        ids.append(game.id)
    await store.close()
    return ids


async def _moved_on(db: Path, than: dict[int, int], within: float = 60) -> dict[int, int]:
    """The versions once every game is past ``than`` (or finished)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while True:
        now = versions_in(db)
        if all(now[g] > v for g, v in than.items()):
            return now
        if loop.time() > end:
            raise AssertionError(f"the games did not move on: {than} -> {now}")
        await asyncio.sleep(0.2)


async def test_a_running_bot_loses_nothing_when_its_file_is_deleted_then_replaced(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    ids = await _computers_only(db, 2)
    env = {"COMPUTER_PAUSE_SECONDS": "0.2", "COMPUTER_SECONDS": "0.05"}
    log: list[str] = []
    procs: list[Proc] = []
    async with wire_discord(ready=True) as wire:
        bot = await start_bot(db, wire, **env)
        assert bot.stderr is not None
        drain: asyncio.Task[None] | None = None
        try:
            await read_until(bot.stderr, "logged in as", log)
            procs = descendants(bot.pid)
            seen = await _moved_on(db, {g: 1 for g in ids})
            older = tmp_path / "older.sqlite3"
            backup_file(db, older)  # a copy of now, put over the file later (a restore, a sync tool)
            seen = await _moved_on(db, seen)

            os.unlink(db)  # deleted while the computers play
            await read_until(bot.stderr, WRITTEN_BACK, log)
            seen = await _moved_on(db, seen)

            os.replace(older, db)  # replaced by the older copy
            await read_until(bot.stderr, WRITTEN_BACK, log)
            seen = await _moved_on(db, seen)

            drain = asyncio.create_task(read_rest(bot.stderr, log))
            bot.send_signal(signal.SIGTERM)
            assert await ended(bot, 30) == 0, "".join(log[-40:])
            await survivors(procs, within=10)
        finally:
            end_all(bot, drain, procs)
    text = "".join(log)
    assert "was deleted while the bot ran" in text and "was replaced by another file while the bot ran" in text
    assert "Traceback" not in text, text[-3000:]
    assert len(list(tmp_path.glob("games.sqlite3.replaced-*"))) == 1  # the older copy, kept beside
    final = versions_in(db)
    conn = sqlite3.connect(db)
    try:
        for g in ids:
            assert final[g] >= seen[g], (g, final[g], seen[g])  # every move seen in the file is still there
            state_json, seed = conn.execute("SELECT state, seed FROM games WHERE id = ?", (g,)).fetchone()
            st = GameState.from_json(json.loads(state_json))
            rows = conn.execute("SELECT idx, notation FROM actions WHERE game_id = ? ORDER BY idx", (g,)).fetchall()
            assert [r[0] for r in rows] == list(range(st.action_count)), "a move is missing"
            record = GameRecord(st.ruleset, list(st.seats), seed=seed, actions=[r[1] for r in rows])
            assert replay(record).to_json() == st.to_json(), "the moves stored do not give the stored state"
    finally:
        conn.close()

