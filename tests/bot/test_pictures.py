"""Board, hand and card pictures from ``render`` (run in a worker thread), and the text fallback."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot import images
from bot.client import PetersburgBot
from bot.config import Config

from .helpers import act_by_buttons, board_message, controls, setup_members, start_game


@pytest.fixture
def simcord_bot(db_path: Path) -> PetersburgBot:
    return PetersburgBot(Config(token="x", database_path=str(db_path), render_images=True), sync_commands=True)


@pytest.mark.skipif(not images.available(), reason="render/ is not there yet")
async def test_board_hand_and_card_pictures(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("pics")
    players = setup_members(env, 2)
    await start_game(env, channel, players)
    await act_by_buttons(env, channel, players)
    board = board_message(channel)
    assert [a.filename for a in board.attachments] == ["board.png"]
    assert board.embeds[0].image.url == "attachment://board.png"
    assert "Upper row" in (board.embeds[0].description or "")  # the text stays for screen readers
    hand_id = next(c.custom_id for c in controls(board) if c.custom_id.startswith("pb:h:"))
    r = await players[0].click(board, custom_id=hand_id)
    reply = r.followups[-1] if r.followups else r.response
    assert reply is not None and reply.ephemeral and [a.filename for a in reply.attachments] == ["hand.png"]
    r = await players[0].slash(channel, "petersburg card", name="bank")
    assert r.response is not None and [a.filename for a in r.response.attachments] == ["card.png"]


async def test_text_board_when_render_fails(env: simcord.Env, monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        @staticmethod
        def render_board(*args: object) -> bytes:
            raise ValueError("renderer bug")

    monkeypatch.setattr(images, "_render", Broken())
    channel = env.create_guild().create_text_channel("text")
    players = setup_members(env, 2)
    await start_game(env, channel, players)
    board = board_message(channel)
    assert board.attachments == [] and "Upper row" in (board.embeds[0].description or "")
    await act_by_buttons(env, channel, players)  # play goes on
