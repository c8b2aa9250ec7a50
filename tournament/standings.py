"""Standings: points, games, byes and the tie-breaks, recomputed from the stored results each time.

A player's points are the sum of their tables' points (``points.table_points``, ties at a table split) and
their byes' points. Players level on points are ordered by

1. **Buchholz**: for each game, the mean of the current points of the opponents at that table (entrants
   only; a computer seat has none), summed over the player's games, so a table of 5 weighs as much as a
   table of 3;
2. **VP share**: the player's VP over all their games divided by all the VP scored at their tables;
3. **head to head**: among the players still level, each game two of them shared counts +1 for the one
   placed ahead and −1 for the other; the higher sum first;

and then by the seed (the order of the ``players`` argument: the rating at the start). Dropped players
keep their results and their place in the standings, with a mark.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from fractions import Fraction

from .points import Seat, bye_points, table_points


@dataclass(frozen=True, slots=True)
class Game:
    """A finished table: its round and number, its seats (computer seats count for the places) and its results.

    ``seats`` are the entrants' results; ``size`` the number of seats at the table; ``vp_total`` the VP of
    every seat, computer seats included.
    """

    round: int
    table: int
    size: int
    seats: tuple[Seat, ...]
    vp_total: int

    def points(self, preset: str) -> dict[int, Fraction]:
        """Each entrant's points at this table."""
        shares = table_points(preset, self.size, [s.place for s in self.seats])
        return {s.player: pts for s, pts in zip(self.seats, shares, strict=True)}


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the standings."""

    rank: int
    player: int
    points: Fraction
    games: int
    byes: int
    buchholz: Fraction
    vp_share: Fraction
    dropped: bool


def standings(
    players: Sequence[int],
    games: Sequence[Game],
    byes: Mapping[int, int],
    preset: str,
    size: int,
    dropped: Set[int] = frozenset(),
) -> list[Row]:
    """The standings of ``players`` (in seed order) from the finished ``games`` and each player's byes."""
    points: dict[int, Fraction] = {p: bye_points(preset, size) * byes.get(p, 0) for p in players}
    played: dict[int, int] = defaultdict(int)
    vp: dict[int, int] = defaultdict(int)
    vp_all: dict[int, int] = defaultdict(int)
    per_game = [(g, g.points(preset)) for g in games]
    for g, pts in per_game:
        for s in g.seats:
            points[s.player] = points.get(s.player, Fraction(0)) + pts[s.player]
            played[s.player] += 1
            vp[s.player] += s.vp
            vp_all[s.player] += g.vp_total
    buchholz: dict[int, Fraction] = defaultdict(Fraction)
    for g, _ in per_game:
        for s in g.seats:
            others = [points.get(o.player, Fraction(0)) for o in g.seats if o.player != s.player]
            if others:
                buchholz[s.player] += sum(others, Fraction(0)) / len(others)
    share = {p: Fraction(vp[p], vp_all[p]) if vp_all[p] else Fraction(0) for p in players}
    seed = {p: i for i, p in enumerate(players)}

    def key(p: int) -> tuple[Fraction, Fraction, Fraction]:
        return (-points.get(p, Fraction(0)), -buchholz[p], -share[p])

    level: dict[tuple[Fraction, Fraction, Fraction], list[int]] = defaultdict(list)
    for p in players:
        level[key(p)].append(p)
    h2h: dict[int, int] = defaultdict(int)
    for group in level.values():
        if len(group) > 1:
            _head_to_head(set(group), games, h2h)
    order = sorted(players, key=lambda p: (key(p), -h2h[p], seed[p]))
    return [
        Row(i + 1, p, points.get(p, Fraction(0)), played[p], byes.get(p, 0), buchholz[p], share[p], p in dropped)
        for i, p in enumerate(order)
    ]


def _head_to_head(group: set[int], games: Sequence[Game], out: dict[int, int]) -> None:
    for g in games:
        at = [s for s in g.seats if s.player in group]
        for a in at:
            for b in at:
                if a.place < b.place:
                    out[a.player] += 1
                    out[b.player] -= 1


def met_pairs(games: Sequence[Game]) -> dict[int, set[int]]:
    """Who met whom at a table (the Swiss pairing avoids these)."""
    met: dict[int, set[int]] = defaultdict(set)
    for g in games:
        for a in g.seats:
            met[a.player].update(b.player for b in g.seats if b.player != a.player)
    return dict(met)
