"""PostgreSQL: the server goes down in the middle of a move's commit. The move is never
confirmed: the player is told privately that the database could not be reached (not a bug, not "✅"), nothing
of the move is stored, and once the server is back the player's retry is a fresh move, made once.

The test runs its own throwaway server (``.ci/pg``), crashes it (immediate shutdown) from inside the move's
transaction, just before its COMMIT, and starts it again on the same data."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import simcord

from bot.client import PetersburgBot
from bot.config import Config
from rules.i18n import error_text

from .databases import postgres_url
from .helpers import act_by_commands, bot_of, game_in, new_table, reply_of

ROOT = Path(__file__).resolve().parents[2]
PG = str(ROOT / ".ci" / "pg")
DURABLE = {**os.environ, "PG_DURABLE": "1"}  # a crash keeps every commit it confirmed (fsync on)


@dataclass
class Server:
    folder: str
    port: int
    url: str

    def crash(self) -> None:
        subprocess.run([PG, "crash", self.folder], check=True, capture_output=True)

    def resume(self) -> None:
        subprocess.run([PG, "resume", self.folder, str(self.port)], check=True, capture_output=True, env=DURABLE)


@pytest.fixture
def server() -> Iterator[Server]:
    postgres_url()  # skipped without a PostgreSQL installation for tests (failed under CI)
    folder = tempfile.mkdtemp(prefix="petersburg-pg-outage-")  # in /tmp: the server's user must reach it
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    try:
        url = subprocess.run([PG, "start", folder, str(port)], check=True, capture_output=True, text=True,
                             env=DURABLE).stdout.strip()
        yield Server(folder, port, url)
    finally:
        subprocess.run([PG, "stop", folder], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def simcord_bot(server: Server) -> PetersburgBot:
    return PetersburgBot(Config(token="x", database_url=server.url, render_images=False), sync_commands=True)


async def test_a_server_lost_mid_commit_confirms_nothing(env: simcord.Env, server: Server) -> None:
    channel, players = await new_table(env)
    assert "✅" in reply_of(await act_by_commands(env, channel, players)).content
    before = await game_in(env, channel)
    store = bot_of(env).store
    assert store is not None and store.dialect == "postgresql"
    crashed: list[str] = []

    def crash_before_commit(point: str) -> None:
        if point == "before_commit" and not crashed:
            crashed.append(point)
            server.crash()

    store.fault_hook = crash_before_commit
    shown = reply_of(await act_by_commands(env, channel, players))
    assert crashed, "the move's transaction did not reach its commit"
    assert shown.ephemeral and "✅" not in shown.content, shown.content
    assert shown.content == error_text("database_unavailable", "en"), shown.content
    server.resume()
    after = await game_in(env, channel)
    assert after.version == before.version and after.state == before.state, "an unconfirmed move was stored"
    again = reply_of(await act_by_commands(env, channel, players))  # the retry, with the server back
    assert "✅" in again.content, again.content
    game = await game_in(env, channel)
    assert game.version > before.version
