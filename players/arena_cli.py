"""The ``arena`` subcommand of ``python -m players`` (see ``players.arena``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rules.cliargs import HelpFormatter, positive_int, seconds

from .ai import LEVELS, search_config
from .arena import check_setup, editions_for, play, report
from .fastcore import core_name, rerun_compiled


def add_arena_parser(sub: Any) -> None:
    a = sub.add_parser("arena", help="a seeded tournament of computer levels; prints win rates",
                       description="A seeded tournament of computer levels: every level plays every seat in "
                                   "turn; prints the win rates.", formatter_class=HelpFormatter)
    a.set_defaults(subparser=a)
    a.add_argument(
        "levels",
        nargs="+",
        type=level_arg,
        metavar="LEVEL",
        help=f"levels: {', '.join(LEVELS)}; a search level may change its configuration: strong:playout_depth=12",
    )
    a.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5), help="5: --market or --society")
    a.add_argument("--market", action="store_true", help="play with the Market (2nd edition)")
    a.add_argument("--society", action="store_true", help="In bester Gesellschaft (1st edition)")
    a.add_argument("--sp-plus", action="store_true", help="SP+: the society's replacement cards only (1st edition)")
    a.add_argument("--modules", type=modules_arg, default=(), help="modules 1-6, comma separated, e.g. 1,2")
    a.add_argument("--games", type=positive_int, default=40, help="how many games")
    a.add_argument("--budget", type=seconds, default=0.2, help="seconds per move for the search levels")
    a.add_argument("--iterations", type=positive_int, default=None,
                   help="iterations per move instead of a time budget")
    a.add_argument("--seed", type=int, default=0,
                   help="the tournament's seed (each deal's and each player's choices come from it)")
    a.add_argument("--jobs", type=positive_int, default=1,
                   help="games played at once in worker processes (one per core)")
    a.add_argument(
        "--edition", type=int, default=0, choices=(0, 1, 2), help="0: alternate deal by deal where the parts allow both"
    )
    a.add_argument("--pure", action="store_true", help="run the pure Python core even where a build is current")
    a.add_argument("--quiet", action="store_true", help="print only the table")


def level_arg(text: str) -> str:
    try:
        search_config(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def modules_arg(text: str) -> tuple[int, ...]:
    try:
        return tuple(sorted({int(x) for x in text.split(",") if x.strip()}))
    except ValueError:
        raise argparse.ArgumentTypeError(f"modules are numbers 1-6, comma separated, not {text!r}") from None


def parts(args: argparse.Namespace) -> tuple[str, ...]:
    """The expansion keys besides the Market the options name."""
    return (("new_society",) if args.society else ()) + (("new_society_replacements_only",) if args.sp_plus else ())


def describe(args: argparse.Namespace) -> str:
    """The ruleset part of the header line."""
    market = ("market",) if args.market else ()
    try:
        eds = (args.edition,) if args.edition else editions_for(args.players, market + parts(args), args.modules)
    except ValueError:
        eds = ()
    words = [f"edition {eds[0]}" if len(eds) == 1 else "editions alternating"]
    if args.market:
        words.append("the Market")
    if args.society:
        words.append("In bester Gesellschaft")
    if args.sp_plus:
        words.append("SP+")
    if args.modules:
        words.append(f"modules {','.join(map(str, args.modules))}")
    return ", ".join(words)


def run_arena(args: argparse.Namespace, argv: list[str]) -> int:
    market = ("market",) if args.market else ()
    try:
        check_setup(args.levels, args.players, args.edition, market + parts(args), args.modules)
    except ValueError as e:
        args.subparser.error(str(e))
    if not args.pure:
        status = rerun_compiled(list(argv))
        if status is not None:
            return status
    budget = None if args.iterations is not None else args.budget
    what = f"{args.iterations} iterations" if budget is None else f"{budget} s"
    print(
        f"arena: {' '.join(args.levels)}, {args.players} players, {describe(args)}, "
        f"{args.games} games, seed {args.seed}, "
        f"search {what} per move, rules core {core_name()}",
        flush=True,
    )
    result = play(
        args.levels,
        players=args.players,
        games=args.games,
        seed=args.seed,
        edition=args.edition,
        budget_s=budget,
        iterations=args.iterations,
        market=args.market,
        expansions=parts(args),
        modules=args.modules,
        jobs=args.jobs,
        out=None if args.quiet else sys.stdout,
    )
    print(report(result))
    return 0
