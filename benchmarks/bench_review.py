"""The review of finished games (``players/review.py``): its speed, its noise and its validity.
Not a test; run it from the repository root::

    .venv/bin/python benchmarks/bench_review.py --compiled [--section speed|quality|play|all] [--games 45] [--jobs 2]
    .venv/bin/python benchmarks/bench_review.py --compiled --section speed --live
    .venv/bin/python benchmarks/bench_review.py --compiled --section play --save games.json
    .venv/bin/python benchmarks/bench_review.py --compiled --section quality --load games.json --save reviews.json

- speed: a 4-player base game and a 5-player game with the Market and every module (2nd edition,
  Modules 1-6), played by the normal and easy levels, each reviewed at the default budget in a worker
  process at the bot's review priority (``os.nice``, ``bot.reviewing.NICE``): the decisions judged, the
  CPU time of the review and its wall time. ``--live``: meanwhile a live game of three strong players at
  their 2 s a move is played in another process at normal priority, game after game, as the bot's
  computer seats think; its moves' wall times are printed too (p50, p99, the longest).
- quality: ``--games`` games of easy, normal and strong at one table (3 players, 2nd edition, the seats
  rotated game by game; strong at ``--strong-iterations`` search iterations a move, reproducible),
  each reviewed with seed 0 and again with seed 1.
  Validity: each level's accuracy (the mean over its seats in the games, with a 95 % interval, mean ±
  1.96 standard errors) and its inaccuracies, mistakes and blunders per game (seed 0).
  Noise: of the decisions labelled in either review, the share with the same label in both; and per
  seat and game the difference of the accuracies (mean, largest, share within 3 points).
- play: only play the quality section's games and write them to ``--save`` (game by game); ``--load``
  reviews such a file again instead of playing (the strong level's moves cost the most CPU), and
  ``--save`` then writes the games with their reviews, game by game.

``--compiled`` runs the mypyc build of the rules and players (``players/compile.py``; built first if
needed). ``--jobs`` games at once in worker processes.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if "--compiled" in sys.argv[1:]:  # before rules is imported: take it from the mypyc build
    from players.compile import PACKAGES, build
    from rules.compile import import_from

    import_from(build(), PACKAGES)

from bot.reviewing import NICE  # noqa: E402
from players.ai import DEFAULT_BUDGET_S, choose  # noqa: E402
from players.eval import final_rewards  # noqa: E402
from players.fastcore import core_name  # noqa: E402
from players.review import DEFAULT_ITERATIONS, GameReview, review_game, thresholds  # noqa: E402
from rules import GameRecord, Ruleset, apply, new_game, parse_for  # noqa: E402
from rules.record import notation  # noqa: E402

LEVELS = ("easy", "normal", "strong")


def play(ruleset: Ruleset, levels: list[str], seed: int, strong_iterations: int) -> GameRecord:
    """A game of the computer levels ``levels`` (one a seat), as its record."""
    st = new_game(ruleset, [f"{lv}{s}" for s, lv in enumerate(levels)], seed=seed)
    record = GameRecord(ruleset, list(st.seats), seed)
    while not st.finished:
        level = levels[st.decider]
        its = strong_iterations if level == "strong" else None
        action = choose(st, st.decider, level, rng=seed * 1000 + st.action_count, iterations=its)
        record.actions.append(notation(st, action))
        apply(st, action)
    return record


def cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def review_timed(job: tuple[dict[str, Any], int]) -> tuple[int, float]:
    """Review a record (its JSON) at ``iterations`` a decision: the decisions judged and the CPU seconds."""
    record, iterations = job
    c0 = time.process_time()
    review = review_game(GameRecord.from_json(record), iterations=iterations)
    return len(review.decisions), time.process_time() - c0


def live_game(stop: Any, answer: Any) -> None:
    """A live game beside the review: three strong players at their 2 s a move (as the bot's computer seats
    think), game after game until ``stop``; then the moves' wall times, sorted, into ``answer``."""
    times: list[float] = []
    g = 0
    while not stop.is_set():
        st = new_game(Ruleset(edition=2, players=3), ["a", "b", "c"], seed=900 + g)
        while not st.finished and not stop.is_set():
            t0 = time.perf_counter()
            action = choose(st, st.decider, "strong", rng=st.action_count, budget_s=DEFAULT_BUDGET_S)
            times.append(time.perf_counter() - t0)
            apply(st, action)
        g += 1
    answer.put(sorted(times))


