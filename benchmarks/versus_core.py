"""The strong player of this checkout against the strong player of another checkout (e.g. the commit
before a change to the rules core's speed) at equal time: each side runs its own compiled core and its
own search in a process of its own, with the same time budget a move, so a faster core shows as
strength. Seat-rotated seeded games as in ``python -m players arena`` (this checkout at one seat, the
other checkout at the rest; each deal from every seat); prints this checkout's win rate with its 95 %
Wilson interval, both mean VP and both sides' iterations a move. Not a test; from the repository root::

    .venv/bin/python -m players.compile
    (cd ../base && .venv/bin/python -m players.compile)
    .venv/bin/python benchmarks/versus_core.py --old ../base --players 4 --games 120 --budget 0.2 --jobs 2

Each checkout needs its own ``.venv`` and a current compiled build (``python -m players.compile``); a
side without one runs pure Python and the first line says so. The game itself is carried out by this
checkout's rules core: the other side receives each position as JSON (``GameState.to_json``) and answers
with an action, so both cores must agree on the rules (an action this core refuses stops the run).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from players.arena import check_setup, lineup, wilson  # noqa: E402
from rules import Action, Ruleset, apply, new_game  # noqa: E402

NEW, OLD = "new", "old"

# The worker: one process per side and game slot, on its checkout's compiled build when current. It
# answers one JSON line per request: {"state", "seat", "rng", "budget", "key"} -> {"action", "iterations"};
# {"forget": key} drops a game's kept search trees.
WORKER = r"""
import json, random, sys, time
from players.ai import decide
from players.fastcore import core_name
from players.trees import TREES
from rules import GameState
rngs = {}
print(json.dumps({"core": core_name()}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if "forget" in req:
        TREES.forget(tuple(req["forget"]))
        for k in [k for k in rngs if k[0] == tuple(req["forget"])]:
            del rngs[k]
        print("{}", flush=True)
        continue
    key = tuple(req["key"])
    rng = rngs.setdefault((key, req["seat"]), random.Random(req["rng"]))
    st = GameState.from_json(req["state"])
    t0 = time.perf_counter()
    d = decide(st, req["seat"], "strong", rng, budget_s=req["budget"], tree_key=key)
    print(json.dumps({"action": list(d.action), "iterations": d.iterations, "seconds": time.perf_counter() - t0}),
          flush=True)
"""


class Side:
    """A worker process running one checkout's strong player."""

    def __init__(self, checkout: Path) -> None:
        python = checkout / ".venv" / "bin" / "python"
        found = subprocess.run(
            [str(python), "-c", "from players.compile import compiled_build; print(compiled_build() or '')"],
            cwd=checkout, capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        where = Path(found) if found else checkout
        self.proc = subprocess.Popen(
            [str(python), "-c", WORKER], cwd=where, env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.core = str(self._read()["core"])

    def _read(self) -> dict[str, Any]:
        out: IO[str] | None = self.proc.stdout
        assert out is not None
        line = out.readline()
        if not line:
            raise RuntimeError("a worker ended")
        found: dict[str, Any] = json.loads(line)
        return found

    def ask(self, req: dict[str, Any]) -> dict[str, Any]:
        inp = self.proc.stdin
        assert inp is not None
        inp.write(json.dumps(req) + "\n")
        inp.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


@dataclass
class Tally:
    seats: int = 0
    wins: float = 0.0
    vp: int = 0
    moves: int = 0
    searched: int = 0
    iterations: int = 0
    seconds: float = 0.0
    extra: dict[str, str] = field(default_factory=dict)


def play_one(
    sides: dict[str, Side], g: int, seed: int, edition: int, seating: list[str], players: int, budget: float,
    expansions: tuple[str, ...], modules: tuple[int, ...], tallies: dict[str, Tally],
) -> str:  # fmt: skip
    """One game, its decisions asked of each seat's side; returns a line telling its result."""
    deal = seed + g // players
    ruleset = Ruleset(edition=edition, players=players, expansions=expansions, modules=modules)
    st = new_game(ruleset, [f"{side} {i + 1}" for i, side in enumerate(seating)], deal)
    key = ["versus", seed, g]
    while not st.finished:
        s = st.decider
        side = seating[s]
        req = {"state": st.to_json(), "seat": s, "rng": f"{seed}/{g}/{s}", "budget": budget, "key": key}
        got = sides[side].ask(req)
        t = tallies[side]
        t.moves += 1
        t.seconds += got["seconds"]
        t.iterations += got["iterations"]
        t.searched += got["iterations"] > 0
        apply(st, Action(*got["action"]))
    for side in set(seating):
        sides[side].ask({"forget": key})
    for s, side in enumerate(seating):
        t = tallies[side]
        t.seats += 1
        t.vp += st.vp[s]
        if s in st.winners:
            t.wins += 1 / len(st.winners)
    won = ", ".join(f"{seating[s]} {s + 1}" for s in st.winners)
    return f"game {g + 1} (edition {edition}, deal {deal}): {list(st.vp)} won by {won}"


def main(argv: list[str] | None = None) -> int:
    from rules.cliargs import HelpFormatter, positive_int, seconds

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--old", required=True, type=Path, help="the other checkout (with its .venv and build)")
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5))
    ap.add_argument("--games", type=positive_int, default=120, help="games (a multiple of --players)")
    ap.add_argument("--budget", type=seconds, default=0.2, help="seconds a move for both sides")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--market", action="store_true", help="play with the Market (2nd edition)")
    ap.add_argument("--jobs", type=positive_int, default=1, help="games at once (a pair of workers each)")
    args = ap.parse_args(argv)
    expansions: tuple[str, ...] = ("market",) if args.market else ()
    eds = check_setup(["strong"], args.players, 0, expansions, ())
    slots = [{NEW: Side(ROOT), OLD: Side(args.old.resolve())} for _ in range(args.jobs)]
    print(f"this checkout: {slots[0][NEW].core}; {args.old}: {slots[0][OLD].core}", flush=True)
    tallies = {NEW: Tally(), OLD: Tally()}
    free = list(range(args.jobs))

    def run(g: int) -> str:
        slot = free.pop()
        try:
            seating = lineup([NEW, OLD], args.players, g)
            edition = eds[(args.seed + g // args.players) % len(eds)]
            return play_one(
                slots[slot], g, args.seed, edition, seating, args.players, args.budget, expansions, (), tallies
            )
        finally:
            free.append(slot)

    started = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        for line in pool.map(run, range(args.games)):
            print(line, flush=True)
    for slot in slots:
        for worker in slot.values():
            worker.close()
    took = time.perf_counter() - started
    print(f"{args.games} games at {args.players} players, {args.budget} s a move, {took:.0f} s")
    print(f"{'side':<5} {'seats':>5} {'win rate':>8} {'95% CI':>15} {'mean VP':>8} {'s/move':>7} {'iter/move':>9}")
    for side, t in tallies.items():
        lo, hi = wilson(t.wins, t.seats)
        its = t.iterations / t.searched if t.searched else 0.0
        print(
            f"{side:<5} {t.seats:>5} {t.wins / t.seats:>8.1%} {f'{lo:.1%}-{hi:.1%}':>15} {t.vp / t.seats:>8.1f}"
            f" {t.seconds / max(t.moves, 1):>7.3f} {its:>9.0f}"
        )
    fair = 1 / args.players
    print(f"fair share {fair:.1%}: this checkout's strong at one seat, the other's at the rest")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
