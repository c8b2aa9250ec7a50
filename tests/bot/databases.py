"""Test databases: a SQLite file, or a fresh PostgreSQL database on the server of ``TEST_DATABASE_URL``.

Without ``TEST_DATABASE_URL`` the PostgreSQL cases are skipped with the reason, except under CI (``CI`` set
to true), where they fail: CI must run them (``.ci/run`` starts a server and sets the variable).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.store import Store

HOW = ("set TEST_DATABASE_URL to a PostgreSQL server the tests may create databases on, e.g. "
       "`URL=$(.ci/pg start /tmp/pgtest 55432)` then `TEST_DATABASE_URL=$URL`")


def postgres_url() -> str:
    """The server's URL, or skip (fail under CI) without one."""
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if url:
        return url
    if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
        pytest.fail(f"CI must run the PostgreSQL tests: {HOW}")
    pytest.skip(f"no PostgreSQL server: {HOW}")


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    """A new empty database for one test (dropped afterwards); yields its URL."""
    server = postgres_url()
    name = f"petersburg_test_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield with_database(server, name)
    finally:
        admin = await asyncpg.connect(server)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def table_names(store: Store) -> set[str]:
    """The tables of the store's database."""
    sql = ("SELECT name FROM sqlite_master WHERE type = 'table'" if store.dialect == "sqlite" else
           "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
    return {r[0] for r in await store.fetch_all(sql)}
