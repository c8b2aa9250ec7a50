"""Heats and a final, as the World Boardgaming Championships play them.

Every player plays the heats (one round, or several where the organiser allows more; a player's best heat
counts). A heat result is ranked by the place at the table (winners first), then by the **VP share** (the
player's VP over all the VP at that table: a close second at a high-scoring table ranks above a distant
one), then by the order they came in with (the seed in the heats, the advancing order after). The table
winners advance, and the best runners-up (then third places, …) by that measure fill the remaining seats:

- when the heats had no more tables than a table has seats (``size``), the advancing players form the
  final table directly (``size`` players);
- otherwise ``size`` semi-final tables of ``size`` (fewer when the field is smaller) are dealt in a snake
  by the advancing order, and their winners play the final.

The final standings: the final table by its places (then VP share), then the semi-finalists who did not
reach it by their semi-final result, then everyone else by their best heat.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .standings import Game

Result = tuple[int, Fraction]  # (place, −VP share): smaller is better


def result_of(game: Game, player: int) -> Result:
    """A player's result at a table: their place, then their share of the table's VP (negated: lower is better)."""
    seat = next(s for s in game.seats if s.player == player)
    share = Fraction(seat.vp, game.vp_total) if game.vp_total else Fraction(0)
    return seat.place, -share


def best_results(games: Sequence[Game]) -> dict[int, Result]:
    """Each player's best result over the games (several heats: the best one counts)."""
    best: dict[int, Result] = {}
    for g in games:
        for s in g.seats:
            r = result_of(g, s.player)
            if s.player not in best or r < best[s.player]:
                best[s.player] = r
    return best


def ranked(seed: Sequence[int], games: Sequence[Game], among: Sequence[int] | None = None) -> list[int]:
    """The players of ``among`` (default: the seed) who played, by their best result, then their order in ``among``."""
    best = best_results(games)
    who = [p for p in (among if among is not None else seed) if p in best]
    pos = {p: i for i, p in enumerate(who)}
    return sorted(who, key=lambda p: (best[p], pos[p]))


def next_stage(heat_tables: int, size: int) -> str:
    """After the heats: ``"final"`` when the heat winners fit one table, else ``"semi"``."""
    return "final" if heat_tables <= size else "semi"


def semi_spots(size: int, players: int) -> int:
    """How many players the semi-finals seat: ``size`` tables of ``size``, at most the field."""
    return min(size * size, players)


def advancing(seed: Sequence[int], games: Sequence[Game], spots: int, active: Sequence[int]) -> list[int]:
    """The ``spots`` active players who advance from these games, best first."""
    return ranked(seed, games, among=active)[:spots]


def final_order(
    seed: Sequence[int], heats: Sequence[Game], semis: Sequence[Game], final: Sequence[Game]
) -> list[int]:
    """The tournament's final standings: the final table, the other semi-finalists, the rest by their heats."""
    top = ranked(seed, final)
    done = set(top)
    middle = [p for p in ranked(seed, semis) if p not in done]
    done.update(middle)
    rest = [p for p in ranked(seed, heats) if p not in done]
    done.update(rest)
    return top + middle + rest + [p for p in seed if p not in done]
