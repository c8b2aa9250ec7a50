"""Ratings per member (and per computer level) per server, from the stored results (docs/ratings.md).

The model is ``openskill``'s Plackett–Luce with its defaults (μ 25, σ 25/3, β 25/6, τ 25/300): each game is one
ranking of its counted seats, winners first (a shared win is a tie), then by VP and rubles.

Which seats count (``player_of``): a finished game's seat counts for the member who held it at the end when they
made most of its moves (more than half); for a computer player's level when a computer held it from the start
(not a take-over) and made most of its moves; else for nobody. Moves are the seat's actions by a person, by the
time-out and by a computer player; the passes the bot makes by itself (a forced pass, a pass mode's pass) are
counted for no one. A game is rated when at least two of its seats count (and it is not an unrated tournament's:
``rated``).

Deterministic and rebuildable: a game is rated in the transaction that finishes it (``rate_finished``), under one
lock, and numbered per server (``seq``); ``rebuild_in`` derives every rating again from the stored results,
seats and actions in that order (games never rated yet, e.g. finished before this feature, by the time of their
last action, then by number), and the floats it stores are the ones the live path stored.

Shown as ``shown``: openskill's ordinal μ − 3σ scaled, 1000 + 40 · (μ − 3σ) (a new player shows 1000).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

if TYPE_CHECKING:
    from .store.backend import Tx

MODEL = PlackettLuce()
SCALE, OFFSET = 40.0, 1000.0  # shown = OFFSET + SCALE * (mu - 3 sigma)
RATING_LOCK = 0x5350_0002  # one rating transaction at a time (PostgreSQL: an advisory lock; SQLite: its write lock)
USER, COMPUTER = "user:", "computer:"
BATCH = 500  # games read per query (the databases' limits on parameters)


def shown(mu: float, sigma: float) -> int:
    """The rating people read: openskill's ordinal (μ − 3σ) scaled to 1000 + 40 · ordinal, rounded."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=3.0, alpha=SCALE, target=OFFSET))


def user_of(player: str) -> int | None:
    """The member of a player key (``user:<id>``), None for a computer level."""
    return int(player.removeprefix(USER)) if player.startswith(USER) else None


def computer_of(player: str) -> str | None:
    """The computer level of a player key (``computer:<level>``), None for a member."""
    return player.removeprefix(COMPUTER) if player.startswith(COMPUTER) else None


def default() -> tuple[float, float]:
    """(μ, σ) of someone not rated yet."""
    r = MODEL.rating()
    return r.mu, r.sigma


# --- the counting rule ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SeatMoves:
    """A seat's counted moves: by the member holding it at the end, by other people, the time-out, a computer."""

    own: int = 0
    others: int = 0
    timeout: int = 0
    computer: int = 0

    @property
    def total(self) -> int:
        return self.own + self.others + self.timeout + self.computer


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A finished game's seat as the ratings see it."""

    seat: int
    user_id: int | None  # who held it at the end (None: a computer, or empty)
    computer: str | None  # the computer level holding it at the end
    takeover: bool  # a computer took the seat over during the game
    vp: int
    rubles: int
    winner: bool
    moves: SeatMoves = field(default_factory=SeatMoves)


def player_of(s: SeatResult) -> str | None:
    """The player the seat counts for (``user:<id>``, ``computer:<level>``) or None (see the module docstring)."""
    total = s.moves.total
    if s.user_id is not None:
        return f"{USER}{s.user_id}" if 2 * s.moves.own > total else None
    if s.computer is not None and not s.takeover and 2 * s.moves.computer > total:
        return f"{COMPUTER}{s.computer}"
    return None


def ranks_of(seats: Sequence[SeatResult]) -> list[int]:
    """1 + how many seats did better (winners first, then VP, then rubles); equal seats share a rank."""
    keys = [(s.winner, s.vp, s.rubles) for s in seats]
    return [1 + sum(other > k for other in keys) for k in keys]


# --- rating one game -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Change:
    """One counted seat of a rated game: its player's rating before and after."""

    seat: int
    player: str
    before: tuple[float, float]
    after: tuple[float, float]

    @property
    def user_id(self) -> int | None:
        return user_of(self.player)

    @property
    def computer(self) -> str | None:
        return computer_of(self.player)


