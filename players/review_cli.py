"""The ``review`` subcommand of ``python -m players``: the review of a finished game's record (``players.review``;
docs/review.md) as text (each seat's accuracy and labels, then its labelled decisions) or as JSON.

The record is the file ``/petersburg export`` gives, or ``python -m players random --out FILE`` writes. The
picture of the review and its text in the bot's words (in English or German) come from ``python -m bot review``,
which runs this command for the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rules import GameRecord, ReplayError, replay
from rules.cliargs import HelpFormatter, positive_int
from rules.i18n import t

from .fastcore import core_name, rerun_compiled
from .review import DEFAULT_ITERATIONS, GameReview, review_game

DESCRIPTION = """The review of a finished game: every real decision judged by the strong player from what its
seat knew then (docs/review.md). Prints each seat's accuracy (0-100) and its inaccuracies, mistakes and
blunders, then those decisions: the move played, the move preferred and the chance to win before and after.
--json prints the review as JSON (players.review.GameReview). The same record, iterations and seed give
the same review on every machine. The picture: python -m bot review RECORD --picture review.png"""


def add_review_parser(sub: Any) -> None:
    r = sub.add_parser("review", help="the review of a finished game's record: accuracy and labels per seat",
                       description=DESCRIPTION, formatter_class=HelpFormatter)
    r.set_defaults(subparser=r)
    r.add_argument("record", help="the game's record (JSON: /petersburg export, docs/record-format.md)")
    r.add_argument("--json", action="store_true", help="print the review as JSON")
    r.add_argument("--iterations", type=positive_int, default=DEFAULT_ITERATIONS,
                   help="the strong player's search iterations a decision")
    r.add_argument("--seed", type=int, default=0, help="the review's seed")
    r.add_argument("--pure", action="store_true", help="run the pure Python core even where a build is current")


def load_record(path: str) -> GameRecord:
    """The finished game's record in ``path``; ValueError in one line saying what is wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            record = GameRecord.loads(f.read())
        st = replay(record)
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
    except ReplayError as e:
        raise ValueError(f"{path}: action {e.index + 1} ({e.text!r}) is illegal: {e.error.message}") from None
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    if not st.finished:
        raise ValueError(f"{path}: the game is not finished (a review judges finished games)")
    return record


def pct(chance: float) -> str:
    return f"{round(100 * chance)} %"


def plural(n: int, word: str) -> str:
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word[:-1]}ies" if word.endswith("y") else f"{n} {word}s"


def review_text(record: GameRecord, review: GameReview) -> list[str]:
    """Per seat: its accuracy and counts, then each of its labelled decisions (in notation)."""
    lines = []
    for s in review.seats:
        counts = ", ".join(plural(n, word) for n, word in ((s.inaccuracies, "inaccuracy"), (s.mistakes, "mistake"),
                                                           (s.blunders, "blunder")))
        lines.append(f"{record.seats[s.seat]}: accuracy {s.accuracy:.1f}; {counts} in "
                     f"{plural(s.decisions, 'decision')}")
        for d in review.decisions:
            if d.seat != s.seat or not d.label:
                continue
            phase = t(f"phase.{d.phase}", "en")
            lines.append(
                f"  {d.label}: action {d.index + 1}, round {d.round}, {phase}: played \"{d.played}\", "
                f"preferred \"{d.preferred}\" (chance to win {pct(d.before)} -> {pct(d.after)})"
            )
    return lines


def run_review(args: argparse.Namespace, argv: list[str]) -> int:
    try:
        record = load_record(args.record)
    except ValueError as e:
        args.subparser.error(str(e))
    if not args.pure:
        whole = [os.path.abspath(a) if a == args.record else a for a in argv]  # the build runs in its folder
        status = rerun_compiled(whole)
        if status is not None:
            return status
    total = len(record.actions)
    tell = sys.stderr.isatty()

    def progress(done: int, todo: int) -> None:
        if tell:
            print(f"\rjudged {done} of {todo} decisions", end="" if done < todo else "\n", file=sys.stderr,
                  flush=True)

    review = review_game(record, iterations=args.iterations, seed=args.seed, progress=progress)
    if args.json:
        out: dict[str, Any] = {"names": list(record.seats), **review.to_json()}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    print(f"review: {len(record.seats)} players, {total} actions, {plural(len(review.decisions), 'decision')} "
          f"judged; {args.iterations} iterations, seed {args.seed}, rules core {core_name()}")
    for line in review_text(record, review):
        print(line)
    return 0
