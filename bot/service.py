"""Game service: the bridge between interactions and the rules core plus the store.

It holds no rules: legality comes only from ``rules.apply``/``rules.check``. It loads the game from
the database on every call, serializes the actions of one game with a per-game asyncio lock, checks
the board version a button carries, and commits each accepted action atomically.
"""

from __future__ import annotations

import asyncio
import random
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from rules import Action, GameState, Ruleset, apply, format_action, new_game, parse_for
from rules.i18n import LANGUAGES

from .store import ABORTED, ACTIVE, FINISHED, LOBBY, ChannelBusy, Game, Store, VersionConflict

MIN_PLAYERS, MAX_PLAYERS = 2, 4


class UserError(Exception):
    """A mistake of the person acting (shown privately with ``error_text(code, lang, **params)``)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)


@dataclass(slots=True)
class Outcome:
    """An accepted action: the game after it (new version), the state, events and whose hand changed."""

    game: Game
    state: GameState
    before: GameState
    action: Action
    notation: str
    price: int
    seat: int
    events: list[dict[str, Any]]
    changed_hands: list[int]


def hands_of(st: GameState) -> dict[int, list[str]]:
    """Seat -> card type ids in hand."""
    cards = st.cards
    return {s: [cards[c].id for c in st.hands[s]] for s in range(st.n)}


class GameService:
    """Create, join, start and play games; every method re-reads the game from the store."""

    def __init__(self, store: Store, default_lang: str = "en") -> None:
        self.store = store
        self.default_lang = default_lang
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that serializes everything that changes game ``game_id``."""
        lk = self._locks.get(game_id)
        if lk is None:
            lk = asyncio.Lock()
            self._locks[game_id] = lk
        return lk

    # --- loading ----------------------------------------------------------------------------------
    async def game_in_channel(self, channel_id: int) -> Game:
        game = await self.store.open_game_in_channel(channel_id)
        if game is None:
            raise UserError("no_game")
        return game

    async def game(self, game_id: int) -> Game:
        game = await self.store.get_game(game_id)
        if game is None:
            raise UserError("no_game")
        return game

    @staticmethod
    def state(game: Game) -> GameState:
        if game.state is None:
            raise UserError("not_started")
        return GameState.from_json(game.state)

    # --- lobby ------------------------------------------------------------------------------------
    async def create(self, *, guild_id: int | None, channel_id: int, user_id: int, name: str, edition: int = 2,
                     open_money: bool = True, lang: str | None = None, seed: int | None = None) -> Game:
        """A new lobby in the channel with the creator as host and first seat."""
        lang = lang if lang in LANGUAGES else self.default_lang
        Ruleset(edition=edition)  # validates the edition
        seed = seed if seed is not None else random.SystemRandom().randrange(1, 2**62)
        try:
            return await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, host_id=user_id, host_name=name,
                ruleset={"edition": edition, "open_money": open_money}, seed=seed, lang=lang)
        except ChannelBusy:
            raise UserError("channel_busy") from None

    async def join(self, channel_id: int, user_id: int, name: str) -> tuple[Game, int]:
        """Join the lobby (or take an empty seat of a game in play); returns the game and the seat."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if game.seat_of(user_id) is not None:
                raise UserError("already_joined")
            if game.status == LOBBY:
                if len(game.seats) >= MAX_PLAYERS:
                    raise UserError("game_full", max=MAX_PLAYERS)
                seats = [(s.user_id or 0, s.name) for s in game.seats] + [(user_id, name)]
                await self.store.update_lobby(game.id, game.version, seats)
                return await self.game(game.id), len(seats) - 1
            empty = next((s.seat for s in game.seats if s.user_id is None), None)
            if empty is None:
                raise UserError("already_started")
            await self._give_seat(game, empty, user_id, name)
            return await self.game(game.id), empty

    async def leave(self, channel_id: int, user_id: int) -> Game:
        """Leave the lobby (the next player becomes host; the last one out ends it) or empty your seat."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            seat = game.seat_of(user_id)
            if seat is None:
                raise UserError("not_in_game")
            if game.status == LOBBY:
                rest = [(s.user_id or 0, s.name) for s in game.seats if s.user_id != user_id]
                if not rest:
                    await self.store.set_status(game.id, game.version, ABORTED)
                else:
                    host = game.host_id if game.host_id != user_id else rest[0][0]
                    await self.store.update_lobby(game.id, game.version, rest, host_id=host)
            else:
                await self._give_seat(game, seat, None, game.seats[seat].name)
                game = await self.game(game.id)
                if all(s.user_id is None for s in game.seats):
                    await self.store.set_status(game.id, game.version, ABORTED)
            return await self.game(game.id)

    async def start(self, channel_id: int, user_id: int) -> tuple[Game, GameState]:
        """The host starts: seats in join order, tokens dealt from the game's seed."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if game.status != LOBBY:
                raise UserError("already_started")
            if user_id != game.host_id:
                raise UserError("not_host")
            n = len(game.seats)
            if not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise UserError("player_count", min=MIN_PLAYERS, max=MAX_PLAYERS, n=n)
            ruleset = Ruleset(edition=int(game.ruleset.get("edition", 2)), players=n,
                              open_money=bool(game.ruleset.get("open_money", True)))
            st = new_game(ruleset, [s.name for s in game.seats], seed=game.seed)
            await self.store.start_game(game.id, game.version, ruleset=ruleset.to_json(), state=st.to_json(),
                                        hands=hands_of(st))
            return await self.game(game.id), st

    # --- playing ----------------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: Action | str, *, version: int | None = None,
                  after: Callable[[Outcome], Awaitable[None]] | None = None) -> Outcome:
        """Apply one action of ``user_id`` (an Action or its notation) and commit it.

        ``version``: the board version a button carried; a different current version is a stale click.
        ``after`` runs under the game's lock once the action is committed (to update Discord in order).
        Raises UserError or rules.RuleError; then nothing has changed.
        """
        async with self.lock(game_id):
            game = await self.game(game_id)
            if game.status != ACTIVE:
                raise UserError("not_active")
            if version is not None and version != game.version:
                raise UserError("stale_board")
            seat = game.seat_of(user_id)
            if seat is None:
                raise UserError("not_in_game")
            st = self.state(game)
            before = st.copy()
            if isinstance(action, str):
                action = parse_for(st, action)
            events = apply(st, action, seat)  # raises RuleError: nothing changed
            price = _paid(before, st, seat)
            notation = format_action(action, st.ruleset.catalogue)
            old_hands, new_hands = hands_of(before), hands_of(st)
            changed = [s for s in range(st.n) if old_hands[s] != new_hands[s]]
            status = FINISHED if st.finished else ACTIVE
            try:
                await self.store.record_action(
                    game.id, game.version, seat=seat, user_id=user_id, notation=notation, events=events,
                    state=st.to_json(), hands={s: new_hands[s] for s in changed}, status=status)
            except VersionConflict:
                raise UserError("stale_board") from None
            game.version += 1
            game.status = status
            game.state = None  # the caller uses ``state``; avoid serializing twice
            out = Outcome(game, st, before, action, notation, price, seat, events, changed)
            if after is not None:
                await after(out)
            return out

    # --- host tools -------------------------------------------------------------------------------
    async def abort(self, channel_id: int, user_id: int, *, may_manage: bool) -> Game:
        """End the game without scores (host, or a member allowed to manage messages)."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if user_id != game.host_id and not may_manage:
                raise UserError("not_host_or_mod")
            await self.store.set_status(game.id, game.version, ABORTED)
            return await self.game(game.id)

    async def kick(self, channel_id: int, host_id: int, target_id: int) -> tuple[Game, int]:
        """Host: remove a lobby player, or empty an absent player's seat (someone may then join it)."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if host_id != game.host_id:
                raise UserError("not_host")
            if target_id == host_id:
                raise UserError("kick_self")
            seat = game.seat_of(target_id)
            if seat is None:
                raise UserError("not_a_player")
            if game.status == LOBBY:
                rest = [(s.user_id or 0, s.name) for s in game.seats if s.user_id != target_id]
                await self.store.update_lobby(game.id, game.version, rest)
            else:
                await self._give_seat(game, seat, None, game.seats[seat].name)
            return await self.game(game.id), seat

    async def replace(self, channel_id: int, host_id: int, target_id: int, new_id: int,
                      new_name: str) -> tuple[Game, int]:
        """Host: another user takes the seat of ``target_id`` in a game in play."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if host_id != game.host_id:
                raise UserError("not_host")
            if game.status != ACTIVE:
                raise UserError("not_active")
            seat = game.seat_of(target_id)
            if seat is None:
                raise UserError("not_a_player")
            if game.seat_of(new_id) is not None:
                raise UserError("already_seated")
            await self._give_seat(game, seat, new_id, new_name)
            return await self.game(game.id), seat

    async def _give_seat(self, game: Game, seat: int, user_id: int | None, name: str) -> None:
        """Store the seat's new holder and show the new name in the state (caller holds the lock)."""
        state = game.state
        if state is not None:
            state = dict(state)
            state["seats"] = list(state["seats"])
            state["seats"][seat] = name
        await self.store.set_seat(game.id, game.version, seat, user_id, name, state=state)


def _paid(before: GameState, after: GameState, seat: int) -> int:
    """Rubles the acting seat paid for its action (0 when scoring income follows in the same step)."""
    spent = after.stats[seat].get("spent", 0) - before.stats[seat].get("spent", 0)
    return max(spent, 0)