def rate_game(priors: Mapping[str, tuple[float, float]], seats: Sequence[SeatResult]) -> list[Change]:
    """The changes of one game (none when fewer than two seats count), from the players' ratings before it
    (``priors``; missing: not rated yet). Each counted seat is a team of one in ``MODEL.rate``; a player with
    several counted seats (two computers of one level) ends with the mean of their seats' new ratings."""
    counted = [(s, p) for s in seats if (p := player_of(s)) is not None]
    if len(counted) < 2:
        return []
    before = {p: priors.get(p) or default() for _, p in counted}
    teams = [[MODEL.rating(mu=before[p][0], sigma=before[p][1])] for _, p in counted]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks_of([s for s, _ in counted])])
    new: dict[str, list[tuple[float, float]]] = {}
    for (_, p), [r] in zip(counted, rated, strict=True):
        new.setdefault(p, []).append((r.mu, r.sigma))
    after = {p: (sum(m for m, _ in v) / len(v), sum(sg for _, sg in v) / len(v)) if len(v) > 1 else v[0]
             for p, v in new.items()}
    return [Change(s.seat, p, before[p], after[p]) for s, p in counted]


@dataclass(slots=True)
class Rating:
    """A player's current rating in one server."""

    player: str
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def apply_changes(table: dict[str, Rating], changes: Sequence[Change], seats: Sequence[SeatResult]) -> None:
    """Carry one game's changes into a server's ratings: the new (μ, σ), one more game, and one more win when
    one of the player's seats won."""
    won = {s.seat for s in seats if s.winner}
    for player in dict.fromkeys(c.player for c in changes):
        mine = [c for c in changes if c.player == player]
        r = table.setdefault(player, Rating(player, *mine[0].before))
        r.mu, r.sigma = mine[0].after
        r.games += 1
        r.wins += any(c.seat in won for c in mine)


# --- reading the stored results ------------------------------------------------------------------
async def seat_results(tx: Tx, game_ids: Sequence[int], *, standing: bool = True) -> dict[int, list[SeatResult]]:
    """The seats of finished games with their moves (``SeatMoves``) as stored: only the moves that stand (not
    taken back, ``bot.takeback``); ``standing=False`` for a schema from before take-backs (migration 6)."""
    out: dict[int, list[SeatResult]] = {}
    for start in range(0, len(game_ids), BATCH):
        out.update(await _seat_results(tx, game_ids[start:start + BATCH], standing))
    return out


async def _seat_results(tx: Tx, game_ids: Sequence[int], standing: bool) -> dict[int, list[SeatResult]]:
    out: dict[int, list[SeatResult]] = {g: [] for g in game_ids}
    marks = ", ".join("?" for _ in game_ids)
    stands = " AND taken_back IS NULL AND COALESCE(auto, '') <> 'takeback'" if standing else ""
    results, moves = await tx.fetch_many([
        (f"SELECT r.game_id, r.seat, r.user_id, r.computer, COALESCE(s.takeover, 0), r.vp, r.rubles, r.winner "
         f"FROM results r LEFT JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat "
         f"WHERE r.game_id IN ({marks}) ORDER BY r.game_id, r.seat", list(game_ids)),
        (f"SELECT game_id, seat, user_id, auto, COUNT(*) FROM actions WHERE game_id IN ({marks}) "
         f"AND (user_id IS NOT NULL OR auto IN ('timeout', 'computer')){stands} GROUP BY game_id, seat, user_id, auto",
         list(game_ids))])
    by_seat: dict[tuple[int, int], list[tuple[int | None, str | None, int]]] = {}
    for game_id, seat, user_id, auto, n in moves:
        by_seat.setdefault((game_id, seat), []).append((user_id, auto, int(n)))
    for game_id, seat, user_id, computer, takeover, vp, rubles, winner in results:
        own = others = timeout = comp = 0
        for uid, auto, n in by_seat.get((game_id, seat), []):
            if uid is not None:
                if uid == user_id:
                    own += n
                else:
                    others += n
            elif auto == "timeout":
                timeout += n
            else:
                comp += n
        out[game_id].append(SeatResult(seat, user_id, computer, bool(takeover), int(vp), int(rubles), bool(winner),
                                       SeatMoves(own, others, timeout, comp)))
    return out


