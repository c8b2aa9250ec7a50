"""Tournaments, pure: table sizes and byes (``tables``), points by place (``points``), Swiss pairing
(``swiss``), standings and their tie-breaks (``standings``), heats to a final (``heats``).

No Discord, database, asyncio or rules core here (``tests/tournament/test_arch.py``): the bot stores a
tournament's entrants, rounds and results and asks these functions what the next round is and how the
players stand. Players are member ids (``int``); every choice is deterministic given its inputs and a seed.
The formats and rules in words: docs/tournaments.md.
"""

from __future__ import annotations

from .points import PRESETS, Seat, places, table_points
from .standings import Game, Row, standings
from .swiss import Pairing, pair_round, seed_round
from .tables import MAX_TABLE, MIN_TABLE, TableError, table_sizes

__all__ = [
    "MAX_TABLE",
    "MIN_TABLE",
    "PRESETS",
    "Game",
    "Pairing",
    "Row",
    "Seat",
    "TableError",
    "pair_round",
    "places",
    "seed_round",
    "standings",
    "table_points",
    "table_sizes",
]
