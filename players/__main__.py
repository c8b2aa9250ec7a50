"""Command line of the computer players.

python -m players random [--players N] [--edition E] [--seed S] [--market] [--out FILE] [--level L] [--budget S]
python -m players arena [--players N] [--games G] LEVEL... [--budget S] [--seed N] [--jobs J]
python -m players think [--pure]   (JSON requests on stdin, one answer line each; --example prints one)
python -m players review RECORD.json [--json] [--iterations N] [--seed S]   (its picture: python -m bot review)
"""

from __future__ import annotations

import argparse
import random
import sys

from rules import Action, GameState
from rules.__main__ import (
    add_random_arguments,
    announce_seed,
    play_random,
    quiet_broken_pipe,
    random_ruleset,
    save_record,
)
from rules.cliargs import HelpFormatter, seconds

from .ai import LEVELS, choose
from .arena_cli import add_arena_parser, run_arena
from .review_cli import add_review_parser, run_review
from .think import add_think_parser, run_think


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m players", description=__doc__, formatter_class=HelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("random", help="play a game of computer players and print its record",
                       description="Play a game of computer players and print its record (JSON).",
                       formatter_class=HelpFormatter)
    add_random_arguments(r)
    r.add_argument("--level", default="normal", choices=LEVELS, help="the computer players' level")
    r.add_argument("--budget", type=seconds, default=None,
                   help="seconds per move for the search levels (default: 2)")
    add_arena_parser(sub)
    add_think_parser(sub)
    add_review_parser(sub)
    args = parser.parse_args(argv)

    if args.cmd == "arena":
        return run_arena(args, sys.argv[1:] if argv is None else argv)
    if args.cmd == "think":
        return run_think(args, sys.argv[1:] if argv is None else argv)
    if args.cmd == "review":
        return run_review(args, sys.argv[1:] if argv is None else argv)
    try:
        ruleset = random_ruleset(args)
    except ValueError as e:
        r.error(str(e))
    seed = announce_seed(args)

    def computer(st: GameState, rng: random.Random) -> Action:
        return choose(st, level=args.level, rng=rng, budget_s=args.budget)

    rec, _ = play_random(ruleset, seed, choose=computer)
    return save_record(rec, args.out)


if __name__ == "__main__":
    sys.exit(quiet_broken_pipe(main))
