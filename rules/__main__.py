"""Command line: play random games and replay game records.

python -m rules random [--players N] [--edition E] [--seed S] [--market] [--society] [--sp-plus]
    [--modules 1,2] [--out FILE]
python -m rules replay RECORD.json [--json]

The computer players have their own command line (``python -m players``: arena, think, and games of
computer players).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections.abc import Callable
from typing import Any

from .actions import Action, format_action
from .cliargs import HelpFormatter, pick_seed
from .engine import apply, legal_moves, new_game
from .record import GameRecord, ReplayError, replay
from .ruleset import Ruleset, module_key
from .state import GameState

Chooser = Callable[[GameState, random.Random], Action]


def play_random(
    ruleset: Ruleset,
    seed: int,
    choice_seed: int | None = None,
    choose: Chooser | None = None,
) -> tuple[GameRecord, GameState]:
    """A complete game with uniformly random legal moves (or ``choose(state, rng)``'s choices, e.g. a
    computer player's); returns its record and final state."""
    seats = [f"Player {i + 1}" for i in range(ruleset.players)]
    st = new_game(ruleset, seats, seed=seed)
    rng = random.Random(seed if choice_seed is None else choice_seed)
    rec = GameRecord(ruleset, seats, seed=seed)
    cat = ruleset.catalogue
    while not st.finished:
        action = choose(st, rng) if choose is not None else rng.choice(legal_moves(st)).action
        rec.actions.append(format_action(action, cat, seats=seats))
        apply(st, action)
    return rec, st


def summary(st: GameState) -> dict[str, Any]:
    cards = st.ruleset.catalogue.cards
    return {
        "finished": st.finished,
        "round": st.round,
        "phase": st.phase_key,
        "actions": st.action_count,
        "winners": [st.seats[s] for s in st.winners],
        "players": [
            {
                "name": st.seats[s],
                "vp": st.vp[s],
                "rubles": st.rubles[s],
                "vp_by_source": st.vp_by_source[s],
                "tableau": [cards[c].name_en for c in st.tableaux[s]],
                "hand": [cards[c].name_en for c in st.hands[s]],
            }
            for s in range(st.n)
        ],
    }


def print_summary(st: GameState) -> None:
    s = summary(st)
    state = "finished" if s["finished"] else f"in progress (round {s['round']}, {s['phase']} phase)"
    print(f"Game {state} after {s['actions']} actions.")
    for p in s["players"]:
        print(f"- {p['name']}: {p['vp']} VP, {p['rubles']} {'ruble' if p['rubles'] == 1 else 'rubles'}")
        print(f"  tableau: {', '.join(p['tableau']) or '-'}")
        if p["hand"]:
            print(f"  hand: {', '.join(p['hand'])}")
    if s["winners"]:
        print(f"Winner{'s' if len(s['winners']) > 1 else ''}: {', '.join(s['winners'])}")


def add_random_arguments(r: argparse.ArgumentParser) -> None:
    """The options of ``random`` (the players' ``random`` takes them too)."""
    r.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5),
                   help="how many players (5: with the Market or In bester Gesellschaft)")
    r.add_argument("--market", action="store_true", help="play with the Market (2nd edition; 2 to 5 players)")
    r.add_argument("--society", action="store_true", help="play with In bester Gesellschaft (1st edition; 2-5 players)")
    r.add_argument("--sp-plus", action="store_true", help="Yucata's SP+: 1st edition, only the 7 replacement cards")
    r.add_argument("--modules", default="", help="modules to play with, e.g. '1,2' (1: the Banquet, both editions)")
    r.add_argument("--edition", type=int, default=None, choices=(1, 2),
                   help="1 or 2 (default: the edition the expansions and modules are played with, else 2)")
    r.add_argument("--seed", type=int, default=None,
                   help="the game's seed: the shuffle, the deal and the moves (default: a new one, printed)")
    r.add_argument("--out", help="write the record to this file instead of standard output")


