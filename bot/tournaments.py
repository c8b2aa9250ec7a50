"""Tournaments in a server, without Discord: sign-up, the rounds' pairings and tables, results, standings.

The pure parts (pairing, points, standings, heats) are the ``tournament`` package; this module reads and writes
the store (``bot.store.tournaments``) and starts each table's game (``table_game``). The cog
(``cogs.tournament``) makes the threads, posts and calls these. Every step is safe to repeat: a round starts
once (``advance``), a table's game is created once, a result recorded once, so the poll that drives a running
tournament may run in any process after any restart.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from rules import new_game
from rules.expansions import offered
from rules.i18n import LANGUAGES
from rules.i18n import t as t_
from tournament import Game as TGame
from tournament import Row, Seat, places, standings
from tournament.heats import advancing, final_order, next_stage, semi_spots
from tournament.points import PRESETS
from tournament.standings import met_pairs
from tournament.swiss import Pairing
from tournament.tables import allowed, table_sizes

from .lobby import TAKEOVER_LEVEL, hands_of, new_seed, parts_of, ruleset_of
from .ratings import USER, default
from .service_base import MAX_PLAYERS, MIN_PLAYERS, UserError
from .store import ChannelBusy, Store
from .store import Seat as GameSeat
from .store.tournaments import CANCELLED, DONE, RUNNING, SIGNUP, Entrant, TableRow, Tournament
from .timers import Timing, plan
from .tournament_options import check_parts, dealers

NAME_MAX = 60
MARKUP = re.compile(r"[*_~`|<>@#\[\]()\\:]|https?|\n|\r")
SWISS, HEATS = "swiss", "heats"
FORMATS = (SWISS, HEATS)
DEFAULTS: dict[str, Any] = {"size": 4, "rounds": 3, "heats": 1, "points": "bga", "deadline_hours": 72,
                            "max_players": 64, "edition": 2, "open_money": True, "expansions": [], "modules": [],
                            "reminder": 720, "autopass": 1440, "takeover": 1, "lang": "en", "takeback": 1,
                            "hints": 0, "rated": 1, "computers": 0}
FLAGS = ("takeover", "takeback", "hints", "rated", "computers")  # on (1) or off (0)
GAME_SETTINGS = ("reminder", "autopass", "takeover", "takeback", "hints", "rated")  # each table's game's settings
MAX_ROUNDS, MAX_HEATS, MAX_DEADLINE_HOURS = 12, 3, 720
COMPUTER_LEVEL = TAKEOVER_LEVEL  # the computer players that fill tables (``computers``)


@dataclass(frozen=True, slots=True)
class Standings:
    """The tournament's standings, with who is who (names) and whether it is over."""

    rows: list[Row]
    names: dict[int, str]
    finished: bool


def check_name(name: str) -> str:
    """A tournament's name: 1 to 60 characters of plain text (no Discord markup, mentions or links)."""
    name = name.strip()
    if not name or len(name) > NAME_MAX or MARKUP.search(name):
        raise UserError("tournament_name", max=NAME_MAX)
    return name


def check_options(fmt: str, options: dict[str, Any]) -> dict[str, Any]:
    """The tournament's settings from the organiser's options (defaults for the rest), or a UserError."""
    if fmt not in FORMATS:
        raise UserError("tournament_format")
    s = {**DEFAULTS, **{k: v for k, v in options.items() if v is not None}}
    if s["lang"] not in LANGUAGES:
        raise UserError("tournament_lang", langs=", ".join(LANGUAGES))
    known = {e.key for e in offered(int(s["edition"]))}
    if any(k not in known for k in parts_of(s)):  # parts of the other edition, kept from before a change
        raise UserError("tournament_parts", part=next(k for k in parts_of(s) if k not in known),
                        parts=", ".join(sorted(known)))
    check_parts(s)
    for flag in FLAGS:
        s[flag] = int(bool(s[flag]))
    high = max_table(s)
    if not MIN_PLAYERS <= int(s["size"]) <= high:
        raise UserError("tournament_size", min=MIN_PLAYERS, max=high)
    if not 1 <= int(s["rounds"]) <= MAX_ROUNDS or not 1 <= int(s["heats"]) <= MAX_HEATS:
        raise UserError("tournament_rounds", max=MAX_ROUNDS, heats=MAX_HEATS)
    if not 1 <= int(s["deadline_hours"]) <= MAX_DEADLINE_HOURS:
        raise UserError("tournament_deadline", max=MAX_DEADLINE_HOURS)
    if s["points"] not in PRESETS:
        raise UserError("tournament_points", presets=", ".join(sorted(PRESETS)))
    if not 2 <= int(s["max_players"]) <= 1000:
        raise UserError("tournament_limit")
    return s


