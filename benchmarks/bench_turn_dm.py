"""The turn message refused once, end to end, many times over: does the next turn ping? Not a test; it prints
figures. From the repository root::

    .venv/bin/python benchmarks/bench_turn_dm.py [--runs 50] [--seed 1] [--postgres]

Each run is a two-player game (2nd edition, no computer players) played by the real bot inside SimCord
(Discord simulated in this process, no pictures), with ``LIVE_MINUTES=0`` (every turn pings the player to
decide), on SQLite (``--postgres``: a fresh database on the server of ``TEST_DATABASE_URL``, dropped at the
end). A run deals a known game (``--seed`` plus the run's number), the players make 0 to 12 moves by the
board's "Your move" menu, then Discord answers the next ``POST`` of a message to the channel with
``403 Missing Permissions (50013)``; moves go on until that refusal hit a turn message (a run where it hit
something else is dealt again, with the next seed). The player told by DM then moves by the private menu, and
the run checks the next turn: exactly one turn message in the channel, below the live board, pinging the player
to decide (whether that is the same player, deciding again, or the other). It prints the runs, how many of them
had the told player decide again, and the failures (each with what the channel held).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import random
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import need_simcord  # noqa: E402

need_simcord("benchmarks/bench_turn_dm.py")

import simcord  # noqa: E402

from bot.client import PetersburgBot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.bot.helpers import (  # noqa: E402
    act_by_buttons,
    board_message,
    choose_seed,
    game_in,
    setup_members,
    state_in,
)

BEFORE = 12  # at most this many moves before the refusal


class Skip(Exception):
    """The refusal did not hit a turn message (the board, a notice): the run is dealt again."""


async def one_run(env: simcord.Env, n: int, seed: int) -> tuple[bool, str]:
    """(the told player decided again, what went wrong or "") for one game dealt with ``seed``."""
    guild = env.create_guild()
    channel = guild.create_text_channel(f"run{n}")
    players = setup_members(env, 2, guild, prefix=f"r{n}p")
    await players[0].slash(channel, "petersburg create", edition=2)
    await players[1].slash(channel, "petersburg join")
    await choose_seed(env, channel, seed)
    await players[0].slash(channel, "petersburg start")
    for _ in range(random.Random(seed).randrange(BEFORE + 1)):
        if (await game_in(env, channel)).status != "active":
            raise Skip
        await act_by_buttons(env, channel, players)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013, message="Missing Permissions")
    for _ in range(20):  # until the refusal is used (the same player may decide again first: not posted)
        if (await game_in(env, channel)).status != "active":
            raise Skip
        await act_by_buttons(env, channel, players)
        if not env.backend.faults:
            break
    else:
        raise Skip
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    told = game.user_at(st.decider)
    if game.board_problem is None or not game.board_problem.startswith("turn:") or game.status != "active":
        raise Skip
    player = next(p for p in players if p.id == told)
    if not any("It is your turn in" in m.content for m in player.user.dm_channel.history()):
        return False, "the player was not told by DM"
    await act_by_buttons(env, channel, players)  # the told player moves
    game = await game_in(env, channel)
    if game.status != "active":
        raise Skip
    st = await state_in(env, channel)
    decider = game.user_at(st.decider)
    again = decider == told
    turns = [m for m in channel.history() if "your turn" in m.content]
    if len(turns) != 1:
        return again, f"{len(turns)} turn messages: {[m.content for m in turns]}"
    if f"<@{decider}>" not in turns[0].content:
        return again, f"the turn message pings someone else: {turns[0].content!r}"
    if turns[0].id < board_message(channel).id:
        return again, "the turn message is above the live board"
    return again, ""


@contextlib.asynccontextmanager
async def settings(postgres: bool) -> AsyncIterator[Config]:
    """The bot's settings (every turn pinged, no pictures) on a temporary SQLite file, or on a fresh
    PostgreSQL database."""
    if postgres:
        from tests.bot.databases import postgres_database

        async with postgres_database() as url:
            yield Config(token="x", render_images=False, live_minutes=0, database_url=url)
        return
    with tempfile.TemporaryDirectory() as tmp:
        yield Config(token="x", render_images=False, live_minutes=0, database_path=str(Path(tmp) / "bench.sqlite3"))


async def main() -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=HelpFormatter)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--postgres", action="store_true", help="on PostgreSQL (TEST_DATABASE_URL's server)")
    args = ap.parse_args()
    logging.disable(logging.WARNING)  # the refusals the bot logs are expected here
    failures: list[str] = []
    again = done = dealt = 0
    async with settings(args.postgres) as config:
        bot = PetersburgBot(config, sync_commands=True)
        async with simcord.run(bot) as env:
            seed = args.seed
            while done < args.runs:
                dealt += 1
                try:
                    decided_again, wrong = await one_run(env, dealt, seed)
                except Skip:
                    seed += 1
                    continue
                done += 1
                again += decided_again
                if wrong:
                    failures.append(f"run {done} (seed {seed}{', decides again' if decided_again else ''}): {wrong}")
                seed += 1
            assert bot.store is not None
            await bot.store.close()
            bugs = list(bot.bugs)
    print(f"{done} runs on {'PostgreSQL' if args.postgres else 'SQLite'} ({dealt - done} deals where the refusal "
          f"hit no turn message, dealt again); the told player decided again in {again}")
    for f in failures:
        print("  FAILED", f)
    print(f"{len(failures)} failures")
    if bugs:
        print(f"the bot recorded bugs: {bugs!r}")
    return 1 if failures or bugs else 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