def parse_modules(text: str) -> tuple[int, ...]:
    """``--modules``: numbers separated by commas, e.g. ``1,2`` (ValueError naming the option otherwise)."""
    parts = [m.strip() for m in text.split(",") if m.strip()]
    if not all(m.isdigit() for m in parts):
        raise ValueError(f"--modules takes module numbers separated by commas, e.g. 1,2 (not {text!r})")
    return tuple(int(m) for m in parts)


def edition_for(keys: tuple[str, ...]) -> int:
    """The edition the parts ``keys`` are played with: the 2nd when it has them all, else the 1st when it does
    (In bester Gesellschaft, SP+), else the 2nd (whose refusal then says why)."""
    from .expansions import offered

    for edition in (2, 1):
        if set(keys) <= {e.key for e in offered(edition)}:
            return edition
    return 2


def random_ruleset(args: argparse.Namespace) -> Ruleset:
    """The ruleset ``add_random_arguments``' options name (ValueError where they do not fit)."""
    expansions = tuple(
        key for key, on in (("market", args.market), ("new_society", args.society),
                            ("new_society_replacements_only", args.sp_plus)) if on
    )
    modules = parse_modules(args.modules)
    edition = args.edition or edition_for(expansions + tuple(module_key(m) for m in modules))
    return Ruleset(edition=edition, players=args.players, expansions=expansions, modules=modules)


def write_record(rec: GameRecord, out: str | None) -> None:
    """The record into ``out``, or to standard output (OSError when ``out`` cannot be written)."""
    text = rec.dumps()
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)


def save_record(rec: GameRecord, out: str | None) -> int:
    """``write_record``, for a command's exit code: 0, or 2 with one line when ``out`` cannot be written."""
    try:
        write_record(rec, out)
    except OSError as e:
        if not out:  # standard output closed early (``| head``): quiet_broken_pipe ends it
            raise
        print(f"error: cannot write {out}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0


def quiet_broken_pipe(run: Callable[[], int]) -> int:
    """``run()``; output read by a command that stopped reading (``| head``) ends it quietly (as ``cat`` does)."""
    try:
        code = run()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to write at exit
        return 141  # 128 + SIGPIPE, as a shell reports a command ended by it
    return code


def announce_seed(args: argparse.Namespace) -> int:
    """The seed of a ``random`` game: ``--seed``, or a new one said on standard error (standard output
    carries the record)."""
    if args.seed is not None:
        return int(args.seed)
    seed = pick_seed(None)
    print(f"seed {seed} (--seed {seed} plays this game again)", file=sys.stderr, flush=True)
    return seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__, formatter_class=HelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("random", help="play a game with random legal moves and print its record",
                       description="Play a game with random legal moves and print its record (JSON).",
                       formatter_class=HelpFormatter)
    add_random_arguments(r)
    p = sub.add_parser("replay", help="replay a game record and print the final state",
                       description="Replay a game record and print the final state; an illegal action is "
                                   "named by its number (1: the first).", formatter_class=HelpFormatter)
    p.add_argument("record", help="the record's file (docs/record-format.md)")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")
    args = parser.parse_args(argv)

    if args.cmd == "random":
        try:
            ruleset = random_ruleset(args)
        except ValueError as e:
            r.error(str(e))
        rec, _ = play_random(ruleset, announce_seed(args))
        return save_record(rec, args.out)

    try:
        with open(args.record, encoding="utf-8") as f:
            rec = GameRecord.loads(f.read())
        st = replay(rec)
    except OSError as e:
        print(f"error: cannot read {args.record}: {e.strerror}", file=sys.stderr)
        return 2
    except ValueError as e:
        print(f"error: {args.record}: {e}", file=sys.stderr)
        return 2
    except ReplayError as e:
        print(f"error: {args.record}: action {e.index + 1} ({e.text!r}) is illegal: {e.error.message} "
              f"[{e.error.code}]", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary(st), ensure_ascii=False, indent=1))
    else:
        print_summary(st)
    return 0


if __name__ == "__main__":
    sys.exit(quiet_broken_pipe(main))
