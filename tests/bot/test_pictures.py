"""Board, hand and card pictures from ``render`` (run in a worker thread), and the text fallback."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import simcord

from bot import images
from bot.client import PetersburgBot
from bot.config import Config

from .helpers import act_by_buttons, board_message, controls, setup_members, start_game, your_move_id


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


@pytest.fixture
def broken_renderer(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A renderer that raises, in place of ``render`` (also where the pictures are drawn: the worker pool is
    replaced by a thread of this process, which sees the broken renderer)."""

    class Broken:
        @staticmethod
        def render_board(*args: object) -> bytes:
            raise ValueError("renderer bug")

    def draw(name: str, *args: object) -> bytes:  # what ``images._draw`` does in a worker
        return bytes(getattr(images._render, name)(*args))

    with ThreadPoolExecutor(max_workers=1) as here:
        monkeypatch.setattr(images, "_render", Broken())
        monkeypatch.setattr(images, "_draw", draw)
        monkeypatch.setattr(images.RENDER, "_executor", here)
        yield


async def test_text_board_when_render_fails(env: simcord.Env, broken_renderer: None) -> None:
    channel = env.create_guild().create_text_channel("text")
    players = setup_members(env, 2)
    await start_game(env, channel, players)
    board = board_message(channel)
    assert board.attachments == [] and "Upper row" in (board.embeds[0].description or "")
    await act_by_buttons(env, channel, players)  # play goes on
    after = board_message(channel)
    assert after.id == board.id and your_move_id(after) != your_move_id(board)  # the live board, edited
    assert after.attachments == [] and "Upper row" in (after.embeds[0].description or "")
