"""The replay viewer's pictures (board pictures on): at every step the channel showed, the replay's picture
is the live board's picture of that version, byte for byte, with money hidden (the spectator's view: a replay
reveals nothing that was hidden during play); at the end also the final scores' picture."""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot import images
from bot.client import PetersburgBot

from .conftest import make_bot
from .helpers import setup_members, start_game
from .test_replays import _embed, click, open_from_final, play_recording


@pytest.fixture
def simcord_bot(db_path: Path) -> PetersburgBot:
    """Board pictures on (as in production)."""
    return make_bot(db_path, render_images=True)


@pytest.mark.skipif(not images.available(), reason="render/ is not there")
async def test_every_picture_of_the_replay_is_the_live_boards_picture_with_money_hidden(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("petersburg")
    players = setup_members(env, 2, guild)
    onlooker = guild.add_member(env.create_user("onlooker"))
    await start_game(env, channel, players, money="hidden")
    shown = await play_recording(env, channel, players, pictures=True)
    total = max(shown)
    final = next(m for m in reversed(channel.history()) if m.attachments and m.attachments[0].filename == "final.png")
    viewer = await open_from_final(onlooker, channel)
    step, compared = 0, 0
    while True:
        assert [a.filename for a in viewer.attachments] == (["board.png", "final.png"] if step == total
                                                             else ["board.png"])
        png = await viewer.attachments[0].read()
        if step in shown:
            assert png == shown[step][1], f"step {step}: not the picture the channel showed"
            assert _embed(viewer.embeds[0]) == shown[step][0]
            compared += 1
        if step == total:
            break
        step = await click(onlooker, viewer, "fwd")
    assert compared == len(shown) and await viewer.attachments[1].read() == await final.attachments[0].read()
    # stepping back finds the pictures drawn before (cached per step), the same
    assert await click(onlooker, viewer, "first") == 0
    assert await viewer.attachments[0].read() == shown[0][1]
