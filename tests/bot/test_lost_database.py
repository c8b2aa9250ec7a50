"""The database file deleted or replaced under the running bot.

The open connections still hold every committed byte. After each commit, before any move is confirmed, the
bot compares the path (and its -wal) with the files it opened; when they differ it writes the open database
back to its path with SQLite's online backup API and goes on: every move confirmed before and after is there
after a restart. A file moved over the path is kept beside it. When nothing can be written back (the path is
taken by a folder), the move is refused before it is confirmed (``database_lost``), privately and once in the
log, and nothing of it is kept."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest
import simcord

from rules.i18n import error_text

from .conftest import make_bot
from .helpers import act_by_buttons, act_by_commands, bot_of, game_in, new_table, reply_of, versions_in

LOST = error_text("database_lost", "en")


async def _moves(env: simcord.Env, channel: simcord.ChannelHandle, players: list, n: int) -> int:
    """``n`` moves, by command and by menu in turn, each confirmed; the game's version after them."""
    for i in range(n):
        act = act_by_commands if i % 2 == 0 else act_by_buttons
        shown = reply_of(await act(env, channel, players))
        assert "✅" in shown.content, shown.content
    return (await game_in(env, channel)).version


async def _restart(env: simcord.Env, db_path: Path) -> None:
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False))
    assert old.store is not None
    await old.store.close()


@pytest.mark.parametrize("how", ["file", "file, -wal and -shm"])
async def test_a_deleted_database_is_written_back_and_nothing_is_lost(
        env: simcord.Env, db_path: Path, caplog: pytest.LogCaptureFixture, how: str) -> None:
    channel, players = await new_table(env)
    await _moves(env, channel, players, 1)
    caplog.set_level(logging.WARNING)
    os.unlink(db_path)
    if how != "file":
        for suffix in ("-wal", "-shm"):
            os.unlink(f"{db_path}{suffix}")
    version = await _moves(env, channel, players, 4)  # each confirmed: each already back in the file
    game = await game_in(env, channel)
    assert versions_in(db_path)[game.id] == version
    said = [r.getMessage() for r in caplog.records if "was deleted" in r.getMessage()]
    assert len(said) == 1 and str(db_path) in said[0], [r.getMessage() for r in caplog.records]
    await _restart(env, db_path)
    assert (await game_in(env, channel)).version == version
    assert await _moves(env, channel, players, 2) > version  # buttons and commands work on the file put back


async def test_a_replaced_database_is_written_back_and_the_other_file_kept(
        env: simcord.Env, db_path: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    channel, players = await new_table(env)
    copy = tmp_path / "copy.sqlite3"
    shutil.copyfile(db_path, copy)  # an older copy put back in place (a restore, a sync tool)
    older = copy.read_bytes()
    await _moves(env, channel, players, 1)
    caplog.set_level(logging.WARNING)
    os.replace(copy, db_path)
    version = await _moves(env, channel, players, 3)
    game = await game_in(env, channel)
    assert versions_in(db_path)[game.id] == version
    kept = list(tmp_path.glob("games.sqlite3.replaced-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == older  # the older copy, kept as it was
    assert any("replaced" in r.getMessage() and str(db_path) in r.getMessage() for r in caplog.records)
    await _restart(env, db_path)
    assert (await game_in(env, channel)).version == version
    assert await _moves(env, channel, players, 1) > version


async def test_the_same_file_deleted_twice(env: simcord.Env, db_path: Path) -> None:
    channel, players = await new_table(env)
    await _moves(env, channel, players, 1)
    os.unlink(db_path)
    await _moves(env, channel, players, 2)
    os.unlink(db_path)  # the file written back is guarded like the first
    version = await _moves(env, channel, players, 2)
    await _restart(env, db_path)
    assert (await game_in(env, channel)).version == version


async def test_nothing_written_back_refuses_before_confirming(
        env: simcord.Env, db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    channel, players = await new_table(env)
    version = await _moves(env, channel, players, 1)
    caplog.set_level(logging.ERROR)
    os.unlink(db_path)
    os.mkdir(db_path)  # the path is taken: the open database cannot be written back there
    for act in (act_by_commands, act_by_buttons):
        shown = reply_of(await act(env, channel, players))
        assert shown.ephemeral and "✅" not in shown.content, shown.content
        assert shown.content == LOST, shown.content
        assert (await game_in(env, channel)).version == version  # the refused move is nowhere
    said = [r.getMessage() for r in caplog.records if "writing it back failed" in r.getMessage()]
    assert len(said) == 1 and str(db_path) in said[0], [r.getMessage() for r in caplog.records]
