"""``python -m bot copy-db --to postgresql://… [--from sqlite:///path] [--force]``: copy the whole database.

The source is read in one snapshot (a running bot may keep writing to it: the copy is consistent as of
one moment), the target is migrated to the same schema and written in one transaction, the row counts of
every table are compared, and PostgreSQL's id sequences are moved past the copied ids. A target that holds
any game or setting is refused unless ``--force`` (which empties it first).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from .config import checked_database, database_setting
from .envfile import command_args
from .store import Store, StoreError, parse_database
from .store.backend import aiter_rows
from .store.urls import redact, without_password

# Parents before children (foreign keys); each with the columns that order its rows.
TABLES: dict[str, str] = {
    "games": "id", "seats": "game_id, seat", "actions": "game_id, idx", "hands": "game_id, seat",
    "reminders": "game_id, kind", "pass_modes": "game_id, seat", "results": "game_id, seat",
    "guild_settings": "guild_id", "notices": "id", "dm_unreachable": "user_id",
    "ratings": "guild_id, player", "rating_changes": "game_id, seat", "away": "guild_id, user_id",
    "reviews": "game_id", "review_parts": "game_id, idx",
    "bot_processes": "id",
    "tournaments": "id", "tournament_entrants": "tournament_id, user_id", "tournament_rounds": "tournament_id, round",
    "tournament_tables": "tournament_id, round, table_no",
}
ID_TABLES = ("games", "notices", "tournaments")  # tables whose id comes from a sequence on PostgreSQL
BATCH = 2000


class CopyError(StoreError):
    """The copy was refused or did not verify (nothing was committed to the target then)."""


async def counts(store: Store) -> dict[str, int]:
    """Rows per table."""
    return {t: int((await store.fetch_all(f"SELECT COUNT(*) FROM {t}"))[0][0]) for t in TABLES}


async def copy_db(source: Store, target: Store, *, force: bool = False) -> dict[str, int]:
    """Copy every table of ``source`` into ``target``; returns the rows copied per table."""
    if await source.schema_version() != await target.schema_version():
        raise CopyError("the two databases have different schema versions; start the newer bot on the older "
                        "one first (it migrates), then copy")
    existing = await counts(target)
    if any(existing.values()) and not force:
        filled = ", ".join(f"{t} ({n})" for t, n in existing.items() if n)
        raise CopyError(f"the target is not empty: {filled}; pass --force to replace its contents")
    copied: dict[str, int] = {}
    columns = {table: await source.columns(table) for table in TABLES}
    async with source.snapshot() as src, target.transaction() as dst:
        for table in reversed(TABLES):
            await dst.execute(f"DELETE FROM {table}")
        for table, order in TABLES.items():
            cols = columns[table]
            names = ", ".join(cols)
            insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' for _ in cols)})"
            copied[table] = int((await src.fetch(f"SELECT COUNT(*) FROM {table}"))[0][0])
            async for rows in aiter_rows(src, f"SELECT {names} FROM {table} ORDER BY {order}", (), BATCH):
                await dst.executemany(insert, rows)
            got = int((await dst.fetch(f"SELECT COUNT(*) FROM {table}"))[0][0])
            if got != copied[table]:
                raise CopyError(f"{table}: {copied[table]} rows in the source, {got} in the target")
        if target.dialect == "postgresql":
            for table in ID_TABLES:
                await dst.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                  f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    after = await counts(target)
    if after != copied:
        raise CopyError(f"the counts differ after the copy: source {copied}, target {after}")
    return copied


async def run(source_url: str, target_url: str, force: bool) -> int:
    """Open both, copy, print the counts; 0 when done, 1 when refused or failed."""
    try:
        async with await Store.open(source_url, existing=True) as source, await Store.open(target_url) as target:
            copied = await copy_db(source, target, force=force)
    except StoreError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"copied {redact(source_url)} to {redact(target_url)}:")
    for table, n in copied.items():
        print(f"  {table:<15} {n:>8} rows (verified)")
    return 0


def same_database(a: str, b: str) -> bool:
    """Whether the checked database settings ``a`` and ``b`` name one database: one SQLite file however its
    path is written (relative, absolute, through a link, with or without ``sqlite:///``), or one PostgreSQL
    URL apart from its password."""
    (dialect_a, where_a), (dialect_b, where_b) = parse_database(a), parse_database(b)
    if dialect_a != dialect_b:
        return False
    if dialect_a == "postgresql":
        return without_password(where_a).rstrip("/") == without_password(where_b).rstrip("/")
    pa, pb = Path(where_a), Path(where_b)
    try:
        return pa.resolve() == pb.resolve() or (pa.exists() and pb.exists() and pa.samefile(pb))
    except OSError:
        return False


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot copy-db",
                                     description="Copy the bot's database (e.g. SQLite into PostgreSQL).")
    parser.add_argument("--to", required=True, dest="target", help="target database: postgresql://… or sqlite:///…")
    parser.add_argument("--from", dest="source", default=None,
                        help="source database (default: DATABASE_URL, else DATABASE_PATH, from .env or the "
                             "environment)")
    parser.add_argument("--force", action="store_true", help="replace the contents of a non-empty target")
    args = command_args(parser, argv)
    if args is None:
        return 2
    try:
        source = checked_database(args.source, "--from") if args.source is not None else database_setting()
        target = checked_database(args.target, "--to")
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if same_database(source, target):
        print(f"error: the source and the target are the same database ({redact(source)}); copy into another "
              "one", file=sys.stderr)
        return 2
    return asyncio.run(run(source, target, args.force))
