"""The game service's foundation: the store, one lock per game, loading games and their timer settings.

``bot.lobby.LobbyService`` (seats) and ``bot.service.GameService`` (playing) build on it. No rules here.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from rules import GameState
from rules.autopass import AutoPass

from .store import ACTIVE, Game, Store
from .timers import Timer, Timing, plan, resolve

MIN_PLAYERS, MAX_PLAYERS = 2, 5  # the most any ruleset allows (``bot.lobby.max_players``: the game's)


class UserError(Exception):
    """A mistake of the person acting (shown privately with ``error_text(code, lang, **params)``)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)


class ServiceBase:
    """Loading and locking; every method re-reads the game from the store."""

    def __init__(self, store: Store, default_lang: str = "en", timing: Timing | None = None) -> None:
        self.store = store
        self.default_lang = default_lang
        self.default_timing = timing or Timing(reminder=60, interval=240, autopass=0)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # caches of what every action looks at (all changes go through this service)
        self._server_settings: dict[int, dict[str, Any]] = {}
        self._modes: dict[int, dict[int, AutoPass]] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that serializes everything that changes game ``game_id``."""
        lk = self._locks.get(game_id)
        if lk is None:
            lk = asyncio.Lock()
            self._locks[game_id] = lk
        return lk

    # --- loading ----------------------------------------------------------------------------------
    @staticmethod
    def found(game: Game | None) -> Game:
        """``game``, which was looked for; UserError ``no_game`` when there is none."""
        if game is None:
            raise UserError("no_game")
        return game

    async def game_in_channel(self, channel_id: int) -> Game:
        return self.found(await self.store.open_game_in_channel(channel_id))

    async def game(self, game_id: int) -> Game:
        return self.found(await self.store.get_game(game_id))

    @staticmethod
    def seat_in_play(game: Game, user_id: int, missing: str = "not_in_game") -> int:
        """The seat of ``user_id`` in ``game``, which must be in play: UserError ``not_active`` when it is not,
        ``missing`` when the user has no seat in it."""
        if game.status != ACTIVE:
            raise UserError("not_active")
        seat = game.seat_of(user_id)
        if seat is None:
            raise UserError(missing)
        return seat

    @staticmethod
    def state(game: Game) -> GameState:
        if game.state is None:
            raise UserError("not_started")
        return GameState.from_json(game.state)

    async def latest_in_channel(self, channel_id: int) -> Game:
        """The channel's open game, else its newest finished one (for the log, stats and export)."""
        return self.found(await self.store.latest_game_in_channel(channel_id))

    # --- timers -----------------------------------------------------------------------------------
    async def timing(self, game: Game) -> Timing:
        """The game's reminder, interval and time-out (its own settings, else the server's, else global)."""
        return resolve(game.settings, await self._server(game.guild_id), self.default_timing)

    async def _server(self, guild_id: int | None) -> dict[str, Any] | None:
        if guild_id is None:
            return None
        settings = None if self.store.shared else self._server_settings.get(guild_id)
        if settings is None:
            settings = self._server_settings[guild_id] = await self.store.guild_settings(guild_id)
        return settings

    def _plan(self, game: Game, st: GameState, timing: Timing, since: float, sent: int = 0) -> list[Timer]:
        if st.finished or game.computer_at(st.decider) is not None:  # a computer player needs no timers
            return []
        seat = st.decider
        return plan(seat, game.user_at(seat) is not None, timing, since, sent)
