"""The bot's database: SQLite (default, one process) or PostgreSQL (several processes), one interface.

``Store.open(path_or_url)`` opens either backend, checks it and applies the missing migrations
(``bot.schema``). Every write that changes a game bumps ``games.version`` in an ``UPDATE ... WHERE version
= ?`` (optimistic check) inside one transaction, so an accepted action is stored exactly once together with
the new state, its action row, the changed hands, the next turn's timers and channel notices, or not at
all; the loser of a race gets ``VersionConflict`` on either backend.

Besides games, seats, actions (``auto``: why the bot took one) and hands: ``reminders`` holds the current
turn's reminder and time-out (keyed by game and version, so any action voids them; a due one is claimed
with an UPDATE before it is sent), ``pass_modes`` the players' ``rules.autopass.AutoPass``, ``results`` each
finished game's scores (history, leaderboard), ``guild_settings`` a server's timer defaults, ``notices``
channel messages still to post, ``dm_unreachable`` users whose DMs are closed, and ``ratings`` and
``rating_changes`` the ratings per server (``bot.ratings``, docs/ratings.md), ``away`` the members away from a
server's games until a time (``social``: also rematch lobbies and the threads of games), ``reviews`` and
``review_parts`` the reviews of finished games (``reviews``), ``bot_processes`` the bot's processes on a shared
database and their heartbeats (``claims``: who may update a game's channel), and the tournaments with their
entrants, rounds and tables (``tournaments``).

Files: ``rows`` (dataclasses, errors), ``backend`` (the interface), ``sqlite``/``postgres`` (backends),
``core`` (open, migrate, transactions), ``reads``, ``writes`` and ``reviews`` (the queries), ``claims`` (board
claims, processes), ``urls`` (database URLs in messages and commands, the password hidden).
"""

from __future__ import annotations

from ..schema import MIGRATIONS, Migration
from .backend import Backend, Tx
from .claims import StoreClaims
from .core import parse_database, shard_clause
from .reads import StoreReads
from .reviews import ReviewRow, StoreReviews
from .rows import (
    ABORTED,
    ACTIVE,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    TAKEBACK,
    ActionRow,
    ChannelBusy,
    DatabaseLost,
    DatabaseUnavailable,
    FinishedGame,
    Game,
    IntegrityError,
    NotFound,
    Notice,
    Result,
    Seat,
    Standing,
    StoreError,
    TimerRow,
    Unusable,
    VersionConflict,
)
from .social import StoreSocial
from .tournaments import StoreTournaments
from .writes import StoreWrites

__all__ = [
    "ABORTED", "ACTIVE", "FINISHED", "LOBBY", "MIGRATIONS", "OPEN_STATUSES", "TAKEBACK", "ActionRow", "Backend",
    "ChannelBusy",
    "DatabaseLost", "DatabaseUnavailable", "FinishedGame", "Game", "IntegrityError", "Migration", "NotFound", "Notice",
    "Result", "ReviewRow", "Seat",
    "Standing", "Store", "StoreError", "TimerRow", "Tx", "Unusable", "VersionConflict", "parse_database",
    "shard_clause",
]


class Store(StoreReads, StoreWrites, StoreSocial, StoreReviews, StoreClaims, StoreTournaments):
    """The bot's database (see the module docstring); open it with ``await Store.open(path_or_url)``."""
