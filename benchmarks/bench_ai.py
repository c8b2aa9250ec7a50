"""Speed of the computer players' search: iterations per second of CPU time on seeded positions,
for the strong search, the same with the max-n tree (``strong-maxn``, without the opponent model), the plain
MCTS baseline (``mcts``) and the strong search with random playouts.
Not a test; run it from the repository root::

    .venv/bin/python benchmarks/bench_ai.py [--positions 12] [--iterations 200] [--compiled] [--market]

``--market``: positions from games with the Market (2 to 5 players) instead of base games (2 to 4).
``--parts``: positions from games with the expansions and modules (the arena's rulesets: 1st edition
In bester Gesellschaft with and without Module 1, 2nd edition Module 2, the Market with Modules 1 and 2,
the Market with Modules 3 to 6; 2 to 4 players).

``--compiled`` runs the mypyc build of the rules and the players' search (``players/compile.py``).
``--level strong`` measures one level only (repeatable), e.g. its instructions an iteration under cachegrind
(stable on a shared machine): a run of ``--iterations 120 --repeat 1`` less one of ``--iterations 20``.
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

from players import mcts  # noqa: E402
from players.ai import SEARCHES  # noqa: E402
from players.fastcore import core_name  # noqa: E402
from players.search import search  # noqa: E402
from rules import GameState, Ruleset, apply, legal_moves, new_game  # noqa: E402

LEVELS = ("strong", "strong-maxn", "mcts", "mcts-random")

PARTS = (
    dict(edition=1, expansions=("new_society",)),
    dict(edition=1, expansions=("new_society",), modules=(1,)),
    dict(edition=2, modules=(2,)),
    dict(edition=2, expansions=("market",), modules=(1, 2)),
    dict(edition=2, expansions=("market",), modules=(3, 4, 5, 6)),
)


def positions(count: int, seed: int, market: bool = False, parts: bool = False) -> list[GameState]:
    """Positions with a real choice, from games of seeded random moves (2-4 players, both editions;
    with the Market: 2-5 players, 2nd edition)."""
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count:
        if parts:
            players = 2 + len(out) % 3
            ruleset = Ruleset(players=players, **PARTS[len(out) % len(PARTS)])  # type: ignore[arg-type]
        elif market:
            players = 2 + len(out) % 4
            ruleset = Ruleset(edition=2, players=players, expansions=("market",))
        else:
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
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--compiled", action="store_true", help="use the mypyc build of the rules core")
    ap.add_argument("--market", action="store_true", help="positions from games with the Market, 2-5 players")
    ap.add_argument("--parts", action="store_true", help="positions from games with the expansions and modules")
    ap.add_argument("--level", action="append", choices=LEVELS,
                    help="measure only this level (repeatable; default: all), e.g. under cachegrind")
    args = ap.parse_args(argv)
    sts = positions(args.positions, args.seed, args.market, args.parts)
    print(
        f"Python {sys.version.split()[0]}, rules core {core_name()}, {args.positions} positions"
        f"{' with the Market' if args.market else ''}{' with the expansions and modules' if args.parts else ''}, "
        f"{args.iterations} iterations each"
    )
    for level in args.level or LEVELS:
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.process_time()
            for i, st in enumerate(sts):
                if level == "mcts":
                    mcts.search(st, st.decider, random.Random(i), iterations=args.iterations)
                else:
                    search(st, st.decider, random.Random(i), SEARCHES[level], iterations=args.iterations)
            best = min(best, time.process_time() - t0)
        rate = args.positions * args.iterations / best
        print(f"{level:<12} {rate:>8.0f} iterations/s  ({1e3 / rate:.2f} ms each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
