"""Seats: the lobby (create, join, leave, start), computer players in seats, and the host's tools (abort,
kick, replace). Every change of a seat in play is stored with the notice the channel gets about it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules import GameState, Ruleset, RulesetError, new_game
from rules.i18n import LANGUAGES
from rules.ruleset import module_key

from .service_base import MAX_PLAYERS, MIN_PLAYERS, ServiceBase, UserError
from .store import ABORTED, ACTIVE, LOBBY, ChannelBusy, Game, Seat
from .timers import Timer, plan


def _host_in_lobby(game: Game, user_id: int) -> Game:
    """The game, if it is still a lobby and ``user_id`` hosts it (else the user's mistake)."""
    if game.status != LOBBY:
        raise UserError("already_started")
    if user_id != game.host_id:
        raise UserError("not_host")
    return game


def ruleset_of(stored: dict[str, Any], players: int) -> Ruleset:
    """The Ruleset a lobby's stored choices give for ``players`` seats (ValueError where the rules core
    refuses the combination, X-02)."""
    return Ruleset(edition=int(stored.get("edition", 2)), players=players,
                   open_money=bool(stored.get("open_money", True)),
                   expansions=tuple(stored.get("expansions", ())), modules=tuple(stored.get("modules", ())))


def refused(error: ValueError) -> UserError:
    """The rules core's refusal of a combination (X-02) for the host, in the game's language."""
    if isinstance(error, RulesetError):
        return UserError(error.code, **error.params)
    return UserError("bad_ruleset", reason=str(error))


SEEDS: random.Random = random.SystemRandom()
"""Where new games' and tournaments' seeds come from (the tests put a seeded generator here)."""


def new_seed() -> int:
    """A new game's or tournament's seed: it orders the stacks, so nobody may predict it."""
    return SEEDS.randrange(1, 2**62)


def max_players(game: Game) -> int:
    """The most seats the game's ruleset allows (the rules core says: 5 with the Market or In bester
    Gesellschaft, else 4)."""
    for n in range(MAX_PLAYERS, MIN_PLAYERS - 1, -1):
        try:
            ruleset_of(game.ruleset, n)
        except ValueError:
            continue
        return n
    return MIN_PLAYERS


def split_parts(keys: Sequence[str]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Registry keys (``market``, ``module2`` ...) as the ruleset's expansions and module numbers."""
    expansions = tuple(k for k in keys if not (k.startswith("module") and k[6:].isdigit()))
    modules = tuple(sorted(int(k[6:]) for k in keys if k.startswith("module") and k[6:].isdigit()))
    return expansions, modules


def parts_of(stored: dict[str, Any]) -> list[str]:
    """The registry keys of a lobby's stored expansions and modules."""
    return [*stored.get("expansions", ()), *(module_key(int(m)) for m in stored.get("modules", ()))]


def hands_of(st: GameState) -> dict[int, list[str]]:
    """Seat -> card type ids in hand."""
    cards = st.cards
    return {s: [cards[c].id for c in st.hands[s]] for s in range(st.n)}


COMPUTER_LEVELS = ("easy", "normal", "strong")  # players.ai levels offered at the table
TAKEOVER_LEVEL = "normal"  # the computer player that takes over an absent player's seat


class LobbyService(ServiceBase):
    """Who sits where."""

    async def add_computer(self, channel_id: int, user_id: int, level: str, name: str) -> Game:
        """Host: a computer player of ``level`` takes the next seat of the lobby."""
        if level not in COMPUTER_LEVELS:
            raise UserError("no_such_level", levels=", ".join(COMPUTER_LEVELS))
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = _host_in_lobby(await self.game(game.id), user_id)
            if len(game.seats) >= max_players(game):
                raise UserError("game_full", max=max_players(game))
            taken = {s.name for s in game.seats}
            unique = next(f"{name} {k}" if k > 1 else name for k in range(1, MAX_PLAYERS + 2)
                          if (f"{name} {k}" if k > 1 else name) not in taken)
            await self.store.update_lobby(game.id, game.version,
                                          [*game.seats, Seat(len(game.seats), None, unique, level)])
            return await self.game(game.id)

    async def remove_computer(self, channel_id: int, user_id: int) -> Game:
        """Host: the lobby's last computer player leaves."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = _host_in_lobby(await self.game(game.id), user_id)
            computers = [s for s in game.seats if s.computer is not None]
            if not computers:
                raise UserError("no_computer")
            await self.store.update_lobby(game.id, game.version, [s for s in game.seats if s is not computers[-1]])
            return await self.game(game.id)

    async def hand_to_computer(self, game: Game, seat: int) -> None:
        """An absent player's time ran out and the host lets a computer player take over their seat (caller
        holds the lock); a person can take the seat back with join or the host's replace."""
        user_id = game.user_at(seat)
        name = game.seats[seat].name
        await self._give_seat(game, seat, None, name if name.endswith("🤖") else f"{name} 🤖",
                              computer=TAKEOVER_LEVEL,
                              notices=[("bot.computer_takes_over", {"player": user_id or name, "seat": seat + 1})])

    # --- lobby ------------------------------------------------------------------------------------
    async def create(self, *, guild_id: int | None, channel_id: int, user_id: int, name: str, edition: int = 2,
                     open_money: bool = True, lang: str | None = None, seed: int | None = None,
                     expansions: Sequence[str] = (), modules: Sequence[int] = (), parent_id: int | None = None) -> Game:
        """A new lobby in the channel with the creator as host and first seat; ``expansions`` as the rules
        core names them (e.g. the Market), refused with the core's reason where the rulebooks do not allow them;
        ``parent_id``: the channel is the game's own thread in that channel."""
        lang = lang if lang in LANGUAGES else self.default_lang
        try:
            Ruleset(edition=edition, expansions=tuple(expansions), modules=tuple(modules))  # validates them
        except ValueError as e:
            raise refused(e) from None
        seed = seed if seed is not None else new_seed()
        ruleset: dict[str, Any] = {"edition": edition, "open_money": open_money}
        if expansions:
            ruleset["expansions"] = list(expansions)
        if modules:
            ruleset["modules"] = sorted(modules)
        try:
            return await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, host_id=user_id, host_name=name,
                ruleset=ruleset, seed=seed, lang=lang, parent_id=parent_id)
        except ChannelBusy:
            raise UserError("channel_busy") from None

    async def set_parts(self, game_id: int, user_id: int, keys: Sequence[str]) -> Game:
        """Host, in the lobby: play with these expansions and modules (registry keys), refused with the rules
        core's reason where the rulebooks do not allow the combination (X-02) or the seats taken exceed it."""
        async with self.lock(game_id):
            game = _host_in_lobby(await self.game(game_id), user_id)
            expansions, modules = split_parts(keys)
            stored = {**game.ruleset, "expansions": list(expansions), "modules": list(modules)}
            if not expansions:
                del stored["expansions"]
            if not modules:
                del stored["modules"]
            seats = max(MIN_PLAYERS, len(game.seats))
            try:
                ruleset_of(stored, seats)
            except ValueError as e:
                raise refused(e) from None
            await self.store.update_lobby(game.id, game.version, game.seats, ruleset=stored)
            return await self.game(game.id)

    async def join(self, channel_id: int, user_id: int, name: str) -> tuple[Game, int]:
        """Join the lobby (or take an empty seat of a game in play); returns the game and the seat."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if game.seat_of(user_id) is not None:
                raise UserError("already_joined")
            if game.status == LOBBY:
                if len(game.seats) >= max_players(game):
                    raise UserError("game_full", max=max_players(game))
                seats = [*game.seats, Seat(len(game.seats), user_id, name)]
                await self.store.update_lobby(game.id, game.version, seats)
                return await self.game(game.id), len(seats) - 1
            # an empty seat first, else a computer player's (a person takes over from it)
            free = [s for s in game.seats if s.user_id is None and s.computer is None]
            free = free or [s for s in game.seats if s.computer is not None]
            if not free:
                raise UserError("already_started")
            empty = free[0].seat
            host = user_id if game.user_at(_seat_of_host(game)) is None else None  # nobody held the role
            notices = [("bot.seat_taken", {"player": user_id, "seat": empty + 1})]
            if host is not None:
                notices.append(("bot.host_now", {"player": host}))
            await self._give_seat(game, empty, user_id, name, host_id=host, notices=notices)
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
                rest = [s for s in game.seats if s.user_id != user_id]
                people = [s.user_id for s in rest if s.user_id is not None]
                if not people:  # computer players alone do not keep a lobby open
                    await self.store.set_status(game.id, game.version, ABORTED)
                    self._modes.pop(game.id, None)
                else:
                    host = game.host_id if game.host_id != user_id else people[0]
                    await self.store.update_lobby(game.id, game.version, rest, host_id=host)
            else:
                new_host = _next_human(game, seat) if user_id == game.host_id else None
                notices = [("bot.seat_left", {"player": user_id, "seat": seat + 1})]
                if new_host is not None:
                    notices.append(("bot.host_now", {"player": new_host}))
                await self._give_seat(game, seat, None, game.seats[seat].name, host_id=new_host, notices=notices)
                game = await self.game(game.id)
                if game.humans() == 0:
                    await self.store.set_status(game.id, game.version, ABORTED, [("bot.aborted", {})])
                    self._modes.pop(game.id, None)
            return await self.game(game.id)

    async def start(self, channel_id: int, user_id: int) -> tuple[Game, GameState]:
        """The host starts: seats in join order, tokens dealt from the game's seed."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = _host_in_lobby(await self.game(game.id), user_id)
            n = len(game.seats)
            if not MIN_PLAYERS <= n <= max_players(game):
                raise UserError("player_count", min=MIN_PLAYERS, max=max_players(game), n=n)
            ruleset = ruleset_of(game.ruleset, n)
            st = new_game(ruleset, [s.name for s in game.seats], seed=game.seed)
            timers = self._plan(game, st, await self.timing(game), self.store.clock())
            order = ", ".join(f"{i + 1}. " + (f"<@{s.user_id}>" if s.user_id else s.name)
                              for i, s in enumerate(game.seats))
            await self.store.start_game(game.id, game.version, ruleset=ruleset.to_json(), state=st.to_json(),
                                        hands=hands_of(st), timers=timers, notices=[("bot.started", {"order": order})])
            return await self.game(game.id), st

    # --- host tools -------------------------------------------------------------------------------
    async def abort(self, channel_id: int, user_id: int, *, may_manage: bool) -> Game:
        """End the game without scores (host, or a member allowed to manage messages)."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if user_id != game.host_id and not may_manage:
                raise UserError("not_host_or_mod")
            notices = [("bot.aborted_by", {"player": user_id})] if game.status == ACTIVE else []
            await self.store.set_status(game.id, game.version, ABORTED, notices)
            self._modes.pop(game.id, None)
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
                rest = [s for s in game.seats if s.user_id != target_id]
                await self.store.update_lobby(game.id, game.version, rest)
            else:
                await self._give_seat(game, seat, None, game.seats[seat].name,
                                      notices=[("bot.kicked", {"player": target_id, "seat": seat + 1})])
            return await self.game(game.id), seat

    async def replace(self, channel_id: int, host_id: int, target_id: int, new_id: int,
                      new_name: str) -> tuple[Game, int]:
        """Host: another user takes the seat of ``target_id`` in a game in play."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if host_id != game.host_id:
                raise UserError("not_host")
            seat = self.seat_in_play(game, target_id, missing="not_a_player")
            if game.seat_of(new_id) is not None:
                raise UserError("already_seated")
            await self._give_seat(game, seat, new_id, new_name, notices=[
                ("bot.replaced", {"old": target_id, "new": new_id, "seat": seat + 1})])
            return await self.game(game.id), seat

    async def _give_seat(self, game: Game, seat: int, user_id: int | None, name: str, *, host_id: int | None = None,
                         notices: Sequence[tuple[str, dict[str, Any]]] = (), computer: str | None = None) -> None:
        """Store the seat's new holder and show the new name in the state, with a new host and channel notices
        when given (caller holds the lock)."""
        state = game.state
        timers: list[Timer] | None = None
        if state is not None:
            state = dict(state)
            state["seats"] = list(state["seats"])
            state["seats"][seat] = name
            if game.status == ACTIVE:  # the turn's clock starts again with the seat's new holder
                st = GameState.from_json(state)
                decider = st.decider
                has_user = (user_id if decider == seat else game.user_at(decider)) is not None
                by_computer = computer is not None if decider == seat else game.computer_at(decider) is not None
                timers = [] if st.finished or by_computer else plan(decider, has_user, await self.timing(game),
                                                                    self.store.clock())
        await self.store.set_seat(game.id, game.version, seat, user_id, name, state=state, timers=timers,
                                  host_id=host_id, notices=notices, computer=computer)
        self._modes.get(game.id, {}).pop(seat, None)  # the store cleared the seat's pass mode



def _next_human(game: Game, seat: int) -> int | None:
    """The user of the next seat clockwise after ``seat`` that a person holds (the new host), if any."""
    n = len(game.seats)
    for k in range(1, n):
        uid = game.user_at((seat + k) % n)
        if uid is not None:
            return uid
    return None


def _seat_of_host(game: Game) -> int:
    """The host's seat, or -1 when the host holds none (left the game)."""
    seat = game.seat_of(game.host_id)
    return -1 if seat is None else seat
