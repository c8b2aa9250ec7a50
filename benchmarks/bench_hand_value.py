"""What a card waiting in the hand is worth to the review (``players/judge_eval.py``: ``HAND_PLAY``,
``HAND_HOLD``), measured in play. Not a test; run it from the repository root::

    .venv/bin/python benchmarks/bench_hand_value.py --compiled [--games 1200] [--values 0.45,3 0.5,0 ...]

The review values a position with each hand card at ``held(gain)``: ``HAND_PLAY`` of what playing it should
bring, less ``HAND_HOLD``, at least the -5 of keeping it. A value that is right makes good takes: a player
that takes a card into its hand whenever that value is the best of its moves should play at least as well
as one that does not. The taker here is the normal level (the greedy heuristic, ``eval.Outlook.score``)
with one change: taking a card scores the review's ``hand_card_value`` of it. It plays ``--games`` games
(3 players, 2nd edition) against two normal players, its seat rotated game by game; for each pair of values
it prints its share of the wins (a fair share is a third; ties are shared) and its mean final VP against
theirs, each with a 95 % interval (mean ± 1.96 standard errors).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if "--compiled" in sys.argv[1:]:  # before rules is imported: take it from the mypyc build
    from players.compile import PACKAGES, build
    from rules.compile import import_from

    import_from(build(), PACKAGES)

from players import judge_eval  # noqa: E402
from players.eval import Outlook, final_rewards  # noqa: E402
from players.fastcore import core_name  # noqa: E402
from players.search import heuristic_move  # noqa: E402
from rules import Ruleset, apply, legal_moves, new_game  # noqa: E402
from rules.actions import Action  # noqa: E402
from rules.state import GameState  # noqa: E402

TAKER = 0  # the taker's seat in a game's first arrangement (rotated game by game)


def taker_move(st: GameState) -> Action:
    """The greedy heuristic's move, a take scored at the review's value of the card in the hand."""
    moves = legal_moves(st)
    out = Outlook(st)
    by_id = st.ruleset.catalogue.by_id
    best, top = moves[0].action, -math.inf
    for m in moves:
        a = m.action
        value = judge_eval.hand_card_value(out, st.decider, by_id[a.card]) if a.kind == "take" else out.score(m)
        if value > top:
            best, top = a, value
    return best


def game(seed: int, taker: int) -> tuple[list[float], list[int]]:
    """One game with the taker in seat ``taker``: each seat's share of the win and final VP."""
    st = new_game(Ruleset(edition=2, players=3), ["a", "b", "c"], seed=seed)
    rng = random.Random(seed)
    while not st.finished:
        moves = legal_moves(st)
        if len(moves) == 1:
            apply(st, moves[0].action)
        elif st.decider == taker:
            apply(st, taker_move(st))
        else:
            apply(st, heuristic_move(st, moves, rng, 0.0))
    return final_rewards(st), list(st.vp)


def interval(xs: list[float]) -> tuple[float, float]:
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    return mean, 1.96 * sd / math.sqrt(len(xs))


def measure(play: float, hold: float, games: int) -> str:
    judge_eval.HAND_PLAY, judge_eval.HAND_HOLD = play, hold
    wins: list[float] = []
    mine: list[float] = []
    theirs: list[float] = []
    for g in range(games):
        seat = (TAKER + g) % 3
        shares, vp = game(5000 + g, seat)
        wins.append(shares[seat])
        mine.append(vp[seat])
        theirs.append(sum(v for s, v in enumerate(vp) if s != seat) / 2)
    w, wh = interval(wins)
    m, mh = interval(mine)
    t, th = interval(theirs)
    return f"wins {w:.3f} ± {wh:.3f} (fair 0.333), VP {m:.1f} ± {mh:.1f} against the normal players' {t:.1f} ± {th:.1f}"


def main(argv: list[str] | None = None) -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument(
        "--values",
        nargs="+",
        default=["0.45,3", "0.5,0", "0.45,2", "0.45,4", "0.3,3", "0.6,3"],
        help="HAND_PLAY,HAND_HOLD pairs (the first is the review's)",
    )
    ap.add_argument("--compiled", action="store_true", help="use the mypyc build of the rules and players")
    args = ap.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, core {core_name()}")
    print(f"the taker against two normal players, {args.games} games:")
    for pair in args.values:
        play, hold = (float(x) for x in pair.split(","))
        print(f"  HAND_PLAY {play}, HAND_HOLD {hold}: {measure(play, hold, args.games)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
