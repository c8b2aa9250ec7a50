"""The standings picture in Discord: drawn by the render workers and attached to the standings embed after a
table is decided, then the final standings with the podium when the tournament is over."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import simcord
from PIL import Image

from bot import images
from bot.client import PetersburgBot
from bot.config import Config

from .helpers import reply_of
from .test_tournament_discord import POLL, signed_up, tournament


@pytest.fixture
def simcord_bot(db_path: Path) -> PetersburgBot:
    return PetersburgBot(Config(token="x", database_path=str(db_path), render_images=True), sync_commands=True)


@pytest.mark.skipif(not images.available(), reason="no renderer")
async def test_the_standings_carry_their_picture(env: simcord.Env) -> None:
    channel, boss, _ = await signed_up(env, 4, size=2, rounds=1, reminder="off")
    await boss.slash(channel, "petersburg tournament start")
    await env.advance_time(5)
    r = await boss.slash(channel, "petersburg tournament adjudicate", round=1, table=1, places="2 1")
    assert "adjudicated" in reply_of(r).content
    tr = await tournament(env, channel)
    standing = next(m for m in channel.history() if m.id == tr.standings_message_id)
    assert [a.filename for a in standing.attachments] == ["standings.png"]
    assert standing.embeds[0].image.url == "attachment://standings.png"
    running = Image.open(io.BytesIO(await standing.attachments[0].read()))
    await boss.slash(channel, "petersburg tournament adjudicate", round=1, table=2, places="1 2")
    await env.advance_time(POLL)
    tr = await tournament(env, channel)
    assert tr.status == "finished"
    final = next(m for m in channel.history() if m.id == tr.standings_message_id)
    assert [a.filename for a in final.attachments] == ["standings.png"]
    assert "final standings" in (final.embeds[0].title or "")
    podium = Image.open(io.BytesIO(await final.attachments[0].read()))
    assert podium.format == "PNG" and podium.height > running.height  # the podium on top
