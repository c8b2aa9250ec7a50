"""Backups while the bot runs. ``python -m bot backup PATH`` (SQLite's online backup API, in
a process of its own while the bot plays), the periodic backup kept N deep (``BACKUP_DIR``,
``BACKUP_EVERY_HOURS``, ``BACKUP_KEEP``), and restoring: the bot stopped, the backup copied back, every game
goes on from where the backup was made, by buttons and by commands."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import simcord

from bot import backup
from bot.config import Config

from .conftest import make_bot
from .helpers import (
    act_by_buttons,
    act_by_commands,
    bot_of,
    game_in,
    play_to_end,
    setup_members,
    start_game,
    tables_in,
    versions_in,
)

ROOT = Path(__file__).resolve().parents[2]


def _backup_command(target: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH")}
    return subprocess.run([sys.executable, "-m", "bot", "backup", str(target), "--env-file", os.devnull],
                          cwd=ROOT, env={**full, "PYTHONPATH": str(ROOT), **env}, capture_output=True, text=True,
                          timeout=60)


async def test_a_restored_backup_continues_every_game(env: simcord.Env, db_path: Path, tmp_path: Path) -> None:
    tables = await tables_in(env, 2, "table")
    for i, (channel, players) in enumerate(tables):
        for _ in range(3 + i):
            await (act_by_buttons if i == 0 else act_by_commands)(env, channel, players)
    at_backup = {(await game_in(env, c)).id: (await game_in(env, c)).version for c, _ in tables}
    (tmp_path / "backups").mkdir()
    done = _backup_command(tmp_path / "backups", DATABASE_PATH=str(db_path))  # while the bot runs
    assert done.returncode == 0, done.stderr
    written = list((tmp_path / "backups").glob("games-*.sqlite3"))
    assert len(written) == 1 and str(written[0]) in done.stdout
    assert versions_in(written[0]) == at_backup
    assert not Path(f"{written[0]}-wal").exists()  # one self-contained file
    for channel, players in tables:  # played on after the backup: these moves are gone once it is restored
        await act_by_buttons(env, channel, players)
    # restore: the bot stopped, the backup copied back (without the old -wal/-shm), the bot started again
    old = bot_of(env)
    assert old.store is not None
    await old.store.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(written[0], db_path)
    await env.restart_bot(make_bot(db_path, sync=False))
    for channel, players in tables:
        game = await game_in(env, channel)
        assert game.version == at_backup[game.id]
        await players[0].slash(channel, "petersburg board")  # the board as restored, shown again
    channel, players = tables[0]
    assert await play_to_end(env, channel, players, by="buttons") > 0  # to the end, by buttons
    assert (await game_in(env, channel)).status == "finished"
    channel, players = tables[1]
    before = (await game_in(env, channel)).version
    for act in (act_by_buttons, act_by_commands, act_by_buttons):
        await act(env, channel, players)
    assert (await game_in(env, channel)).version >= before + 3


def test_the_backup_command_explains_pg_dump_for_postgresql(tmp_path: Path) -> None:
    done = _backup_command(tmp_path / "x", DATABASE_URL="postgresql://bot:secret@db.example:5432/petersburg")
    assert done.returncode == 2
    assert "pg_dump" in done.stderr and "secret" not in done.stderr, done.stderr
    assert not (tmp_path / "x").exists()


def test_the_backup_command_without_a_database(tmp_path: Path) -> None:
    done = _backup_command(tmp_path / "x.sqlite3", DATABASE_PATH=str(tmp_path / "none.sqlite3"))
    assert done.returncode == 1 and "no database" in done.stderr, done.stderr
    assert not (tmp_path / "none.sqlite3").exists()


async def test_periodic_backups_are_kept_n_deep(tmp_path: Path) -> None:
    source = tmp_path / "games.sqlite3"
    db = sqlite3.connect(source)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    folder = tmp_path / "backups"
    folder.mkdir()
    for day in range(1, 6):  # five older ones, and a file that is not a periodic backup
        (folder / f"games-2026010{day}-120000.sqlite3").write_bytes(b"old")
    (folder / "games-manual.sqlite3").write_bytes(b"mine")
    made = await backup.periodic_once(source, folder, keep=3)
    assert made is not None and made.exists()
    left = sorted(p.name for p in folder.iterdir())
    assert left == ["games-20260104-120000.sqlite3", "games-20260105-120000.sqlite3", made.name,
                    "games-manual.sqlite3"], left
    assert sqlite3.connect(made).execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]


async def test_the_bot_backs_up_every_interval(tmp_path: Path) -> None:
    db_path = tmp_path / "games.sqlite3"
    folder = tmp_path / "backups"
    bot = make_bot(db_path, backup_dir=str(folder), backup_hours=1.0, backup_keep=2)
    env = simcord.Env(bot)
    await env.start()
    try:
        channel = env.create_guild().create_text_channel("t")
        await start_game(env, channel, setup_members(env, 2))
        assert not folder.exists() or not list(folder.iterdir())
        for _ in range(3):
            await env.advance_time(3600)
        made = sorted(folder.glob("games-*.sqlite3"))
        assert len(made) == 2, made
        assert set(versions_in(made[-1]).values()) == {(await game_in(env, channel)).version}
    finally:
        await env.shutdown()
        if bot.store is not None:
            await bot.store.close()
    assert bot.bugs == []


def test_backup_settings() -> None:
    c = Config.from_env({"BACKUP_DIR": "/srv/backups", "BACKUP_EVERY_HOURS": "6", "BACKUP_KEEP": "14"})
    assert (c.backup_dir, c.backup_hours, c.backup_keep) == ("/srv/backups", 6.0, 14)
    assert Config.from_env({}).backup_dir is None
    for bad in ({"BACKUP_KEEP": "0"}, {"BACKUP_EVERY_HOURS": "soon"}, {"BACKUP_EVERY_HOURS": "0"}):
        with pytest.raises(ValueError):
            Config.from_env(bad)
