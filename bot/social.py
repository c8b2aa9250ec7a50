"""Rematches, a member's games in a server, and time away: the game service's part for players between and
across games. No Discord here (``cogs.social`` posts); no rules (the rules core is asked through the state)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from rules import GameState
from rules.i18n import t

from .lobby import max_players, new_seed
from .service_base import ServiceBase, UserError
from .store import ACTIVE, FINISHED, LOBBY, ChannelBusy, Game, Seat, Store, TimerRow
from .timers import AUTOPASS

MAX_AWAY_DAYS = 30


def away_date(ts: float, lang: str) -> str:
    """A day as the board marks it: ``3 Dec`` (``3. Dez.``), in UTC."""
    day = datetime.fromtimestamp(ts, UTC)
    month = t("bot.months", lang).split()[day.month - 1]
    return f"{day.day}. {month}" if lang == "de" else f"{day.day} {month}"


async def away_marks(store: Store, game: Game) -> dict[int, str]:
    """Seat -> the day its member's time away ends, for the seats of members away from the server's games."""
    away = await store.away_until(game.guild_id, [s.user_id for s in game.seats if s.user_id is not None])
    return {s.seat: away_date(away[s.user_id], game.lang) for s in game.seats if s.user_id in away}


@dataclass(slots=True)
class MemberGames:
    """A member's games in a server: those waiting for them (with since when), their other games, and the
    open lobbies they could join."""

    waiting: list[tuple[Game, float]] = field(default_factory=list)
    others: list[Game] = field(default_factory=list)
    lobbies: list[Game] = field(default_factory=list)


def waits_for(game: Game, user_id: int) -> bool:
    """Whether the game in play waits for ``user_id`` (their seat decides)."""
    if game.status != ACTIVE or game.state is None:
        return False
    st = GameState.from_json(game.state)
    return not st.finished and game.user_at(st.decider) == user_id


def rematch_parts(game: Game) -> dict[str, object]:
    """The finished game's options for its rematch: edition, money, expansions and modules."""
    keys = ("edition", "open_money", "expansions", "modules")
    return {k: game.ruleset[k] for k in keys if game.ruleset.get(k) not in (None, [], ())}


class SocialService(ServiceBase):
    """Rematch lobbies, a member's games, time away."""

    async def rematch(self, game_id: int, user_id: int, name: str, *, channel_id: int | None = None,
                      computer_names: dict[str, str] | None = None) -> tuple[Game, bool]:
        """The rematch of a finished game, pressed by one of its players: the open rematch lobby (False), or a
        new one (True) hosted by ``user_id`` with the same options, language, settings and computer seats, in
        ``channel_id`` (a new thread; None: the game's own channel). Two presses at once open one lobby: the
        game's lock in this process, the unique index on ``rematch_of`` across processes."""
        async with self.lock(game_id):
            game = await self.game(game_id)
            if game.status != FINISHED:
                raise UserError("not_finished")
            if user_id not in {s.user_id for s in game.seats}:
                raise UserError("not_in_game")
            existing = await self.store.open_rematch(game_id)
            if existing is not None:
                return existing, False
            names = computer_names or {}
            computers = [Seat(0, None, names.get(s.computer, s.name), s.computer) for s in game.seats
                         if s.computer is not None and not s.name.endswith("🤖")]  # a take-over's seat is a person's
            try:
                made = await self.store.create_game(
                    guild_id=game.guild_id, channel_id=channel_id or game.channel_id, host_id=user_id,
                    host_name=name, ruleset=rematch_parts(game), seed=new_seed(),
                    lang=game.lang,
                    parent_id=game.parent_id if channel_id is not None else None, rematch_of=game.id,
                    computers=_unique(computers), settings=game.settings)
            except ChannelBusy:
                existing = await self.store.open_rematch(game_id)  # another process was first
                if existing is not None:
                    return existing, False
                raise UserError("channel_busy") from None
            return made, True

    async def member_games(self, guild_id: int, user_id: int) -> MemberGames:
        """The member's games in the server, waiting ones first (longest waiting first), then the others
        (newest move first), then the lobbies they could join."""
        out = MemberGames()
        for game in await self.store.guild_open_games(guild_id):
            if game.seat_of(user_id) is not None:
                if waits_for(game, user_id):
                    out.waiting.append((game, game.updated_at))
                else:
                    out.others.append(game)
            elif game.status == LOBBY and len(game.seats) < max_players(game):
                out.lobbies.append(game)
        out.waiting.sort(key=lambda gw: gw[1])
        out.others.sort(key=lambda g: -g.updated_at)
        return out

    async def set_away(self, guild_id: int, user_id: int, days: int) -> float | None:
        """The member is away from the server's games for ``days`` (1-30; 0: back now); until when."""
        if not 0 <= days <= MAX_AWAY_DAYS:
            raise UserError("bad_away_days", most=MAX_AWAY_DAYS)
        until = self.store.clock() + 86400 * days if days else None
        await self.store.set_away(guild_id, user_id, until)
        return until

    async def postpone_if_away(self, game: Game, timer: TimerRow) -> bool:
        """A reminder or time-out due for a member away: it moves to when they are back (a time-out then gives
        them its whole time again); True when it was postponed. A tournament game past its round's deadline
        (``deadline`` in its settings) waits for nobody."""
        if game.settings.get(DEADLINE_SETTING):
            return False
        until = await self.away_of(game, timer.seat)
        if until is None:
            return False
        later = until + (60 * (await self.timing(game)).autopass if timer.kind == AUTOPASS else 0)
        await self.store.claim_timer(timer, later)
        return True

    async def away_of(self, game: Game, seat: int) -> float | None:
        """Until when the member in ``seat`` is away from the server's games (None: not away)."""
        uid = game.user_at(seat)
        if uid is None:
            return None
        return (await self.store.away_until(game.guild_id, [uid])).get(uid)


DEADLINE_SETTING = "deadline"  # a game's setting: its tournament round's deadline has passed (no one is waited for)


def _unique(seats: list[Seat]) -> list[Seat]:
    """Computer seats with distinct names (``Normal``, ``Normal 2``)."""
    taken: set[str] = set()
    out: list[Seat] = []
    for s in seats:
        name = next(f"{s.name} {k}" if k > 1 else s.name for k in range(1, 7)
                    if (f"{s.name} {k}" if k > 1 else s.name) not in taken)
        taken.add(name)
        out.append(Seat(len(out) + 1, None, name, s.computer))
    return out
