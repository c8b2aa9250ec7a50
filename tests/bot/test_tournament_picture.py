"""The standings picture in Discord: drawn by the render workers and attached to the standings embed after a
table is decided, then the final standings with the podium when the tournament is over; and a tournament's
page in ``/petersburg history``."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
import simcord
from PIL import Image

from bot import images
from bot.client import PetersburgBot
from bot.config import Config
from rules import GameState, legal_moves

from .helpers import bot_of, controls, reply_of
from .test_tournament_discord import POLL, signed_up, store_of, tournament


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


async def test_a_tournaments_page_in_the_history(env: simcord.Env) -> None:
    """``/petersburg history tournament:``: the rounds, the chosen round's tables with their places, each
    finished game's ▶️ Replay and 📈 Review (the replay opens); an unknown name or round is said."""
    channel, boss, members = await signed_up(env, 6, size=3, rounds=1, reminder="off")
    await boss.slash(channel, "petersburg tournament start")
    await env.advance_time(5)
    tr = await tournament(env, channel)
    tables = await store_of(env).tournament_tables(tr.id, 1)
    first = tables[0]
    assert first.game_id is not None
    await play_table(env, first.game_id)
    await env.advance_time(POLL)
    r = await boss.slash(channel, "petersburg tournament adjudicate", round=1, table=2, places="1 2 3")
    assert "adjudicated" in reply_of(r).content
    await env.advance_time(POLL)
    r = await members[0].slash(channel, "petersburg history", tournament="cup")  # any case
    page = reply_of(r)
    text = page.content
    assert "**Cup**" in text and "finished" in text and "Round 1 (Swiss): 2/2 tables over" in text
    assert f"<#{first.thread_id}>" in text and f"#{first.game_id}" in text and "⚖️" in text and "🥇" in text
    ids = [c.custom_id for c in controls(page)]
    assert ids == [f"pb:r:{first.game_id}:0:open", f"pb:v:{first.game_id}"]  # the adjudicated game: none
    r = await members[1].click(page.message, custom_id=ids[0])  # ▶️ Replay opens privately
    assert reply_of(r).ephemeral
    r = await members[0].slash(channel, "petersburg history", tournament="Cup", round=4)
    assert "There is no round 4" in reply_of(r).content
    r = await members[0].slash(channel, "petersburg history", tournament="Nope")
    assert "No tournament of this server is called Nope" in reply_of(r).content and "Cup" in reply_of(r).content


async def play_table(env: simcord.Env, game_id: int) -> None:
    svc = bot_of(env).service
    assert svc is not None
    rng = random.Random(4)
    while (game := await svc.game(game_id)).status == "active":
        st = GameState.from_json(game.state or {})
        uid = game.user_at(st.decider)
        assert uid is not None
        await svc.act(game.id, uid, rng.choice(legal_moves(st)).action, version=game.version)
