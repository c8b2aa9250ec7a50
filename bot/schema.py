"""The database schema as versioned migrations (``Store.migrate`` applies the missing ones in order).

One list serves both backends: the SQL is written for SQLite and ``pg_ddl`` maps its few type names for
PostgreSQL (64-bit integers, double precision, identity columns), so both get the same tables, columns
and indexes, recorded in the same ``schema_version`` table.

Adding a migration: append ``Migration(<next number>, "<name>", "<SQL>")`` (or a coroutine function taking
the transaction, ``bot.store.backend.Tx``) to ``MIGRATIONS``; SQL that differs between the dialects goes
into a coroutine that looks at ``tx.dialect``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .schema_tournaments import TOURNAMENTS_SCHEMA

if TYPE_CHECKING:
    from .store.backend import Tx


# --- migrations ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Migration:
    """One schema step: SQL (several statements allowed) or a coroutine function on the transaction."""

    version: int
    name: str
    apply: str | Callable[[Tx], Awaitable[None]]


INITIAL_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    host_id INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    seed INTEGER NOT NULL,
    lang TEXT NOT NULL DEFAULT 'en',
    status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    version INTEGER NOT NULL DEFAULT 0,
    state TEXT,
    board_message_id INTEGER,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_status ON games (status, updated_at);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats (user_id);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    user_id INTEGER,
    notation TEXT NOT NULL,
    events TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE hands (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    cards TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
"""

TIMERS_SCHEMA = """
ALTER TABLE games ADD COLUMN settings TEXT;
ALTER TABLE actions ADD COLUMN auto TEXT;
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    settings TEXT NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE reminders (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('remind', 'autopass')),
    version INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    due_at REAL NOT NULL,
    sent INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, kind)
);
CREATE INDEX reminders_due ON reminders (due_at);
CREATE TABLE pass_modes (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    autopass TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE results (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id INTEGER,
    name TEXT NOT NULL,
    vp INTEGER NOT NULL,
    rubles INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_user ON results (user_id);
"""


async def _migrate_timers_and_results(tx: Tx) -> None:
    """Settings, reminders, pass modes, automatic actions and results (back-filled for finished games)."""
    await run_script(tx, TIMERS_SCHEMA)
    finished = await tx.fetch("SELECT id, state FROM games WHERE status = 'finished' AND state IS NOT NULL")
    for game_id, state in finished:
        await write_results(tx, game_id, json.loads(state), computers=False)


LIVE_BOARD_SCHEMA = """
ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN turn_message_id INTEGER;
ALTER TABLE games ADD COLUMN turn_user_id INTEGER;
ALTER TABLE games ADD COLUMN final_posted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN board_problem TEXT;
ALTER TABLE actions ADD COLUMN version INTEGER;
UPDATE games SET shown_version = version, final_posted = 1 WHERE status IN ('finished', 'aborted');
CREATE INDEX games_unshown ON games (status) WHERE shown_version < version;
CREATE TABLE notices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    params TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE INDEX notices_game ON notices (game_id, id);
CREATE TABLE dm_unreachable (
    user_id INTEGER PRIMARY KEY,
    since REAL NOT NULL
);
"""
"""The live board: ``shown_version`` is the game version the channel's board shows (a game whose
version is ahead needs its board shown: the poster catches up, also after a restart), the turn message that
pings the player to decide, whether the final scores were posted, the last posting problem told; ``notices``
are channel messages stored with a commit and posted until they succeed; ``dm_unreachable`` the users whose
DMs are closed (Discord error 50007); ``actions.version`` the game version an action was chosen against (a
repeated action is recognised by it). Games in play get a new board (the old kind carried the mover's menus)."""


COMPUTERS_SCHEMA = """
ALTER TABLE seats ADD COLUMN computer TEXT;
ALTER TABLE results ADD COLUMN computer TEXT;
"""
"""Computer players: a seat held by a computer player names its level (``easy``, ``normal``,
``strong``) in ``seats.computer`` (its ``user_id`` is NULL); results keep it, so history marks such games and
the leaderboard ranks human-only games apart."""


