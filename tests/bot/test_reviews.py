"""📈 Review in Discord: a finished game reviewed by the strong player (a tiny search budget: REVIEW_ITERATIONS=1).

The first press shows the progress, then the summary (its picture's data and texts, in German and English);
later presses by anyone open the stored review without judging again; the replay viewer shows each step's
label and chances and jumps between a seat's mistakes; a member takes one of their mistakes as a puzzle
(their position and hand, their legal moves in the private menu, nothing committed to the game); a review a
restart interrupted is resumed from the decisions stored, none judged twice; an aborted game has no review.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import simcord
from simcord.actors import MemberActor

from bot import reviewing, thinking
from bot.client import PetersburgBot
from bot.replays import rebuild
from bot.review_text import chart_data, summary_text
from bot.store import Store
from cogs.reviews import PROGRESS_SECONDS, RESUME_AFTER
from render import draw_review

from .conftest import make_bot
from .helpers import bot_of, controls, game_in, play_to_end, reply_of, setup_members, start_game


@pytest.fixture
def simcord_bot(db_path: Path) -> PetersburgBot:
    return make_bot(db_path, review_iterations=1)


@pytest.fixture(autouse=True)
def _stop_pools() -> Any:
    yield
    reviewing.REVIEW.shutdown()
    thinking.THINK.shutdown()


def _store(env: simcord.Env) -> Store:
    store = bot_of(env).store
    assert store is not None
    return store


async def _finished(env: simcord.Env, language: str = "en") -> tuple[simcord.ChannelHandle, list[MemberActor], int]:
    """A game of two members played to its end by the board's buttons."""
    guild = env.create_guild()
    channel = guild.create_text_channel("petersburg")
    players = setup_members(env, 2, guild)
    await start_game(env, channel, players, language=language)
    await play_to_end(env, channel, players, by="buttons")
    game = await game_in(env, channel)
    assert game.status == "finished"
    env.settle_timeout = 60.0  # a review is judged in real seconds in the review worker
    return channel, players, game.id


def _review_button(channel: simcord.ChannelHandle, game_id: int) -> tuple[Any, str]:
    final = next(m for m in reversed(channel.history()) if any(c.custom_id == f"pb:v:{game_id}" for c in controls(m)))
    return final, f"pb:v:{game_id}"


def _shown(env: simcord.Env, since: int) -> list[str]:
    """The texts of the private answers edited since the ``since``-th request (the progress on the way)."""
    return [str(r.json.get("content")) for r in env.http_requests[since:]
            if r.method == "PATCH" and r.path.endswith("/@original") and isinstance(r.json, dict)
            and str(r.json.get("content") or "").startswith("📈")]


async def _press_until_done(env: simcord.Env, member: MemberActor, channel: simcord.ChannelHandle,
                            game_id: int) -> tuple[simcord.ResponseMessage, list[str]]:
    """Press 📈 Review and let the progress run; the answer and the progress it showed on the way."""
    message, cid = _review_button(channel, game_id)
    since = len(env.http_requests)
    answer = reply_of(await member.click(message, custom_id=cid))
    assert answer.ephemeral
    for _ in range(20):
        if answer.embeds:
            return answer, _shown(env, since)
        await env.advance_time(PROGRESS_SECONDS)
    raise AssertionError(f"the review did not finish: {_shown(env, since)}")


def _jump(viewer: simcord.ResponseMessage, go: str) -> Any:
    return next(c for c in controls(viewer) if (c.custom_id or "").split(":")[4:5] == [go])


def _step(viewer: simcord.ResponseMessage) -> int:
    found = re.search(r"(?:action|Aktion) (\d+)", viewer.content.split("\n", 1)[0])
    return int(found.group(1)) if found else 0