def speed(iterations: int, live: bool) -> None:
    """Each game reviewed in a worker process at the bot's review priority (``os.nice(NICE)``); with ``live``,
    while a live game of strong players is played in another process at normal priority."""
    print(f"speed, {iterations} iterations a decision{', a live game played meanwhile' if live else ''}:")
    games = [
        ("4-player base game", Ruleset(edition=2, players=4), ["normal", "easy", "normal", "easy"]),
        (
            "5-player game, the Market and Modules 1-6",
            Ruleset(edition=2, players=5, expansions=("market",), modules=(1, 2, 3, 4, 5, 6)),
            ["normal", "easy", "normal", "easy", "normal"],
        ),
    ]
    ctx = multiprocessing.get_context("fork")
    for name, ruleset, levels in games:
        record = play(ruleset, levels, 1, 0)
        stop, answer = ctx.Event(), ctx.Queue()
        player = ctx.Process(target=live_game, args=(stop, answer), daemon=True) if live else None
        if player is not None:
            player.start()
        with ProcessPoolExecutor(1, mp_context=ctx, initializer=os.nice, initargs=(NICE,)) as pool:
            w0 = time.perf_counter()
            judged, used = pool.submit(review_timed, (record.to_json(), iterations)).result()
            wall = time.perf_counter() - w0
        line = (
            f"  {name}: {len(record.actions)} actions, {judged} decisions judged, CPU {used:.1f} s "
            f"({1e3 * used / max(1, judged):.0f} ms a decision), wall {wall:.1f} s"
        )
        if player is not None:
            stop.set()
            moves: list[float] = answer.get()
            player.join()
            line += (
                f"; the live game's {len(moves)} computer moves meanwhile: p50 {moves[len(moves) // 2]:.2f} s, "
                f"p99 {moves[min(len(moves) - 1, int(0.99 * len(moves)))]:.2f} s, longest {moves[-1]:.2f} s"
            )
        print(line, flush=True)


def quality_game(job: tuple[int, int]) -> dict[str, Any]:
    """Play game ``g`` of the quality section: its levels (seat by seat), result and record."""
    g, strong_iterations = job
    levels = [LEVELS[(s + g) % 3] for s in range(3)]
    record = play(Ruleset(edition=2, players=3), levels, 100 + g, strong_iterations)
    st = record.start()
    for text in record.actions:
        apply(st, parse_for(st, text))
    return {"levels": levels, "wins": final_rewards(st), "record": record.to_json()}


