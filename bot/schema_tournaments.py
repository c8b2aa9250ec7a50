"""The tournaments' tables (migration 11 of ``bot.schema``)."""

from __future__ import annotations

TOURNAMENTS_SCHEMA = """
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    host_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('swiss', 'heats')),
    settings TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round INTEGER NOT NULL DEFAULT 0,
    seed INTEGER NOT NULL,
    message_id INTEGER,
    standings_message_id INTEGER,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX tournaments_one_open_per_channel ON tournaments (channel_id) WHERE status IN ('signup', 'running');
CREATE INDEX tournaments_status ON tournaments (status, guild_id);
CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    seed INTEGER,
    dropped INTEGER,
    joined_at REAL NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    stage TEXT NOT NULL,
    byes TEXT NOT NULL,
    deadline REAL NOT NULL,
    started_at REAL NOT NULL,
    hurried INTEGER NOT NULL DEFAULT 0,
    announced INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, round)
);
CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    players TEXT NOT NULL,
    thread_id INTEGER,
    game_id INTEGER REFERENCES games (id),
    owner TEXT,
    lease REAL,
    result TEXT,
    PRIMARY KEY (tournament_id, round, table_no)
);
CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables (game_id);
CREATE UNIQUE INDEX tournament_tables_thread ON tournament_tables (thread_id);
"""
"""Tournaments (``bot.tournaments``, ``bot.store.tournaments``): one open tournament a channel; ``settings`` its
options as JSON, ``round`` the round in play (0: sign-up), ``message_id`` the announcement with the sign-up
button, ``standings_message_id`` the standings. ``tournament_entrants`` the players (``seed``: their place in
the rating order at the start; ``dropped``: the round from which they are no longer drawn). A round's row is
inserted once with all its tables (the primary keys and the guarded ``tournaments.round`` decide a race);
``byes`` the players sitting it out (JSON), ``hurried`` whether its deadline has put its games on the shortest
time-out, ``announced`` whether its start was told in the channel (once, by whichever process claims it). A
table's ``players`` are its seat order (random, recorded), ``thread_id`` and ``game_id`` set once each (unique),
``owner``/``lease`` the process creating it now, ``result`` its places and VP once its game ended."""