async def _write(tx: Tx, guild: int, game_id: int, seq: int, changes: Sequence[Change]) -> None:
    await tx.executemany(
        "INSERT INTO rating_changes (game_id, seat, guild_id, seq, player, user_id, computer, mu_before, "
        "sigma_before, mu, sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(game_id, c.seat, guild, seq, c.player, c.user_id, c.computer, *c.before, *c.after) for c in changes])


async def _save(tx: Tx, guild: int, ratings: Iterable[Rating]) -> None:
    rows = [(guild, r.player, user_of(r.player), computer_of(r.player), r.mu, r.sigma, r.games, r.wins)
            for r in ratings]
    await tx.executemany(
        "INSERT INTO ratings (guild_id, player, user_id, computer, mu, sigma, games, wins) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, player) DO UPDATE SET mu = excluded.mu, "
        "sigma = excluded.sigma, games = excluded.games, wins = excluded.wins", rows)


def counts(settings: str | None) -> bool:
    """Whether a finished game counts in the ratings: all do but an unrated tournament's (``rated`` 0 in the
    game's settings, ``bot.tournaments``)."""
    return not settings or json.loads(settings).get("rated", 1) != 0


# --- live: the game that just finished -----------------------------------------------------------
async def rate_finished(tx: Tx, game_id: int) -> list[Change]:
    """Rate a game in the transaction that finishes it (after its results are written): its changes, stored
    with the next number of its server, and the players' new ratings."""
    await tx.lock(RATING_LOCK)
    row = await tx.fetch("SELECT COALESCE(guild_id, 0), settings FROM games WHERE id = ?", (game_id,))
    guild = int(row[0][0])
    if not counts(row[0][1]):
        return []
    seats = (await seat_results(tx, [game_id]))[game_id]
    counted = [p for s in seats if (p := player_of(s)) is not None]
    if len(counted) < 2:
        return []
    players = sorted(set(counted))
    marks = ", ".join("?" for _ in players)
    stored, last = await tx.fetch_many([
        (f"SELECT player, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND player IN ({marks})",
         [guild, *players]),
        ("SELECT COALESCE(MAX(seq), 0) FROM rating_changes WHERE guild_id = ?", (guild,))])
    table = {r[0]: Rating(r[0], float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in stored}
    changes = rate_game({p: (r.mu, r.sigma) for p, r in table.items()}, seats)
    if not changes:
        return []
    await _write(tx, guild, game_id, int(last[0][0]) + 1, changes)
    apply_changes(table, changes, seats)
    await _save(tx, guild, table.values())
    return changes


# --- rebuild: everything again from the stored results ---------------------------------------------
@dataclass(slots=True)
class Rebuilt:
    """What a rebuild did: games rated, players rated, and how many stored ratings it found different."""

    games: int
    players: int
    differed: int


async def rebuild_in(tx: Tx, *, standing: bool = True) -> Rebuilt:
    """Derive every server's ratings again, in the stored order (see the module docstring), and store them
    (``standing``: see ``seat_results``)."""
    await tx.lock(RATING_LOCK)
    finished, seqs, old = await tx.fetch_many([
        ("SELECT g.id, COALESCE(g.guild_id, 0), (SELECT MAX(a.created_at) FROM actions a WHERE a.game_id = g.id), "
         "g.settings FROM games g WHERE g.status = 'finished'", ()),
        ("SELECT game_id, MIN(seq) FROM rating_changes GROUP BY game_id", ()),
        ("SELECT guild_id, player, mu, sigma, games, wins FROM ratings", ())])
    seq_of = {int(g): int(s) for g, s in seqs}
    big = float("inf")
    counted = [r[:3] for r in finished if counts(r[3])]
    order = sorted(counted, key=lambda r: (int(r[1]), seq_of.get(int(r[0]), big), float(r[2] or 0.0), int(r[0])))
    results = await seat_results(tx, [int(r[0]) for r in order], standing=standing)
    await tx.execute("DELETE FROM rating_changes")
    await tx.execute("DELETE FROM ratings")
    tables: dict[int, dict[str, Rating]] = {}
    next_seq: dict[int, int] = {}
    rated = 0
    for game_id, guild, _ in order:
        table = tables.setdefault(int(guild), {})
        seats = results[int(game_id)]
        changes = rate_game({p: (r.mu, r.sigma) for p, r in table.items()}, seats)
        if not changes:
            continue
        seq = next_seq[int(guild)] = next_seq.get(int(guild), 0) + 1
        await _write(tx, int(guild), int(game_id), seq, changes)
        apply_changes(table, changes, seats)
        rated += 1
    for guild, table in tables.items():
        await _save(tx, guild, table.values())
    before = {(int(g), p): (float(m), float(s), int(n), int(w)) for g, p, m, s, n, w in old}
    after = {(g, p): (r.mu, r.sigma, r.games, r.wins) for g, table in tables.items() for p, r in table.items()}
    differed = sum(1 for k in set(before) | set(after) if before.get(k) != after.get(k))
    return Rebuilt(rated, len(after), differed)
