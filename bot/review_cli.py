"""``python -m bot review RECORD.json [--picture PNG] [--lang en|de] [--review REVIEW.json]``: a finished game's
review in the words the bot uses in Discord (each seat's accuracy and labels, then its labelled decisions, in
English or German) and its picture (``render.review``).

The figures come from ``python -m players review RECORD --json`` (run here in a child process, on the compiled
core where it is built), or from its saved output (``--review``). The reader holds the whole record, so every
preferred move is named (to its own seat's reader, as in Discord).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from players.review import DEFAULT_ITERATIONS
from players.review_cli import load_record
from rules import GameRecord, apply, parse_for
from rules.__main__ import quiet_broken_pipe
from rules.cliargs import HelpFormatter, positive_int
from rules.i18n import LANGUAGES, t

from .replays import ReplayGame
from .review_text import chart_data, decision_text, label_text, mistakes_of, seat_line
from .store import ActionRow


def replay_of(record: GameRecord, game: int = 0) -> ReplayGame:
    """The record's game step by step, each action with the events it made (what the channel showed)."""
    st = record.start()
    states = [st.to_json()]
    rows = []
    for i, text in enumerate(record.actions):
        seat = st.decider
        events = apply(st, parse_for(st, text))
        rows.append(ActionRow(game, i, seat, None, text, events, 0.0))
        states.append(st.to_json())
    return ReplayGame(game, states, rows)


def review_lines(review: dict[str, Any], r: ReplayGame, names: Sequence[str], lang: str) -> list[str]:
    """Per seat: its accuracy and counts, then its labelled decisions, each with the move preferred."""
    lines = []
    for s in review["seats"]:
        seat = int(s["seat"])
        lines.append(seat_line(s, names[seat], lang).replace("**", ""))
        lines += [f"  • {label_text(d['label'], lang)}: {decision_text(d, r, names, lang, seat)}"
                  for d in mistakes_of(review, seat)]
    return lines


def game_number(path: str) -> str:
    """The game's number in an exported record's name (petersburg-12.json: 12), else the file's name."""
    stem = Path(path).stem
    found = re.fullmatch(r"petersburg-(\d+)", stem)
    return found.group(1) if found else stem


def figures(args: argparse.Namespace) -> dict[str, Any]:
    """The review's JSON: read from ``--review``, else made by ``python -m players review``."""
    if args.review:
        with open(args.review, encoding="utf-8") as f:
            try:
                found: dict[str, Any] = json.load(f)
            except ValueError as e:
                raise ValueError(f"{args.review}: not a review's JSON ({e})") from None
        return found
    command = [sys.executable, "-m", "players", "review", os.path.abspath(args.record), "--json",
               "--iterations", str(args.iterations), "--seed", str(args.seed)]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)  # its progress on our stderr
    if done.returncode != 0:
        raise ValueError(f"python -m players review ended with {done.returncode}")
    made: dict[str, Any] = json.loads(done.stdout)
    return made


def main(argv: Sequence[str] | None = None) -> int:
    return quiet_broken_pipe(lambda: run(argv))


def run(argv: Sequence[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot review", description=__doc__, formatter_class=HelpFormatter)
    parser.add_argument("record", help="the game's record (JSON: /petersburg export, docs/record-format.md)")
    parser.add_argument("--picture", metavar="PNG", help="write the review's picture into this file")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="the words' and the picture's language")
    parser.add_argument("--review", metavar="JSON",
                        help="the review's figures saved by python -m players review RECORD --json (default: made now)")
    parser.add_argument("--iterations", type=positive_int, default=DEFAULT_ITERATIONS,
                        help="the strong player's search iterations a decision (when the review is made now)")
    parser.add_argument("--seed", type=int, default=0, help="the review's seed (when it is made now)")
    args = parser.parse_args(argv)
    try:
        record = load_record(args.record)
    except ValueError as e:
        parser.error(str(e))
    try:
        review = figures(args)
        if len(review.get("chances", ())) != len(record.actions) + 1:
            raise ValueError(f"{args.review}: not the review of {args.record}")
    except OSError as e:
        print(f"error: cannot read {args.review}: {e.strerror or e}", file=sys.stderr)
        return 2
    except (ValueError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    r = replay_of(record)
    names = list(record.seats)
    print(t("bot.review_title", args.lang, game=game_number(args.record)))
    for line in review_lines(review, r, names, args.lang):
        print(line)
    if args.picture:
        from render import render_review

        data = {**chart_data(review, r, names), "game": game_number(args.record)}
        try:
            Path(args.picture).write_bytes(render_review(data, args.lang))
        except OSError as e:
            print(f"error: cannot write {args.picture}: {e.strerror or e}", file=sys.stderr)
            return 2
        print(f"picture: {args.picture}")
    return 0
