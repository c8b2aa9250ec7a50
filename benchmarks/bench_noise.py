"""How much a whole game says in its channel: messages posted, edited and deleted, mentions that notify
someone, and DMs. Not a test; it prints figures. From the repository root::

    .venv/bin/python benchmarks/bench_noise.py [--players 2] [--games 3] [--seed 1]

Each game is played to its end inside SimCord (Discord simulated in this process, no pictures) by the
players' own clicks (the board's "Your move", then the first preferred legal move of the private menu, as in
``tests/bot/helpers.play_to_end``), in two paces of SimCord's virtual clock:
- live: 10 s pass between one move and the next (everyone sits at the board);
- away: 20 minutes pass between moves (each player comes back only for their turn; reminders are off in
  both paces so only turn messages are counted, and 20 minutes keeps the default 60-minute reminder away
  anyway).
Counts come from SimCord's log of the bot's REST calls to the game's channel (``tests/bot/traffic.py``);
"mentions" are mentions in new messages that Discord lets notify (edits never notify).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import need_simcord  # noqa: E402

need_simcord("benchmarks/bench_noise.py")

import simcord  # noqa: E402

from bot.client import PetersburgBot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.bot.helpers import act_by_buttons, game_in, setup_members, start_game  # noqa: E402
from tests.bot.traffic import traffic  # noqa: E402

PACES = {"live": 10.0, "away": 20 * 60.0}


async def one_game(env: simcord.Env, n: int, pace: float, label: str) -> dict[str, int]:
    guild = env.create_guild()
    channel = guild.create_text_channel(f"noise-{label}")
    players = setup_members(env, n, guild)
    await start_game(env, channel, players)
    await players[0].slash(channel, "petersburg host settings", reminder="off")
    start = len(env.http_requests)
    dms_before = sum(len(p.user.dm_channel.history()) for p in players)
    actions = 0
    while (await game_in(env, channel)).status == "active":
        await env.advance_time(pace)
        await act_by_buttons(env, channel, players)
        actions += 1
        if actions > 1000:
            raise RuntimeError("the game did not end")
    await env.advance_time(5)
    t = traffic(env, channel.id, start)
    return {"actions": actions, "posted": len(t.posted), "edited": len(t.edited), "deleted": t.deleted,
            "mentions": len(t.mentions()), "left": len(channel.history()),
            "dms": sum(len(p.user.dm_channel.history()) for p in players) - dms_before}


async def run(players: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bot = PetersburgBot(Config(token="x", database_path=str(Path(tmp) / "noise.sqlite3"),
                                   render_images=False, computer_pause=0.0), sync_commands=True)
        async with simcord.run(bot) as env:
            print(f"{players} players, {games} game(s) per pace, counted from the first move to the end:")
            print(f"  {'pace':<5} {'actions':>7} {'posted':>7} {'edited':>7} {'deleted':>7} {'mentions':>8} "
                  f"{'DMs':>5} {'messages left':>13}")
            for label, pace in PACES.items():
                for g in range(games):
                    c = await one_game(env, players, pace, f"{label}{g}")
                    print(f"  {label:<5} {c['actions']:>7} {c['posted']:>7} {c['edited']:>7} {c['deleted']:>7} "
                          f"{c['mentions']:>8} {c['dms']:>5} {c['left']:>13}")
            assert bot.store is not None
            await bot.store.close()
            if bot.bugs:
                raise SystemExit(f"the bot hit errors: {bot.bugs!r}")


def main() -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=HelpFormatter)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=2)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args.players, args.games))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
