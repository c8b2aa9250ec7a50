"""The store's rows (dataclasses), statuses and errors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

LOBBY, ACTIVE, FINISHED, ABORTED = "lobby", "active", "finished", "aborted"
OPEN_STATUSES = (LOBBY, ACTIVE)
TAKEBACK = "takeback"  # ``actions.auto`` of a take-back's own row


# --- rows ---------------------------------------------------------------------------------------
@dataclass(slots=True)
class Seat:
    seat: int
    user_id: int | None  # None: an empty seat (kicked or left) waiting for a replacement, or a computer's
    name: str
    computer: str | None = None  # a computer player's level (``players.ai``) when a computer holds the seat


@dataclass(slots=True)
class Game:
    """One row of ``games`` plus its seats (in seat order). ``state`` is GameState JSON or None (lobby)."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    ruleset: dict[str, Any]
    seed: int
    lang: str
    status: str
    version: int
    state: dict[str, Any] | None
    board_message_id: int | None
    created_at: float
    updated_at: float
    seats: list[Seat] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # the host's timer settings (minutes)
    shown_version: int = -1  # the version the channel's board shows (-1: no board yet)
    turn_message_id: int | None = None  # the message that pings the player to decide
    turn_user_id: int | None = None  # whom it pings
    final_posted: bool = False
    board_problem: str | None = None  # the posting problem last told to the channel or host
    parent_id: int | None = None  # the channel whose thread ``channel_id`` is (None: not a game's own thread)
    rematch_of: int | None = None  # the finished game this lobby is the rematch of

    def needs_board(self) -> bool:
        """Whether the channel must be brought up to date (a board, the final scores, a stripped board)."""
        return self.status != LOBBY and self.shown_version < self.version

    def seat_of(self, user_id: int) -> int | None:
        """The seat number of ``user_id`` or None."""
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def user_at(self, seat: int) -> int | None:
        """The user in ``seat`` (None: empty or no such seat)."""
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        return None

    def computer_at(self, seat: int) -> str | None:
        """The level of the computer player holding ``seat``, if one does."""
        for s in self.seats:
            if s.seat == seat:
                return s.computer
        return None

    def humans(self) -> int:
        return sum(1 for s in self.seats if s.user_id is not None)


@dataclass(slots=True)
class ActionRow:
    game_id: int
    idx: int
    seat: int
    user_id: int | None
    notation: str
    events: list[dict[str, Any]]
    created_at: float
    auto: str | None = None  # None: by the player; else why the bot acted (forced, mode_*, timeout), or 'takeback'
    taken_back: int | None = None  # taken back by the take-back in row ``taken_back`` (None: it stands)

    @property
    def stands(self) -> bool:
        """An action of the game as it stands: neither taken back nor a take-back itself."""
        return self.taken_back is None and self.auto != TAKEBACK


@dataclass(slots=True)
class TimerRow:
    """A stored reminder or time-out of the turn at game version ``version``."""

    game_id: int
    kind: str
    version: int
    seat: int
    due_at: float
    sent: int


@dataclass(slots=True)
class Result:
    """A seat's final score in a finished game."""

    seat: int
    user_id: int | None
    name: str
    vp: int
    rubles: int
    winner: bool
    computer: str | None = None


@dataclass(slots=True)
class FinishedGame:
    id: int
    finished_at: float
    edition: int
    results: list[Result]  # best first


@dataclass(slots=True)
class Standing:
    """One member's line of a server's leaderboard."""

    user_id: int
    name: str
    games: int
    wins: int
    average: float
    best: int


class StoreError(Exception):
    """Base class of the store's expected failures."""


class VersionConflict(StoreError):
    """The game changed since it was read (another action won the race)."""


class ChannelBusy(StoreError):
    """The channel already has a game in the lobby or in play."""


class NotFound(StoreError):
    """No such game (or seat)."""


class Unusable(StoreError):
    """The database cannot be used (unreadable, damaged, read-only): the bot must not start."""


class DatabaseLost(Unusable):
    """The database file was deleted or replaced under the running bot and could not be written back to its
    path: nothing written now would be kept, so no write is committed any
    more. ``code``/``params``: the private answer to a player."""

    code = "database_lost"
    params: dict[str, str] = {}


class DatabaseUnavailable(StoreError):
    """The database server could not be reached, or the connection was lost during a transaction:
    nothing of it is confirmed. ``code``/``params``: the private answer to a player."""

    code = "database_unavailable"
    params: dict[str, str] = {}


class IntegrityError(StoreError):
    """A constraint refused a write (either backend's integrity error)."""


@dataclass(slots=True)
class Notice:
    """A channel message stored with a commit (text key and parameters), posted until it succeeds."""

    id: int
    game_id: int
    key: str
    params: dict[str, Any]


GAME_COLS = ("id, guild_id, channel_id, host_id, ruleset, seed, lang, status, version, state, "
              "board_message_id, created_at, updated_at, settings, shown_version, turn_message_id, turn_user_id, "
              "final_posted, board_problem, parent_id, rematch_of")


def game_from_row(row: Sequence[Any], seats: list[Seat]) -> Game:
    return Game(
        id=row[0], guild_id=row[1], channel_id=row[2], host_id=row[3], ruleset=json.loads(row[4]),
        seed=row[5], lang=row[6], status=row[7], version=row[8],
        state=json.loads(row[9]) if row[9] is not None else None,
        board_message_id=row[10], created_at=row[11], updated_at=row[12], seats=seats,
        settings=json.loads(row[13]) if row[13] else {}, shown_version=row[14], turn_message_id=row[15],
        turn_user_id=row[16], final_posted=bool(row[17]), board_problem=row[18], parent_id=row[19],
        rematch_of=row[20],
    )
