"""Issue 17, item 3: a database file deleted or replaced under the running bot. The bot used to answer "✅" and
write into the unlinked file (every such move lost at the next start); now it notices that the path no longer
names the file it opened, takes no more moves, and says why: privately to the player (``database_lost``) and
once in the log."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest
import simcord

from rules.i18n import error_text

from .helpers import act_by_buttons, act_by_commands, game_in, new_table, reply_of

LOST = error_text("database_lost", "en")


async def _refused(env: simcord.Env, channel: simcord.ChannelHandle, players: list, version: int) -> None:
    """A move by command and one by the menu are both refused with the reason; the game did not move on."""
    for act in (act_by_commands, act_by_buttons):
        shown = reply_of(await act(env, channel, players))
        assert shown.ephemeral and "✅" not in shown.content, shown.content
        assert shown.content == LOST, shown.content
        assert (await game_in(env, channel)).version == version


async def test_deleted_database_takes_no_more_moves(env: simcord.Env, db_path: Path,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    channel, players = await new_table(env)
    assert "✅" in reply_of(await act_by_commands(env, channel, players)).content
    version = (await game_in(env, channel)).version
    caplog.set_level(logging.ERROR)
    os.unlink(db_path)
    await _refused(env, channel, players, version)
    said = [r.getMessage() for r in caplog.records if "was deleted" in r.getMessage()]
    assert len(said) == 1 and str(db_path) in said[0], [r.getMessage() for r in caplog.records]


async def test_replaced_database_takes_no_more_moves(env: simcord.Env, db_path: Path, tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    channel, players = await new_table(env)
    copy = tmp_path / "copy.sqlite3"
    shutil.copyfile(db_path, copy)  # an older copy put back in place (a restore, a sync tool)
    assert "✅" in reply_of(await act_by_commands(env, channel, players)).content
    version = (await game_in(env, channel)).version
    caplog.set_level(logging.ERROR)
    os.replace(copy, db_path)
    await _refused(env, channel, players, version)
    assert any("replaced" in r.getMessage() and str(db_path) in r.getMessage() for r in caplog.records)
