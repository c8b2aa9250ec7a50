"""``python -m bot ratings --rebuild [--database URL] [--env-file PATH]``: derive every rating again.

The ratings are recomputed from the stored results, seats and actions of the finished games, in the order they
were rated (``bot.ratings.rebuild_in``), and stored in one transaction; the command says how many games and
players it rated and how many stored ratings it found different (0: the stored ratings were exact).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from .config import checked_database, database_setting
from .envfile import command_args
from .ratings import Rebuilt, rebuild_in
from .store import Store, StoreError
from .store.urls import redact


async def rebuild(store: Store) -> Rebuilt:
    """Rebuild the ratings of ``store`` in one transaction."""
    async with store.transaction() as tx:
        return await rebuild_in(tx)


async def run(database: str) -> int:
    try:
        async with await Store.open(database, existing=True) as store:
            done = await rebuild(store)
    except StoreError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"ratings of {redact(database)} rebuilt: {done.games} games rated, {done.players} players; "
          f"{done.differed} stored ratings differed")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot ratings", description="The bot's ratings.")
    parser.add_argument("--rebuild", action="store_true", required=True,
                        help="derive every rating again from the stored results and store them")
    parser.add_argument("--database", default=None,
                        help="postgresql://… or sqlite:///… (default: DATABASE_URL, else DATABASE_PATH)")
    args = command_args(parser, argv)
    if args is None:
        return 2
    try:
        database = checked_database(args.database, "--database") if args.database is not None else database_setting()
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return asyncio.run(run(database))