BOARD_CLAIM_SCHEMA = """
ALTER TABLE games ADD COLUMN board_owner TEXT;
ALTER TABLE games ADD COLUMN board_lease REAL;
"""
"""Several processes on one database: the board poster that is updating a game's channel and until
when its claim holds (``Store.claim_board``), so two processes never post the same board twice."""


PROCESSES_SCHEMA = """
CREATE TABLE bot_processes (
    id TEXT PRIMARY KEY,
    machine TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started TEXT NOT NULL,
    beat_at REAL NOT NULL,
    dead INTEGER NOT NULL DEFAULT 0
);
"""
"""The bot's processes on a shared database (``bot.store.claims``): each one's identity (a random id; the
machine, pid and start time by which another process on the same machine can tell that it has ended) and its
heartbeat (``beat_at``, the database's clock), so a board claim (``games.board_owner``) of a process that has
ended is taken over at once, and one of a live process never."""


async def _migrate_ratings(tx: Tx) -> None:
    """Ratings (``bot.ratings``): the tables, which computer seats were take-overs (a person or the time-out
    moved in them before the computer held them at the end), and the ratings of the games finished so far."""
    from .ratings import rebuild_in

    await run_script(tx, RATINGS_SCHEMA)
    await tx.execute("UPDATE seats SET takeover = 1 WHERE computer IS NOT NULL AND EXISTS (SELECT 1 FROM actions a "
                     "WHERE a.game_id = seats.game_id AND a.seat = seats.seat "
                     "AND (a.user_id IS NOT NULL OR a.auto = 'timeout'))")
    await rebuild_in(tx, standing=False)


RATINGS_SCHEMA = """
ALTER TABLE seats ADD COLUMN takeover INTEGER NOT NULL DEFAULT 0;
CREATE TABLE ratings (
    guild_id INTEGER NOT NULL,
    player TEXT NOT NULL,
    user_id INTEGER,
    computer TEXT,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    PRIMARY KEY (guild_id, player)
);
CREATE INDEX ratings_user ON ratings (user_id);
CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    player TEXT NOT NULL,
    user_id INTEGER,
    computer TEXT,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_order ON rating_changes (guild_id, seq);
"""
"""Ratings (``bot.ratings``): ``ratings`` holds each player's current rating per server (``guild_id`` 0:
games outside a server; ``player`` is ``user:<id>`` or ``computer:<level>``) with the games and wins it counts;
``rating_changes`` each counted seat of each rated game, before and after, numbered per server in the order the
games were rated (``seq``), so ``python -m bot ratings --rebuild`` can derive the same ratings again;
``seats.takeover`` marks a seat a computer player took over during the game (``Store.set_seat``)."""


SOCIAL_SCHEMA = """
ALTER TABLE games ADD COLUMN parent_id INTEGER;
ALTER TABLE games ADD COLUMN rematch_of INTEGER;
ALTER TABLE games ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of) WHERE status IN ('lobby', 'active');
CREATE INDEX games_guild_open ON games (guild_id) WHERE status IN ('lobby', 'active');
CREATE TABLE away (
    guild_id INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    until REAL NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
"""
"""Rematches, games in threads, time away: ``games.parent_id`` is the channel whose thread the game lives in
(NULL: the game is in a channel of its own), ``games.archived`` whether that thread was archived after the
game, ``games.rematch_of`` the game a lobby is the rematch of (one open rematch a game: the unique index decides
a race of two presses, across processes too); ``away`` the members away from a server's games until a time."""
TAKEBACK_SCHEMA = """
ALTER TABLE actions ADD COLUMN taken_back INTEGER;
"""
"""Take-backs (``bot.takeback``): an action taken back keeps its row, marked with the index of the take-back's
own row (``auto`` 'takeback', whose first event says which rows it took back); the game's record, its ratings
and its statistics count only the rows that stand (``taken_back`` NULL, not a take-back)."""
REVIEWS_SCHEMA = """
CREATE TABLE reviews (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    requested_by INTEGER,
    owner TEXT,
    lease REAL,
    iterations INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    total INTEGER,
    result TEXT,
    started_at REAL NOT NULL,
    finished_at REAL
);
CREATE INDEX reviews_state ON reviews (state);
CREATE TABLE review_parts (
    game_id INTEGER NOT NULL REFERENCES reviews (game_id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
"""
"""Reviews of finished games by the strongest player (``bot.reviews``): ``reviews`` holds one row per game, its
``state`` (``running`` or ``done``), who asked for it, the process reviewing it now and until when that claim
holds (``owner``, ``lease``: at most one review of a game at a time, across processes), its iteration budget
and seed, how many decisions it judges (``total``) and, once done, the ``GameReview`` JSON (``result``);
``review_parts`` each judged decision's result as it comes (``idx``: the action's index in the record), so a
review stopped by a restart resumes where it was and never judges a decision twice."""

