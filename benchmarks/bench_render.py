"""Speed and size of the images: board render time for a late-game state at 2 and 4 players and of a
5-player Market game (p50 and max over many runs, plus the first, cold run of the process), the split
between drawing and PNG encoding, and the PNG size; the hand, final-scores and card images for
comparison; the 5-player Market boards with Module 4 and with every part of the edition. Targets: the
5-player Market board p50 < 40 ms and PNG < 400 KB. Not a test; run
it from the repository root::

    .venv/bin/python benchmarks/bench_render.py [--runs 50] [--seed 7] [--edition 2] [--cpu N]
    .venv/bin/python benchmarks/bench_render.py --game [--players 2] [--seed 7] [--cpu N]

``--game``: the CPU time (``time.process_time``) a board takes as the bot draws them, every board of a seeded
random game in order in one process (its caches as warm as a render worker's), split into drawing and PNG
encoding; the fastest of three passes over the game, both editions.

The late-game state is the one 85% of the way through a seeded random game (the display, stacks and
tableaux are about as full as they get).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from render import draw_board, render_board, render_card, render_final, render_hand  # noqa: E402
from rules import GameState, Ruleset, apply, legal_moves, new_game, view  # noqa: E402

T = TypeVar("T")

NAMES = ["Anna", "Boris", "Katharina", "Dmitri", "Elena"]
LAST_ACTION = "Katharina bought St Isaac's Cathedral (lower row) over Market for 12 rubles"


def play(edition: int, players: int, seed: int, market: bool = False, expansions: tuple[str, ...] = (),
         modules: tuple[int, ...] = ()) -> list[GameState]:
    """Every state of a seeded random game (``market``: 2nd edition with the Market; ``expansions`` and
    ``modules`` besides)."""
    rng = random.Random(seed)
    rs = Ruleset(edition=edition, players=players, expansions=(("market",) if market else ()) + expansions,
                 modules=modules)
    st = new_game(rs, NAMES[:players], seed=seed)
    states = [st.copy()]
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
        states.append(st.copy())
    return states


def timed(fn: Callable[[], T], runs: int) -> tuple[float, list[float], T]:
    """The first call's time, then ``runs`` more call times (ms), and the last result."""
    t = time.perf_counter()
    out = fn()
    first = (time.perf_counter() - t) * 1000
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    return first, times, out


def report(label: str, first: float, times: list[float], size: int | None = None) -> None:
    p50 = statistics.median(times)
    extra = f"  png {size / 1024:6.1f} KB" if size is not None else ""
    print(f"{label:<34} first {first:6.1f} ms  p50 {p50:6.1f} ms  max {max(times):6.1f} ms{extra}")


def game_boards(players: int, seed: int) -> None:
    """CPU ms a board over every board of a seeded random game (see the module docstring)."""
    from render.canvas import png_of_indices

    for edition in (1, 2):
        states = play(edition, players, seed)
        views = [view(st, None) for st in states]
        best: list[float] = []
        size = 0
        for _ in range(3):
            draw = enc = 0.0
            size = 0
            for v in views:
                t0 = time.process_time()
                cv = draw_board(v, "en", LAST_ACTION)
                t1 = time.process_time()
                size += len(png_of_indices(cv.image))
                t2 = time.process_time()
                draw, enc = draw + t1 - t0, enc + t2 - t1
            n = len(views)
            run = [1000 * x / n for x in (draw + enc, draw, enc)]
            best = run if not best or run[0] < best[0] else best
        print(f"edition {edition}, {players} players, {len(views)} boards: {best[0]:5.2f} ms CPU a board "
              f"(drawing {best[1]:5.2f}, PNG {best[2]:5.2f}); {size / len(views) / 1024:.0f} KB on average")


def main() -> None:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=HelpFormatter)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--edition", type=int, default=2, choices=(1, 2))
    ap.add_argument("--cpu", type=int, default=None, help="pin the process to this CPU (Linux)")
    ap.add_argument("--game", action="store_true", help="CPU time a board over a whole game's boards")
    ap.add_argument("--players", type=int, default=2, help="with --game: players (default 2)")
    args = ap.parse_args()
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    if args.game:
        game_boards(args.players, args.seed)
        return

    print(f"render benchmark: edition {args.edition}, seed {args.seed}, {args.runs} runs each")
    # five players with every part of the edition: In bester Gesellschaft and the Banquet (1st), the Market
    # and Modules 1-6 (2nd)
    every = ((), (1,)) if args.edition == 2 else (("new_society",), (1,))
    every_modules = (1, 2, 3, 4, 5, 6) if args.edition == 2 else (1,)
    configs: list[tuple[int, bool, tuple[str, ...], tuple[int, ...]]] = [
        (2, False, (), ()), (4, False, (), ()), (5, True, (), ())]
    if args.edition == 2:  # Module 4 alone: its events row (M4-16)
        configs.append((5, True, (), (4,)))
    configs.append((5, args.edition == 2, every[0], every_modules))
    for players, market, expansions, modules in configs:
        if market and args.edition != 2 or (players == 5 and not market and not expansions):
            continue
        states = play(args.edition, players, args.seed, market, expansions, modules)
        st = states[int(len(states) * 0.85)]
        v = view(st, st.decider)
        first, times, png = timed(partial(render_board, v, "en", LAST_ACTION), args.runs)
        parts = (", Market" if market else "") + "".join(f", {x}" for x in expansions)
        parts += f", modules {','.join(map(str, modules))}" if modules else ""
        label = f"board, {players} players{parts}, round {st.round}"
        report(label, first, times, len(png))
        _, draw_times, cv = timed(partial(draw_board, v, "en", LAST_ACTION), args.runs)
        draw_p50 = statistics.median(draw_times)
        print(f"{'':<34} draw p50 {draw_p50:5.1f} ms, PNG encoding p50 {statistics.median(times) - draw_p50:5.1f} ms, "
              f"{cv.width}x{cv.height} px")
        if players == 4:
            hv = next((view(s, s.decider) for s in states[len(states) // 2 :] if not s.finished and s.hands[s.decider]),
                      v)
            first, times, png = timed(partial(render_hand, hv, "en"), args.runs)
            report("hand", first, times, len(png))
            fv = view(states[-1], 0)
            first, times, png = timed(partial(render_final, fv, "en"), args.runs)
            report("final scores, 4 players", first, times, len(png))
            first, times, png = timed(lambda: render_card("czar_and_carpenter", args.edition, "de"), args.runs)
            report("card lookup", first, times, len(png))


if __name__ == "__main__":
    main()
