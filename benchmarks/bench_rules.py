"""Speed of the rules core: random complete games per second and microseconds per applied action.

A seeded random player picks uniformly among ``legal_moves``; one process, pinned to one CPU where
the OS allows it. Not a test; run it from the repository root::

    .venv/bin/python benchmarks/bench_rules.py [--games 200] [--repeat 3] [--seed 1] [--cpu N] [--profile]
    .venv/bin/python benchmarks/bench_rules.py --market [--players 5]   # the Market, 2nd edition, 2 and 5 players
    .venv/bin/python benchmarks/bench_rules.py --society                # In bester Gesellschaft, 1st ed., 2 and 5
    .venv/bin/python benchmarks/bench_rules.py --sp-plus                # SP+, 1st edition, 2 and 4 players
    .venv/bin/python benchmarks/bench_rules.py --modules 2 [--market]   # Module 2, 2nd edition
    .venv/bin/python benchmarks/bench_rules.py --market --modules 4,6   # with modules (X-01, X-02)
    .venv/bin/python benchmarks/bench_rules.py --modules 1 [--market]   # the Banquet (both editions; Module 1)
    .venv/bin/python benchmarks/bench_rules.py --no-events              # rules.advance, as the searches play

Totals are CPU time of this process; each configuration is run ``--repeat`` times and the fastest run
is reported, which keeps other load on the machine out of the figures as far as possible. The
legal_moves / apply split comes from a separate run with a wall clock around each call, so it carries
some timer overhead.

``--profile`` also runs one batch of 4-player games (both editions) under cProfile and prints the
hotspots inside ``rules/``. ``--compiled`` runs the mypyc build of the same source (see
``rules/compile.py``).

Wall-clock figures on a shared machine swing by a third; instruction counts do not. To compare two
versions of the rules, count the instructions of N games and subtract a 1-game run (start-up)::

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        .venv/bin/python benchmarks/bench_rules.py --edition 2 --players 4 --games 61 --repeat 1 --no-split
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if "--compiled" in sys.argv[1:]:  # before rules is imported: take it from the mypyc build
    from rules.compile import build, import_from

    import_from(build())

import rules.engine  # noqa: E402
from rules import Ruleset, advance, apply, legal_moves, new_game  # noqa: E402

IMPLEMENTATION = "compiled with mypyc" if rules.engine.__file__.endswith((".so", ".pyd")) else "pure Python"

MAX_ACTIONS = 5000
# Expansions (besides the Market) and modules of every configuration: --society, --sp-plus, --modules.
EXPANSIONS: tuple[str, ...] = ()
MODULES: tuple[int, ...] = ()
# --no-events: play with rules.advance (apply without building the events), as the searches do.
NO_EVENTS = False


@dataclass
class Result:
    edition: int
    players: int
    market: bool
    games: int
    actions: int
    seconds: float
    apply_seconds: float
    moves_seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def us_per_action(self) -> float:
        return 1e6 * self.seconds / self.actions


def play_games(
    edition: int,
    players: int,
    games: int,
    seed: int,
    timed: bool = True,
    market: bool = False,
    modules: tuple[int, ...] = (),
) -> Result:
    """Play ``games`` complete random games; seeds ``seed``, ``seed + 1``, ... for deals and choices."""
    expansions = (("market",) if market else ()) + EXPANSIONS
    ruleset = Ruleset(edition=edition, players=players, expansions=expansions, modules=modules or MODULES)
    seats = [f"P{i}" for i in range(players)]
    clock = time.perf_counter
    play = advance if NO_EVENTS else apply
    actions = 0
    t_apply = t_moves = 0.0
    start = time.process_time()  # CPU time of this process: other load on the machine does not count
    for g in range(games):
        st = new_game(ruleset, seats, seed=seed + g)
        rng = random.Random(1_000_003 * (seed + g) + 7)
        choice = rng.choice
        n = 0
        while not st.finished:
            if timed:
                t0 = clock()
                action = choice(legal_moves(st)).action
                t1 = clock()
                play(st, action)
                t2 = clock()
                t_moves += t1 - t0
                t_apply += t2 - t1
            else:
                play(st, choice(legal_moves(st)).action)
            n += 1
            if n > MAX_ACTIONS:
                raise RuntimeError(f"game {seed + g} did not finish")
        actions += n
    return Result(edition, players, market, games, actions, time.process_time() - start, t_apply, t_moves)


def pin_to_one_cpu(cpu: int | None) -> str:
    if not (hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity")):
        return "not pinned"
    if cpu is None:
        cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def fastest(
    edition: int,
    players: int,
    games: int,
    seed: int,
    repeat: int,
    timed: bool,
    market: bool = False,
    modules: tuple[int, ...] = (),
) -> Result:
    runs = [play_games(edition, players, games, seed, timed, market, modules) for _ in range(repeat)]
    return min(runs, key=lambda r: r.seconds)


def bench(
    games: int,
    seed: int,
    repeat: int,
    editions: tuple[int, ...] = (1, 2),
    players_counts: tuple[int, ...] = (2, 4),
    split: bool = True,
    market: bool = False,
    modules: tuple[int, ...] = (),
) -> list[Result]:
    play_games(editions[0], players_counts[0], 5, seed, market=market)  # warm up: catalogue caches, imports
    results = []
    print(
        f"{'edition':>7} {'market':>6} {'players':>7} {'games':>6} {'actions/game':>12} {'games/s':>9} "
        f"{'us/action':>9} {'(legal_moves':>12} {'apply)':>7}"
    )
    for edition in editions:
        for players in players_counts:
            plain = fastest(edition, players, games, seed, repeat, False, market, modules)
            results.append(plain)
            row = (
                f"{edition:>7} {'yes' if market else 'no':>6} {players:>7} {games:>6} {plain.actions / games:>12.1f} "
                f"{plain.games_per_second:>9.1f} {plain.us_per_action:>9.2f}"
            )
            if split:
                timed = fastest(edition, players, games, seed, repeat, True, market, modules)
                row += (
                    f" {1e6 * timed.moves_seconds / timed.actions:>12.2f}"
                    f" {1e6 * timed.apply_seconds / timed.actions:>7.2f}"
                )
            print(row)
    return results


def profile(games: int, seed: int, top: int) -> None:
    prof = cProfile.Profile()
    prof.enable()
    for edition in (1, 2):
        play_games(edition, 4, games, seed, timed=False)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    stats.sort_stats("tottime").print_stats(r"rules[/\\]", top)
    out.write("\n--- by cumulative time ---\n")
    stats.sort_stats("cumulative").print_stats(r"rules[/\\]", top)
    print(f"\ncProfile, {games} random 4-player games per edition (times inflated by profiling):")
    print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--games", type=int, default=200, help="games per configuration (default 200)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per configuration; the fastest counts")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: the first allowed)")
    ap.add_argument("--profile", action="store_true", help="also profile a batch of 4-player games")
    ap.add_argument("--top", type=int, default=25, help="hotspots to list when profiling")
    ap.add_argument("--edition", type=int, choices=(1, 2), help="only this edition (default: both)")
    ap.add_argument(
        "--players", type=int, choices=(2, 3, 4, 5), help="only this count (default 2 and 4; with --market 2 and 5)"
    )
    ap.add_argument("--market", action="store_true", help="play with the Market (2nd edition only)")
    ap.add_argument("--society", action="store_true", help="In bester Gesellschaft (1st edition; 2 and 5 players)")
    ap.add_argument("--sp-plus", action="store_true", help="Yucata's SP+ (1st edition, the 7 replacement cards)")
    ap.add_argument("--modules", default="", help="modules, e.g. '1' (the Banquet), '2' or '4,6' (3-6: --market)")
    ap.add_argument(
        "--no-split",
        action="store_true",
        help="skip the timed run that splits legal_moves from apply (e.g. when counting instructions)",
    )
    ap.add_argument(
        "--no-events",
        action="store_true",
        help="play with rules.advance, as the searches do: apply without building the events it returns",
    )
    ap.add_argument(
        "--compiled",
        action="store_true",
        help="run the rules core compiled with mypyc (built or reused by rules/compile.py)",
    )
    args = ap.parse_args(argv)
    global EXPANSIONS, MODULES, NO_EVENTS
    NO_EVENTS = args.no_events
    chosen = (("new_society", args.society), ("new_society_replacements_only", args.sp_plus))
    EXPANSIONS = tuple(key for key, on in chosen if on)
    MODULES = tuple(int(m) for m in args.modules.split(",") if m.strip())
    first = bool(EXPANSIONS)
    five = args.market or args.society
    print(
        f"Python {sys.version.split()[0]}, rules core {IMPLEMENTATION}, {pin_to_one_cpu(args.cpu)}, "
        f"random player over legal_moves, {'advance' if NO_EVENTS else 'apply'}, seed {args.seed}"
        + (f", with {', '.join([*EXPANSIONS, *(f'module {m}' for m in MODULES)])}" if EXPANSIONS or MODULES else "")
    )
    bench(
        args.games,
        args.seed,
        max(1, args.repeat),
        editions=(args.edition,) if args.edition else (1,) if first
        else (2,) if args.market or set(MODULES) - {1} else (1, 2),  # the Banquet is in both editions
        players_counts=(args.players,) if args.players else (2, 5) if five else (2, 4),
        split=not args.no_split,
        market=args.market,
        modules=tuple(int(m) for m in args.modules.split(",") if m.strip()),
    )
    if args.profile:
        profile(max(1, args.games // 2), args.seed, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