def max_table(settings: dict[str, Any]) -> int:
    """The most players a table of these parts seats (the rules core decides, as for a lobby)."""
    for n in range(MAX_PLAYERS, MIN_PLAYERS - 1, -1):
        try:
            ruleset_of(settings, n)
        except ValueError:
            continue
        return n
    return MIN_PLAYERS


def least_players(t: Tournament) -> int:
    """The fewest entrants that start: one table (Swiss), two tables (heats)."""
    size = int(t.settings["size"])
    return size if t.format == SWISS else 2 * size - 1


def seated_result(table: TableRow, results: list[Any], aborted: bool) -> dict[str, Any]:
    """A table's result from its game: each entrant's place (by the game's winners, then VP, then rubles; equal
    keys share a place) and VP, the number of seats and all VP. An aborted game: every entrant shares the
    first place with 0 VP (the points split evenly)."""
    size = max(len(table.players), len(results))
    if aborted or not results:
        return {"size": size, "vp_total": 0, "seats": [[u, 1, 0] for u in table.players if u > 0]}
    by_seat = {r.seat: r for r in results}
    keys = [(int(r.winner), r.vp, r.rubles) for r in results]
    place = dict(zip((r.seat for r in results), places(keys), strict=True))
    seats = [[u, place[i], by_seat[i].vp] for i, u in enumerate(table.players) if i in by_seat and u > 0]
    return {"size": len(results), "vp_total": sum(r.vp for r in results), "seats": seats}


def game_of(table: TableRow) -> TGame:
    assert table.result is not None
    r = table.result
    return TGame(table.round, table.table_no, int(r["size"]), tuple(Seat(int(u), int(p), int(v)) for u, p, v in
                                                                     r["seats"]), int(r["vp_total"]))


