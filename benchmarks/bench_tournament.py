"""Speed of the Swiss pairing: a round of N players (default 1,000) at tables of 4, after R rounds played
with random results, the seconds ``tournament.pair_round`` takes for each later round (and round 1's
``seed_round``). Not a test; run it from the repository root::

    .venv/bin/python benchmarks/bench_tournament.py [--players 1000] [--rounds 7] [--size 4] [--seed 1]

The target: each round under a second. Figures are CPU time of this process.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tournament import Game, Seat, pair_round, seed_round, standings  # noqa: E402
from tournament.standings import met_pairs  # noqa: E402


def play(tables: tuple[tuple[int, ...], ...], rnd: int, rng: random.Random) -> list[Game]:
    """Random results: a random order of places (no ties) and VP from 20 to 90."""
    games = []
    for t, table in enumerate(tables):
        vps = sorted((rng.randint(20, 90) for _ in table), reverse=True)
        order = list(table)
        rng.shuffle(order)
        seats = tuple(Seat(p, i + 1, vps[i]) for i, p in enumerate(order))
        games.append(Game(rnd, t + 1, len(table), seats, sum(vps)))
    return games


def main() -> None:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--size", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    players = list(range(1, args.players + 1))
    games: list[Game] = []
    byes: dict[int, int] = {}
    worst = 0.0
    for rnd in range(1, args.rounds + 1):
        t0 = time.process_time()
        if rnd == 1:
            pairing = seed_round(players, args.size, byes)
        else:
            order = [r.player for r in standings(players, games, byes, "bga", args.size)]
            t0 = time.process_time()  # the pairing alone; the standings are timed below
            pairing = pair_round(order, met_pairs(games), args.size, byes)
        took = time.process_time() - t0
        worst = max(worst, took)
        repeats = pairing.repeats(met_pairs(games))
        for p in pairing.byes:
            byes[p] = byes.get(p, 0) + 1
        games += play(pairing.tables, rnd, rng)
        tables, sat_out = len(pairing.tables), len(pairing.byes)
        print(f"round {rnd}: {tables} tables, {sat_out} byes, {repeats} repeat pairs, {took:.3f} s")
    t0 = time.process_time()
    standings(players, games, byes, "bga", args.size)
    print(f"standings of {args.players} players after {args.rounds} rounds: {time.process_time() - t0:.3f} s")
    print(f"slowest pairing: {worst:.3f} s (target < 1 s)")


if __name__ == "__main__":
    main()