MIGRATIONS: list[Migration] = [
    Migration(1, "initial: games, seats, actions, hands", INITIAL_SCHEMA),
    Migration(2, "settings, reminders, pass modes, automatic actions, results", _migrate_timers_and_results),
    Migration(3, "live board, notices, unreachable DMs", LIVE_BOARD_SCHEMA),
    Migration(4, "computer players", COMPUTERS_SCHEMA),
    Migration(5, "board poster claims", BOARD_CLAIM_SCHEMA),
    Migration(6, "ratings", _migrate_ratings),
    Migration(7, "rematches, games in threads, time away", SOCIAL_SCHEMA),
    Migration(8, "take-backs", TAKEBACK_SCHEMA),
    Migration(9, "game reviews", REVIEWS_SCHEMA),
    Migration(10, "the bot's processes and their heartbeats", PROCESSES_SCHEMA),
    Migration(11, "tournaments", TOURNAMENTS_SCHEMA),
]


# --- helpers shared with the store ----------------------------------------------------------------
def pg_ddl(sql: str) -> str:
    """SQLite DDL for PostgreSQL: 64-bit integers (Discord ids), double precision times, identity columns
    for ``AUTOINCREMENT``."""
    sql = sql.replace("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)


async def run_script(tx: Tx, script: str) -> None:
    """Run a migration's statements, translated for the transaction's dialect."""
    for stmt in split_sql(script):
        await tx.execute(pg_ddl(stmt) if tx.dialect == "postgresql" else stmt)


def dumps(obj: Any) -> str:
    """Compact JSON for a TEXT column."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


async def write_results(tx: Tx, game_id: int, state: dict[str, Any], *, computers: bool = True) -> None:
    """The final VP and rubles of each seat (with who held it at the end, a person or a computer player's
    level) from a finished state. ``computers``: the schema has the columns of migration 4."""
    cols = "seat, user_id, name, computer" if computers else "seat, user_id, name, NULL"
    seats = {r[0]: (r[1], r[2], r[3]) for r in await tx.fetch(f"SELECT {cols} FROM seats WHERE game_id = ?",
                                                               (game_id,))}
    winners = set(state.get("winners") or [])
    rows = []
    for seat, (vp, rubles) in enumerate(zip(state["vp"], state["rubles"], strict=True)):
        user_id, name, computer = seats.get(seat, (None, state["seats"][seat], None))
        rows.append((game_id, seat, user_id, name, vp, rubles, int(seat in winners), computer))
    upsert = ("ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, name = excluded.name, "
              "vp = excluded.vp, rubles = excluded.rubles, winner = excluded.winner")
    if computers:
        await tx.executemany(f"INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?) {upsert}, "
                             "computer = excluded.computer", rows)
    else:
        await tx.executemany(f"INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?) {upsert}", [r[:7] for r in rows])


def split_sql(script: str) -> list[str]:
    """The statements of a SQL script (no semicolons inside literals in our migrations)."""
    return [s.strip() for s in script.split(";") if s.strip()]