class TournamentService:
    """Tournaments over the store; the cog calls these (user mistakes raise ``UserError``)."""

    def __init__(self, store: Store, timing: Timing) -> None:
        self.store = store
        self.timing = timing

    # --- sign-up -------------------------------------------------------------------------------------
    async def create(self, *, guild_id: int, channel_id: int, host_id: int, name: str, fmt: str,
                     options: dict[str, Any], seed: int | None = None) -> Tournament:
        settings = check_options(fmt, options)
        name = check_name(name)
        seed = seed if seed is not None else new_seed()
        try:
            return await self.store.create_tournament(guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                                                      name=name, format=fmt, settings=settings, seed=seed)
        except ChannelBusy:
            raise UserError("tournament_busy") from None

    async def open_in(self, channel_id: int) -> Tournament:
        t = await self.store.open_tournament_in_channel(channel_id)
        if t is None:
            raise UserError("tournament_none")
        return t

    async def join(self, t: Tournament, user_id: int, name: str) -> None:
        if t.status in (CANCELLED, DONE):
            raise UserError("tournament_none")
        if t.status != SIGNUP:
            raise UserError("tournament_started")
        until = t.settings.get("signup_until")
        if until is not None and self.store.clock() > float(until):
            raise UserError("tournament_signup_closed")
        entrants = await self.store.entrants(t.id)
        if any(e.user_id == user_id for e in entrants):
            raise UserError("tournament_already_in")
        if len(entrants) >= int(t.settings["max_players"]):
            raise UserError("tournament_full", max=t.settings["max_players"])
        if not await self.store.add_entrant(t.id, user_id, name[:80], limit=int(t.settings["max_players"])):
            raise UserError("tournament_started")  # started (or filled) meanwhile

    async def leave(self, t: Tournament, user_id: int) -> None:
        if t.status != SIGNUP:
            raise UserError("tournament_started_drop")
        if not await self.store.remove_entrant(t.id, user_id):
            raise UserError("tournament_not_entrant")

    async def update(self, t: Tournament, options: dict[str, Any]) -> Tournament:
        if t.status != SIGNUP:
            raise UserError("tournament_started")
        settings = check_options(t.format, {**t.settings, **options})
        if not await self.store.set_tournament_settings(t.id, settings):
            raise UserError("tournament_started")
        got = await self.store.get_tournament(t.id)
        assert got is not None
        return got

    async def drop(self, t: Tournament, user_id: int) -> None:
        """The entrant is drawn no more (from the next round on; their results stay)."""
        if t.status != RUNNING:
            raise UserError("tournament_not_running")
        entrant = next((e for e in await self.store.entrants(t.id) if e.user_id == user_id), None)
        if entrant is None:
            raise UserError("tournament_not_entrant")
        if not await self.store.drop_entrant(t.id, user_id, t.round + 1):
            raise UserError("tournament_dropped_already")

    async def extend(self, t: Tournament, hours: int) -> float:
        """The current round's deadline ``hours`` later (organiser); the new deadline."""
        if t.status != RUNNING:
            raise UserError("tournament_not_running")
        rounds = await self.store.rounds(t.id)
        current = rounds[-1]
        if current.done or current.hurried:
            raise UserError("tournament_deadline_passed")
        deadline = current.deadline + 3600.0 * hours
        if not await self.store.extend_round(t.id, current.round, deadline):
            raise UserError("tournament_deadline_passed")
        return deadline

    async def cancel(self, t: Tournament) -> None:
        if not await self.store.set_tournament_status(t.id, CANCELLED, was=(SIGNUP, RUNNING)):
            raise UserError("tournament_none")

    # --- rounds --------------------------------------------------------------------------------------
    async def start(self, t: Tournament) -> bool:
        """Close the sign-up and start round 1 (UserError with too few entrants)."""
        if t.status != SIGNUP:
            raise UserError("tournament_started")
        n = len(await self.store.entrants(t.id))
        if n < least_players(t):
            raise UserError("tournament_too_few", n=n, min=least_players(t))
        return await self.advance(t)

    async def ratings(self, guild_id: int) -> dict[int, float]:
        """The members' rating (openskill's ordinal μ − 3σ) in the server."""
        rows = await self.store.fetch_all("SELECT player, mu, sigma FROM ratings WHERE guild_id = ? AND player "
                                          "LIKE ?", (guild_id, USER + "%"))
        return {int(str(p).removeprefix(USER)): float(mu) - 3 * float(sigma) for p, mu, sigma in rows}

    async def seed_order(self, t: Tournament, entrants: list[Entrant]) -> list[int]:
        """Round 1's order: the server's rating, best first; equal ratings (new players) in a random order drawn
        from the tournament's seed."""
        rating = await self.ratings(t.guild_id)
        mu, sigma = default()
        rng = random.Random(t.seed)
        draw = {e.user_id: rng.random() for e in sorted(entrants, key=lambda e: e.user_id)}
        return sorted((e.user_id for e in entrants), key=lambda u: (-rating.get(u, mu - 3 * sigma), draw[u]))

    async def advance(self, t: Tournament) -> bool:
        """Start the next round when the current one is done (or finish the tournament); True when this call
        started a round. Safe to call from any process at any time: the store starts a round once."""
        if t.status not in (SIGNUP, RUNNING):
            return False
        rounds = await self.store.rounds(t.id)
        if rounds and not rounds[-1].done:
            return False
        entrants = await self.store.entrants(t.id)
        rnd = t.round + 1
        active = [e.user_id for e in entrants if e.dropped is None or e.dropped > rnd]
        size, low, high = int(t.settings["size"]), MIN_PLAYERS, max_table(t.settings)
        seeds = await self.seed_order(t, entrants) if rnd == 1 else None
        seed = seeds if seeds is not None else [e.user_id for e in entrants]
        tables = await self.store.tournament_tables(t.id)
        games = [game_of(x) for x in tables if x.result is not None]
        byes_had: dict[int, int] = {}
        for r in rounds:
            for u in r.byes:
                byes_had[u] = byes_had.get(u, 0) + 1
        stage, pairing = self._next(t, rnd, rounds, tables, games, seed, active, byes_had, size, low, high)
        if pairing is None:
            await self.store.set_tournament_status(t.id, DONE, was=(RUNNING,))
            return False
        rng = random.Random(f"{t.seed}:{rnd}")
        seated = []
        for table in pairing.tables:  # the seat order: random, recorded
            order = list(table)
            rng.shuffle(order)
            seated.append(order)
        deadline = self.store.clock() + 3600.0 * float(t.settings["deadline_hours"])
        return await self.store.start_round(t.id, after=t.round, stage=stage, byes=pairing.byes, tables=seated,
                                            deadline=deadline, seeds=seeds)

    def _next(self, t: Tournament, rnd: int, rounds: list[Any], tables: list[TableRow], games: list[TGame],
              seed: list[int], active: list[int], byes_had: dict[int, int], size: int, low: int, high: int) -> Any:
        """(stage, pairing) of round ``rnd``, or (None, None) when the tournament is over."""
        allowed(size, low, high)
        deal_seed, deal_pair = dealers(int(t.settings.get("computers", 0)), size)
        if t.format == SWISS:
            if rnd > int(t.settings["rounds"]) or len(active) < 2:
                return None, None
            if rnd == 1:
                return SWISS, deal_seed([u for u in seed if u in set(active)], size, byes_had, low, high)
            rows = standings(seed, games, byes_had, str(t.settings["points"]), size)
            order = [r.player for r in rows if r.player in set(active)]
            return SWISS, deal_pair(order, met_pairs(games), size, byes_had, low, high)
        heats = int(t.settings["heats"])
        if rnd == 1:
            return "heat", deal_seed([u for u in seed if u in set(active)], size, byes_had, low, high)
        if rnd <= heats:  # a further heat: a fresh draw, avoiding the opponents met
            order = [u for u in seed if u in set(active)]
            random.Random(f"{t.seed}:order:{rnd}").shuffle(order)
            return "heat", deal_pair(order, met_pairs(games), size, byes_had, low, high)
        last = rounds[-1].stage
        if last == "final":
            return None, None
        stage_games = [g for g in games if g.round == rounds[-1].round]
        heat_games = [g for g in games if g.round <= heats]
        if last == "heat":
            heat_tables = sum(1 for x in tables if x.round == 1)
            if next_stage(heat_tables, size) == "semi":
                up = advancing(seed, heat_games, semi_spots(size, len(active)), active)
                sizes, _ = table_sizes(len(up), size, low, high)
                return "semi", deal_seed(up, size, {}, low, high) if sizes else None
            up = advancing(seed, heat_games, size, active)
        else:  # after the semi-finals: their winners (a shared first place: the better VP share)
            semi_order = [u for x in tables if x.round == rounds[-1].round for u in x.players if u > 0]
            up = advancing(semi_order, stage_games, len(stage_games), semi_order)
        return "final", Pairing((tuple(up),), ())

    # --- the tables' games ---------------------------------------------------------------------------
    async def table_game(self, t: Tournament, table: TableRow, names: dict[int, str]) -> int | None:
        """Start the table's game in its thread (seats in the recorded order); None when it has one already."""
        settings = t.settings
        n = len(table.players)
        ruleset = ruleset_of(settings, n)
        seed = random.Random(f"{t.seed}:{table.round}:{table.table_no}").randrange(1, 2**62)
        lang = str(settings.get("lang", "en"))
        bot = t_("bot.computer_name", lang, level=t_(f"bot.level_{COMPUTER_LEVEL}", lang))
        seat_names = [names.get(u, str(u)) if u > 0 else f"{bot} {-u}" for u in table.players]
        st = new_game(ruleset, seat_names, seed=seed)
        game_settings = {k: int(settings.get(k, DEFAULTS[k])) for k in GAME_SETTINGS}
        timing = Timing(reminder=game_settings["reminder"], interval=self.timing.interval,
                        autopass=game_settings["autopass"])
        human = table.players[st.decider] > 0
        timers = plan(st.decider, True, timing, self.store.clock()) if human else []
        seats = [GameSeat(i, u, seat_names[i]) if u > 0 else GameSeat(i, None, seat_names[i], COMPUTER_LEVEL)
                 for i, u in enumerate(table.players)]
        order = ", ".join(f"{i + 1}. " + (f"<@{u}>" if u > 0 else seat_names[i]) for i, u in enumerate(table.players))
        return await self.store.create_table_game(
            table, guild_id=t.guild_id, parent_id=t.channel_id, seats=seats, ruleset=ruleset.to_json(), seed=seed,
            lang=lang, state=st.to_json(), hands=hands_of(st), timers=timers,
            settings=game_settings, notices=[("bot.started", {"order": order})])

    async def record(self, table: TableRow, status: str) -> bool:
        """The ended game's result for the table (once); True when this call recorded it."""
        assert table.game_id is not None
        results = await self.store.game_results(table.game_id)
        return await self.store.set_table_result(table, seated_result(table, results, status != "finished"))

    async def standings(self, t: Tournament) -> Standings:
        """The standings, recomputed from the stored results (the final order after a final)."""
        entrants = await self.store.entrants(t.id)
        seed = [e.user_id for e in entrants]
        names = {e.user_id: e.name for e in entrants}
        dropped = {e.user_id for e in entrants if e.dropped is not None}
        rounds = await self.store.rounds(t.id)
        byes: dict[int, int] = {}
        for r in rounds:
            for u in r.byes:
                byes[u] = byes.get(u, 0) + 1
        tables = await self.store.tournament_tables(t.id)
        games = [game_of(x) for x in tables if x.result is not None]
        size = int(t.settings["size"])
        rows = standings(seed, games, byes, str(t.settings["points"]), size, dropped)
        if t.format == HEATS and any(r.stage == "final" and r.done for r in rounds):
            stage = {r.round: r.stage for r in rounds}
            order = final_order(seed, [g for g in games if stage[g.round] == "heat"],
                                [g for g in games if stage[g.round] == "semi"],
                                [g for g in games if stage[g.round] == "final"])
            by = {r.player: r for r in rows}
            rows = [Row(i + 1, p, by[p].points, by[p].games, by[p].byes, by[p].buchholz, by[p].vp_share,
                        by[p].dropped) for i, p in enumerate(order)]
        return Standings(rows, names, t.status == DONE)
