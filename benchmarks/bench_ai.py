"""Speed of the computer players' search: iterations per second of CPU time on seeded positions,
for the strong search and the plain one (random playouts). Not a test; run it from the repository
root::

    .venv/bin/python benchmarks/bench_ai.py [--positions 12] [--iterations 200] [--compiled]

``--compiled`` runs the mypyc build of the rules and the players' search (``players/compile.py``).
Figures are CPU time of this process, best of ``--repeat`` runs; on a shared machine they still swing
by a third.
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
if "--compiled" in sys.argv[1:]:  # before rules is imported: take it from the mypyc build
    from players.compile import PACKAGES, build
    from rules.compile import import_from

    import_from(build(), PACKAGES)

from players.ai import SEARCHES  # noqa: E402
from players.fastcore import core_name  # noqa: E402
from players.search import search  # noqa: E402
from rules import GameState, Ruleset, apply, legal_moves, new_game  # noqa: E402


def positions(count: int, seed: int) -> list[GameState]:
    """Positions with a real choice, from games of seeded random moves (2-4 players, both editions)."""
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        players = 2 + len(out) % 3
        ruleset = Ruleset(edition=1 + len(out) % 2, players=players)
        st = new_game(ruleset, [str(i) for i in range(players)], rng.randrange(10**6))
        for _ in range(rng.randrange(150)):
            if st.finished:
                break
            apply(st, rng.choice(legal_moves(st)).action)
        if not st.finished and len(legal_moves(st)) >= 3:
            out.append(st)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compiled", action="store_true", help="use the mypyc build of the rules core")
    args = ap.parse_args(argv)
    sts = positions(args.positions, args.seed)
    print(
        f"Python {sys.version.split()[0]}, rules core {core_name()}, {args.positions} positions, "
        f"{args.iterations} iterations each"
    )
    for level in ("strong", "mcts-random"):
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.process_time()
            for i, st in enumerate(sts):
                search(st, st.decider, random.Random(i), SEARCHES[level], iterations=args.iterations)
            best = min(best, time.process_time() - t0)
        rate = args.positions * args.iterations / best
        print(f"{level:<12} {rate:>8.0f} iterations/s  ({1e3 / rate:.2f} ms each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
