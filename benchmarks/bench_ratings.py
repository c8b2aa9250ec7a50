"""What the ratings cost: rating one game (``bot.ratings.rate_game``, the openskill computation) and
rebuilding every rating of a SQLite database of N finished games (``python -m bot ratings --rebuild``).

    .venv/bin/python benchmarks/bench_ratings.py --games 2000

The games are written directly (four members of eight per game, 30 moves each, seeded), rated as the
finishing transaction rates them, then rebuilt once; the rebuild must find every stored rating exact.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.ratings import SeatMoves, SeatResult, rate_finished, rate_game  # noqa: E402
from bot.ratings_cli import rebuild  # noqa: E402
from bot.store import Store  # noqa: E402


def per_game(repeat: int = 2000) -> float:
    """Microseconds to rate one four-player game."""
    seats = [SeatResult(i, i + 1, None, False, 40 - i, 3, i == 0, SeatMoves(own=30)) for i in range(4)]
    t0 = time.perf_counter()
    for _ in range(repeat):
        rate_game({}, seats)
    return (time.perf_counter() - t0) / repeat * 1e6


async def database(path: Path, games: int) -> tuple[float, float, int]:
    """(seconds to write and rate ``games`` games, seconds to rebuild them all, ratings that differed)."""
    store = await Store.open(path, synchronous="OFF")
    rng = random.Random(7)
    t0 = time.perf_counter()
    for n in range(games):
        members = rng.sample(range(1, 9), 4)
        scores = [rng.randrange(20, 80) for _ in members]
        async with store.transaction() as tx:
            [(gid,)] = await tx.fetch(
                "INSERT INTO games (guild_id, channel_id, host_id, ruleset, seed, lang, status, version, "
                "created_at, updated_at) VALUES (7, ?, 1, '{}', 1, 'en', 'finished', 1, 0, 0) RETURNING id", (n,))
            for seat, (uid, vp) in enumerate(zip(members, scores, strict=True)):
                await tx.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, 'p')",
                                 (gid, seat, uid))
                await tx.execute("INSERT INTO results (game_id, seat, user_id, name, vp, rubles, winner) "
                                 "VALUES (?, ?, ?, 'p', ?, 0, ?)", (gid, seat, uid, vp, int(vp == max(scores))))
                await tx.executemany("INSERT INTO actions (game_id, idx, seat, user_id, notation, events, "
                                     "created_at, version) VALUES (?, ?, ?, ?, 'pass', '[]', ?, ?)",
                                     [(gid, seat * 30 + k, seat, uid, float(n), seat * 30 + k) for k in range(30)])
            await rate_finished(tx, int(gid))
    written = time.perf_counter() - t0
    t0 = time.perf_counter()
    done = await rebuild(store)
    rebuilt = time.perf_counter() - t0
    await store.close()
    return written, rebuilt, done.differed


def main(argv: list[str] | None = None) -> int:
    from rules.cliargs import HelpFormatter

    parser = argparse.ArgumentParser(description="What the ratings cost.", formatter_class=HelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="finished games in the database to rebuild")
    args = parser.parse_args(argv)
    print(f"rating one four-player game: {per_game():.0f} us")
    with tempfile.TemporaryDirectory() as tmp:
        written, rebuilt, differed = asyncio.run(database(Path(tmp) / "r.sqlite3", args.games))
    print(f"{args.games} games written and rated in {written:.1f} s; rebuilt in {rebuilt:.2f} s "
          f"({rebuilt / args.games * 1000:.2f} ms a game); {differed} stored ratings differed")
    return 0 if differed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
