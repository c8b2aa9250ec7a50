"""The normal player of this checkout against the normal player of another (e.g. main before a change
to the evaluation), two players, seat-rotated seeded games in each ruleset of the expansions and
modules (``RULESETS``); prints the new one's win rate with its 95 % Wilson interval and both mean VP.
Not a test; from the repository root::

    .venv/bin/python benchmarks/versus_old.py --old ../main [--games 80]

``--old`` names a checkout whose ``players`` package is copied to a temporary directory as
``players_old`` (its relative imports keep working); both use this checkout's rules core. A crash of
the old evaluation counts as a loss of the old one and is reported.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from players.arena import wilson  # noqa: E402
from players.eval import Outlook  # noqa: E402
from rules import GameState, Ruleset, apply, legal_moves, new_game  # noqa: E402

RULESETS: dict[str, dict[str, Any]] = {
    "ed1 society": dict(edition=1, expansions=("new_society",)),
    "ed1 module 1": dict(edition=1, modules=(1,)),
    "ed2 module 2": dict(edition=2, modules=(2,)),
    "ed2 market + 1,2": dict(edition=2, expansions=("market",), modules=(1, 2)),
    "ed2 market + 3-6": dict(edition=2, expansions=("market",), modules=(3, 4, 5, 6)),
}


def greedy(outlook: Any, st: GameState, rng: random.Random) -> Any:
    out = outlook(st)
    moves = legal_moves(st)
    return moves[max((out.score(m), rng.random(), i) for i, m in enumerate(moves))[2]].action


def main(argv: list[str] | None = None) -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--old", required=True, help="a checkout whose players package is the old one")
    ap.add_argument("--games", type=int, default=80)
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp())
    shutil.copytree(Path(args.old) / "players", tmp / "players_old")
    sys.path.insert(0, str(tmp))
    from players_old.eval import Outlook as Old

    for name, kw in RULESETS.items():
        wins = 0.0
        vp_new = vp_old = 0
        crashed = 0
        for g in range(args.games):
            st = new_game(Ruleset(players=2, **kw), ["a", "b"], g // 2)
            new_seat = g % 2
            rngs = [random.Random(f"{g}/{s}") for s in range(2)]
            try:
                while not st.finished:
                    s = st.decider
                    apply(st, greedy(Outlook if s == new_seat else Old, st, rngs[s]))
            except KeyError:
                crashed += 1
                wins += 1.0
                continue
            if new_seat in st.winners:
                wins += 1 / len(st.winners)
            vp_new += st.vp[new_seat]
            vp_old += st.vp[1 - new_seat]
        lo, hi = wilson(wins, args.games)
        done = max(1, args.games - crashed)
        print(
            f"{name:<18} new vs old: {wins / args.games:.1%} ({lo:.1%} - {hi:.1%}), "
            f"mean VP {vp_new / done:.1f} vs {vp_old / done:.1f}, old crashed {crashed}",
            flush=True,
        )
    shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