def review_job(job: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    """Review a game of the quality section with ``seed`` at ``iterations`` a decision."""
    game, iterations, seed = job
    return review_game(GameRecord.from_json(game["record"]), iterations=iterations, seed=seed).to_json()


def interval(xs: list[float]) -> tuple[float, float, float]:
    mean = sum(xs) / len(xs)
    if len(xs) < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    half = 1.96 * sd / math.sqrt(len(xs))
    return mean, mean - half, mean + half


def play_games(games: int, jobs: int, strong_iterations: int, save: str | None = None) -> list[dict[str, Any]]:
    """The quality section's games (``quality_game``), ``jobs`` at once; written to ``save`` game by game."""
    c0, w0 = cpu(), time.perf_counter()
    todo = [(g, strong_iterations) for g in range(games)]
    out: list[dict[str, Any]] = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        for game in pool.map(quality_game, todo) if pool is not None else map(quality_game, todo):
            out.append(game)
            if save:
                Path(save).write_text(json.dumps(out))
    print(f"  played {games} games: CPU {cpu() - c0:.0f} s, wall {time.perf_counter() - w0:.0f} s", flush=True)
    return out


def quality(
    games: int,
    jobs: int,
    strong_iterations: int,
    iterations: int,
    save: str | None = None,
    load: str | None = None,
) -> None:
    print(
        f"quality: {games} games of easy, normal and strong (3 players, 2nd edition, seats rotated; strong at "
        f"{strong_iterations} iterations a move), reviewed at {iterations} iterations a decision with seeds 0 and 1; "
        f"thresholds at 3 players {thresholds(3)}",
        flush=True,
    )
    if load:
        played = json.loads(Path(load).read_text())[:games]
        games = len(played)
        print(f"  {games} games from {load}", flush=True)
    else:
        played = play_games(games, jobs, strong_iterations, save)  # saved: --load reviews them again
    acc: dict[str, list[float]] = {lv: [] for lv in LEVELS}
    wins = dict.fromkeys(LEVELS, 0.0)
    counts: dict[str, list[int]] = {lv: [0, 0, 0] for lv in LEVELS}
    same = labelled = 0
    diffs: list[float] = []
    c0, w0 = cpu(), time.perf_counter()
    todo = [(game, iterations, seed) for game in played for seed in (0, 1)]
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        reviews = pool.map(review_job, todo) if pool is not None else map(review_job, todo)
        for g, res in enumerate(played):
            res["reviews"] = [next(reviews), next(reviews)]
            first, second = (GameReview.from_json(r) for r in res["reviews"])
            for s, lv in enumerate(res["levels"]):
                wins[lv] += res["wins"][s]
                summary = first.seats[s]
                acc[lv].append(summary.accuracy)
                for k, x in enumerate((summary.inaccuracies, summary.mistakes, summary.blunders)):
                    counts[lv][k] += x
                diffs.append(abs(summary.accuracy - second.seats[s].accuracy))
            for a, b in zip(first.decisions, second.decisions, strict=True):
                if a.label or b.label:
                    labelled += 1
                    same += a.label == b.label
            if save:  # as far as reviewed
                Path(save).write_text(json.dumps(played[: g + 1]))
            print(
                f"  game {g + 1}/{games}: "
                + ", ".join(f"{lv} {first.seats[s].accuracy:.1f}" for s, lv in enumerate(res["levels"])),
                flush=True,
            )
    print(f"  reviews: CPU {cpu() - c0:.0f} s (this process and its workers), wall {time.perf_counter() - w0:.0f} s")
    print("validity (seed 0):")
    for lv in LEVELS:
        mean, low, high = interval(acc[lv])
        per = [c / games for c in counts[lv]]
        print(
            f"  {lv:<7} accuracy {mean:5.1f} (95 % interval {low:.1f}-{high:.1f}), per game: "
            f"{per[0]:.2f} inaccuracies, {per[1]:.2f} mistakes, {per[2]:.2f} blunders; won {wins[lv]:.1f} games"
        )
    ordered = [interval(acc[lv]) for lv in LEVELS]
    separated = ordered[0][2] < ordered[1][1] and ordered[1][2] < ordered[2][1]
    print(f"  strong > normal > easy with intervals apart: {'yes' if separated else 'no'}")
    print(f"  easy's blunders per game exceed normal's: {'yes' if counts['easy'][2] > counts['normal'][2] else 'no'}")
    print("noise (seed 0 against seed 1):")
    print(f"  the same label for {same} of {labelled} labelled decisions ({100 * same / max(1, labelled):.1f} %)")
    within = sum(d <= 3.0 for d in diffs)
    print(
        f"  accuracy: mean difference {sum(diffs) / len(diffs):.2f} points, largest {max(diffs):.2f}, "
        f"within 3 points for {within} of {len(diffs)} seats"
    )


def main(argv: list[str] | None = None) -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--section", choices=("speed", "quality", "play", "all"), default="all")
    ap.add_argument("--games", type=int, default=45, help="games of the quality section (default 45)")
    ap.add_argument("--jobs", type=int, default=1, help="games at once in worker processes")
    ap.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, help="the review's budget a decision")
    ap.add_argument("--strong-iterations", type=int, default=300, help="the strong level's iterations a move")
    ap.add_argument("--save", help="write each game's record, levels and reviews to this JSON file")
    ap.add_argument("--load", help="review the games saved by --save in this file instead of playing them")
    ap.add_argument("--compiled", action="store_true", help="use the mypyc build of the rules and players")
    ap.add_argument("--live", action="store_true", help="speed: play a live game of strong players meanwhile")
    args = ap.parse_args(argv)
    print(f"Python {sys.version.split()[0]}, core {core_name()}, {os.cpu_count()} cores")
    if args.section in ("speed", "all"):
        speed(args.iterations, args.live)
    if args.section in ("quality", "all"):
        quality(args.games, args.jobs, args.strong_iterations, args.iterations, args.save, args.load)
    if args.section == "play":  # only play the quality section's games and save them (--save)
        play_games(args.games, args.jobs, args.strong_iterations, args.save)
    return 0


if __name__ == "__main__":
    sys.exit(main())
