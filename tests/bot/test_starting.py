"""A server owner's first start of ``python -m bot``: a wrong token, no way to Discord, a settings file or a
setting that cannot work, each end in one line that says what is wrong, a non-zero exit code and no traceback
(of the bot or of a worker process); ``--help`` names the maintenance commands.

The token and network cases run the real process against the minimal Discord on the wire (``tests.bot.wire``),
the others call ``bot.__main__.main`` in this process (they end before anything is started).
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

from .wire import (
    ROOT,
    Proc,
    descendants,
    describe,
    end_all,
    ended,
    read_rest,
    read_until,
    start_bot,
    survivors,
    wire_discord,
)


async def _bot_output(db: Path, *, refuse_token: bool = False, **env: str) -> tuple[int, str, list[str]]:
    """Run ``python -m bot`` to its end against the wire: (exit code, standard error, the wire's requests)."""
    async with wire_discord(refuse_token=refuse_token) as wire:
        bot = await start_bot(db, wire, LOG_LEVEL="WARNING", **env)
        try:
            _, err = await asyncio.wait_for(bot.communicate(), 60)
        finally:
            if bot.returncode is None:
                bot.kill()
        return bot.returncode or 0, err.decode(errors="replace"), wire.requests


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err[-3000:]
    return lines[0]


async def test_a_wrong_token_ends_in_one_line(tmp_path: Path) -> None:
    code, err, requests = await _bot_output(tmp_path / "games.sqlite3", refuse_token=True)
    assert "/api/v10/users/@me" in requests  # Discord was asked, and said 401
    line = _one_line(err)  # nothing else at LOG_LEVEL=WARNING: no voice warnings, no worker tracebacks
    assert line.startswith("error: Discord refused the token") and "DISCORD_TOKEN" in line, line
    assert code == 2


async def test_no_way_to_discord_ends_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, err, _ = await _bot_output(tmp_path / "games.sqlite3", DISCORD_REST_PROXY=f"http://127.0.0.1:{port}/api/v10")
    line = _one_line(err)
    assert line.startswith("error: cannot reach Discord") and f"127.0.0.1:{port}" in line, line
    assert code == 4


async def test_stopped_while_its_workers_start_leaves_no_traceback(tmp_path: Path) -> None:
    """SIGTERM as soon as the bot has logged in, while its worker processes are still starting: the bot waits
    for them and stops them; no process is left and nothing is printed but the log."""
    log: list[str] = []
    procs: list[Proc] = []
    async with wire_discord() as wire:
        bot = await start_bot(tmp_path / "games.sqlite3", wire)
        assert bot.stderr is not None
        drain: asyncio.Task[None] | None = None
        try:
            await read_until(bot.stderr, "logging in", log)
            await asyncio.wait_for(wire.identified.wait(), 30)  # logged in: the workers are starting now
            procs = descendants(bot.pid)
            drain = asyncio.create_task(read_rest(bot.stderr, log))
            bot.send_signal(signal.SIGTERM)
            code = await ended(bot, 60)
            left = await survivors([*procs, *descendants(bot.pid)], within=10)
            await asyncio.sleep(0.5)  # what a dying worker prints reaches the pipe
        finally:
            end_all(bot, drain, procs)
    text = "".join(log)
    assert code == 0, text[-3000:]
    assert not left, describe(left)
    assert "Traceback" not in text and "Error" not in text, text[-3000:]


def test_a_missing_settings_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ([], ["backup", "backups/"], ["ratings", "--rebuild"], ["copy-db", "--to", "sqlite:///x"]):
        assert main([*command, "--env-file", str(tmp_path / "nope.env")]) == 2, command
        err = capsys.readouterr().err
        assert "nope.env" in err and "does not exist" in err and "DISCORD_TOKEN" not in err, (command, err)


@pytest.mark.parametrize(("setting", "value", "named"), [
    ("LOG_LEVEL", "verbose", "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR"),
    ("BACKUP_DIR", "{file}/backups", "BACKUP_DIR"),
])
def test_a_setting_that_cannot_work_is_refused_at_start(setting: str, value: str, named: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    monkeypatch.setenv("DISCORD_TOKEN", "x" * 40)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "games.sqlite3"))
    monkeypatch.setenv(setting, value.format(file=a_file))
    assert main(["--env-file", os.devnull]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and named in err and err.count("\n") == 1, err
    assert not (tmp_path / "games.sqlite3").exists()  # refused before anything was opened


def test_a_writable_backup_dir_is_created_at_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.config import Config, check_backup_dir

    check_backup_dir(Config(backup_dir=str(tmp_path / "new" / "backups")))
    assert (tmp_path / "new" / "backups").is_dir() and not any((tmp_path / "new" / "backups").iterdir())


def test_help_names_the_maintenance_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended_:
        main(["--help"])
    assert ended_.value.code == 0
    out = capsys.readouterr().out
    for command in ("python -m bot backup", "python -m bot ratings --rebuild", "python -m bot copy-db"):
        assert command in out, out


@pytest.mark.parametrize("shards", [("", ""), ("2", "1")], ids=["one", "sharded"])
async def test_a_gateway_that_cannot_be_reached_after_the_login_ends_in_one_line(tmp_path: Path,
                                                                                  shards: tuple[str, str]) -> None:
    """Logged in, then the gateway refuses the connection: one line and exit code 4 (discord.py logged a
    traceback, then failed on the websocket it never had: ``'NoneType' object has no attribute 'sequence'``;
    a sharded bot retried for ever, a traceback every 5 s)."""
    with socket.socket() as refused:  # bound, not listening: connections to it are refused
        refused.bind(("127.0.0.1", 0))
        gateway = f"ws://127.0.0.1:{refused.getsockname()[1]}/gateway"
        code, err, requests = await _bot_output(tmp_path / "games.sqlite3", DISCORD_GATEWAY_URL=gateway,
                                                SHARD_COUNT=shards[0], SHARD_IDS=shards[1])
    assert "/api/v10/users/@me" in requests  # the login succeeded
    line = _one_line(err)
    assert line.startswith(f"error: cannot reach {gateway}") and "DISCORD_GATEWAY_URL" in line, line
    assert code == 4


async def test_the_token_reaches_discord_as_written_in_the_settings_file(tmp_path: Path) -> None:
    """A settings file saved with a byte order mark, the token in quotes with a comment after it: Discord gets
    the token alone (it got the quotes, and with the mark before the key no token at all)."""
    env_file = tmp_path / "settings.env"
    env_file.write_text('\ufeffDISCORD_TOKEN="abc.def.ghi" # my token\nexport LOG_LEVEL=WARNING\n', encoding="utf-8")
    async with wire_discord(refuse_token=True) as wire:
        full = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LOG_LEVEL", "DATABASE_URL")}
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--env-file", str(env_file), cwd=ROOT,
            env={**full, "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(tmp_path / "games.sqlite3"), **wire.env},
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(bot.communicate(), 60)
        finally:
            if bot.returncode is None:
                bot.kill()
    assert wire.tokens == ["Bot abc.def.ghi"], (wire.tokens, err.decode()[-2000:])
    assert bot.returncode == 2