async def test_a_review_from_progress_to_puzzle_and_after_a_restart(env: simcord.Env, db_path: Path) -> None:
    """One game in German: the first press shows the progress, then the summary; another member's press opens
    the stored review; the viewer shows the verdicts and jumps between mistakes; a mistake as a puzzle; a
    restart in the middle of a review resumes it without judging a stored decision again."""
    channel, players, gid = await _finished(env, "de")
    store = _store(env)
    answer, shown = await _press_until_done(env, players[0], channel, gid)
    assert shown and all(x.startswith(f"📈 Partie #{gid} wird analysiert") for x in shown)
    row = await store.review(gid)
    assert row is not None and row.finished and row.total == row.done and row.total and row.result is not None
    assert row.requested_by == players[0].id
    embed = answer.embeds[0]
    assert embed.title == f"📈 Analyse von Partie #{gid} durch den starken Spieler"
    text = embed.description or ""
    assert text.count("Genauigkeit") == 2 and "Runde" in text and "Gewinnchance" in text
    mine = [d for d in row.result["decisions"] if d["seat"] == 0 and d["label"]]
    puzzles = [c for c in controls(answer) if (c.custom_id or "").startswith("pb:z:")]
    assert [o.value for c in puzzles for o in c.options] == [str(d["index"]) for d in mine][:25]
    # anyone else in the server: the stored review at once, nothing judged again, no puzzle of someone else's
    assert channel.guild is not None
    onlooker = channel.guild.add_member(env.create_user("onlooker"))
    message, cid = _review_button(channel, gid)
    again = reply_of(await onlooker.click(message, custom_id=cid))
    assert again.embeds and again.embeds[0].title == embed.title
    assert not any((c.custom_id or "").startswith("pb:z:") for c in controls(again))
    assert await store.review(gid) == row
    # the picture: drawn from the review and the seats' names, every text fitting
    game = await game_in(env, channel)
    rows = await store.actions(gid)
    r = rebuild(gid, bot_of(env).service.record_of(game, rows), rows)  # type: ignore[union-attr]
    data = chart_data(row.result, r, [s.name for s in game.seats])
    assert len(data["chances"]) == len(rows) + 1 and data["phases"][0][:2] == [0, 1]
    assert draw_review(data, "de").problems() == [] and draw_review(data, "en").problems() == []
    english = "\n".join(summary_text(row.result, r, [s.name for s in game.seats], "en", None))
    assert english.count("accuracy") == 2 and "Round" in english

    # the viewer from the review: each decision's verdict and chances, jumps between the seat's mistakes
    member = players[0]
    viewer = reply_of(await member.click(answer, custom_id=f"pb:r:{gid}:0:open"))
    assert _jump(viewer, "mprev").disabled
    seen = []
    while not _jump(viewer, "mnext").disabled:
        assert (await member.click(viewer, custom_id=_jump(viewer, "mnext").custom_id)).acknowledged
        seen.append(_step(viewer))
        assert "Gewinnchance" in viewer.content and any(w in viewer.content for w in ("Ungenauigkeit", "Fehler",
                                                                                       "Patzer"))
    assert seen == [d["index"] + 1 for d in mine]
    if seen:
        at = _step(viewer)
        assert _jump(viewer, "fwd").custom_id.endswith(":0")  # the step buttons keep whose mistakes are followed
        await member.click(viewer, custom_id=_jump(viewer, "fwd").custom_id)
        assert _step(viewer) == at + 1
        await member.click(viewer, custom_id=_jump(viewer, "mprev").custom_id)
        assert _step(viewer) == seen[-1]
        # the puzzle: the position then, the legal moves in a private menu; the answer compares; the game stays
        version = (await game_in(env, channel)).version
        first = mine[0]
        puzzle = reply_of(await member.select(answer, [str(first["index"])], custom_id=puzzles[0].custom_id))
        assert puzzle.ephemeral and f"Runde {first['round']}" in puzzle.content
        menu = [c for c in controls(puzzle) if (c.custom_id or "").startswith(("pb:q:", "pb:qb:"))]
        assert menu and not any((c.custom_id or "").startswith(("pb:s:", "pb:b:")) for c in controls(puzzle))
        pick = menu[0]
        if (pick.custom_id or "").startswith("pb:qb:"):
            result = reply_of(await member.click(puzzle, custom_id=pick.custom_id))
        else:
            option = next(o for o in pick.options if not o.value.startswith("?"))
            result = reply_of(await member.select(puzzle, [option.value], custom_id=pick.custom_id))
        assert "Gewinnchance" in result.content and "Damals hast du" in result.content
        assert (await game_in(env, channel)).version == version

    # a restart in the middle of a review: as if the bot had stopped with three decisions left to judge
    parts = await store.review_parts(gid)
    todo = sorted(parts)
    kept = {i: {**parts[i], "judged_by": "the process before"} for i in todo[:-3]}
    async with store.transaction() as tx:
        await tx.execute("UPDATE reviews SET state = 'running', result = NULL, owner = 'gone', lease = ? "
                         "WHERE game_id = ?", (store.clock() + 600, gid))
        await tx.execute("DELETE FROM review_parts WHERE game_id = ? AND idx >= ?", (gid, todo[-3]))
        for i, data in kept.items():
            await tx.execute("UPDATE review_parts SET data = ? WHERE game_id = ? AND idx = ?",
                             (json.dumps(data), gid, i))
    old = bot_of(env)
    await env.restart_bot(make_bot(db_path, sync=False, review_iterations=1, render_images=True))
    assert old.store is not None
    await old.store.close()
    store = _store(env)
    env.settle_timeout = 60.0
    await env.advance_time(RESUME_AFTER)  # the new process goes on with it after its start
    resumed = await store.review(gid)
    assert resumed is not None and resumed.finished and resumed.done == len(todo) and resumed.result is not None
    after = await store.review_parts(gid)
    assert sorted(after) == todo and all(after[i] == kept[i] for i in kept)
    assert [after[i] == parts[i] for i in todo[-3:]] == [True] * 3  # the same seed: the same verdicts
    assert resumed.result["decisions"] == row.result["decisions"]
    # with pictures on: the summary carries the picture of the chances
    pictured, _ = await _press_until_done(env, onlooker, channel, gid)
    assert pictured.embeds[0].image.url == "attachment://review.png"
    png = await pictured.attachments[0].read()
    assert png.startswith(b"\x89PNG")


async def test_an_aborted_game_has_no_review(env: simcord.Env) -> None:
    guild = env.create_guild()
    channel = guild.create_text_channel("petersburg")
    players = setup_members(env, 2, guild)
    await start_game(env, channel, players)
    await players[0].slash(channel, "petersburg host abort")
    game = await game_in(env, channel)
    assert game.status == "aborted"
    assert not any((c.custom_id or "").startswith("pb:v:") for m in channel.history() for c in controls(m))
    history = reply_of(await players[1].slash(channel, "petersburg history"))
    assert f"#{game.id}" not in history.content and not controls(history)
    assert await _store(env).review(game.id) is None
