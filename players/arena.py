"""A tournament of computer levels: seeded games with seat rotation, win rates with 95 % Wilson
intervals, mean VP, cards left in hand and time per move. A script that prints figures
(``python -m players arena``).

Seating: the levels fill the seats in the order given, the last one repeated to fill the table
(``strong normal`` at 4 players is one strong against three normal); game ``g`` deals the stacks
from ``seed + g // players`` and turns the seating ``g % players`` seats on, so each deal is played
from every seat. A shared win counts as a fractional win (1/k for each of k winners). A level on
several seats of a game is counted per seat (its seats' results are not independent then).
"""

from __future__ import annotations

import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import TextIO

from rules import apply, new_game
from rules.ruleset import Ruleset

from .ai import decide, search_config
from .trees import TREES


@dataclass(slots=True)
class Tally:
    seats: int = 0  # seat-games played
    wins: float = 0.0  # fractional wins
    vp: int = 0
    moves: int = 0
    seconds: float = 0.0
    iterations: int = 0  # search iterations, over the moves that searched
    searched: int = 0  # moves that searched (more than one legal move)
    held: int = 0  # cards left in hand at the end (-5 VP each, BG-14)

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass(slots=True)
class ArenaResult:
    games: int
    tallies: dict[str, Tally] = field(default_factory=dict)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate (fractional wins allowed)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def lineup(levels: list[str], players: int, game: int) -> list[str]:
    """The level at each seat in game ``game``."""
    filled = levels + [levels[-1]] * (players - len(levels))
    turn = game % players
    return filled[-turn:] + filled[:-turn] if turn else filled


def editions_for(players: int, expansions: tuple[str, ...], modules: tuple[int, ...]) -> tuple[int, ...]:
    """The editions a ruleset with these parts exists in (both for the base game; ValueError if none)."""
    found = []
    errors = []
    for ed in (1, 2):
        try:
            Ruleset(edition=ed, players=players, expansions=expansions, modules=modules)
        except ValueError as e:
            errors.append(f"edition {ed}: {e}")
            continue
        found.append(ed)
    if not found:
        raise ValueError("; ".join(errors))
    return tuple(found)


def check_setup(
    levels: list[str], players: int, edition: int, expansions: tuple[str, ...], modules: tuple[int, ...]
) -> tuple[int, ...]:
    """The editions a tournament of these levels and parts plays (``edition`` 0: every one they exist in);
    ValueError saying why when there is none, or a level is not one, or the levels do not fit the seats."""
    for lv in levels:
        search_config(lv)  # ValueError: not a level
    if not 1 <= len(levels) <= players:
        raise ValueError(f"give 1 to {players} levels for {players} players")
    eds = (edition,) if edition else editions_for(players, expansions, modules)
    Ruleset(edition=eds[0], players=players, expansions=expansions, modules=modules)  # ValueError: not a ruleset
    return eds


ARENA_BUDGET_S = 0.2  # a move's search in the arena when neither its time nor its iterations are given


def play(
    levels: list[str],
    players: int = 4,
    games: int = 8,
    seed: int = 0,
    edition: int = 0,
    budget_s: float | None = None,
    iterations: int | None = None,
    out: TextIO | None = None,
    market: bool = False,
    expansions: tuple[str, ...] = (),
    modules: tuple[int, ...] = (),
    jobs: int = 1,
) -> ArenaResult:
    """Play the tournament; ``edition`` 0 alternates the editions deal by deal where the parts allow
    both (``market``: the Market, 2nd edition only; ``expansions``: further keys, e.g. "new_society";
    ``modules``: 1-6, X-02; ``jobs``: games played at once in worker processes, reported in order). A search
    is bounded by ``budget_s`` seconds (0.2 when neither bound is given) or exactly ``iterations``, which alone
    makes the games the same on any machine."""
    if budget_s is None and iterations is None:
        budget_s = ARENA_BUDGET_S
    expansions = (("market",) if market else ()) + tuple(expansions)
    eds = check_setup(levels, players, edition, expansions, modules)
    result = ArenaResult(games, {lv: Tally() for lv in levels})
    specs = [
        GameSpec(
            g,
            seed,
            eds[(seed + g // players) % len(eds)],
            lineup(levels, players, g),
            expansions,
            modules,
            budget_s,
            iterations,
        )
        for g in range(games)
    ]
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        played = pool.map(play_game, specs) if pool is not None else map(play_game, specs)
        for spec, (vp, winners, tallies) in zip(specs, played, strict=True):
            for lv, tally in tallies.items():
                result.tallies[lv].add(tally)
            if out is not None:
                won = ", ".join(spec.seating[s] for s in winners)
                print(
                    f"game {spec.game + 1}/{games} (edition {spec.edition}, deal {spec.deal}): {vp} won by {won}",
                    file=out,
                    flush=True,
                )
    return result


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a tournament: plain data, so that a worker process can play it (``--jobs``)."""

    game: int
    seed: int
    edition: int
    seating: list[str]
    expansions: tuple[str, ...]
    modules: tuple[int, ...]
    budget_s: float | None
    iterations: int | None

    @property
    def deal(self) -> int:
        return self.seed + self.game // len(self.seating)


def play_game(spec: GameSpec) -> tuple[list[int], list[int], dict[str, Tally]]:
    """Play one game; its final VP, its winners and each level's tally of it."""
    players = len(spec.seating)
    ruleset = Ruleset(edition=spec.edition, players=players, expansions=spec.expansions, modules=spec.modules)
    st = new_game(ruleset, [f"{lv} {i + 1}" for i, lv in enumerate(spec.seating)], spec.deal)
    rngs = [random.Random(f"{spec.seed}/{spec.game}/{i}") for i in range(players)]
    tallies = {lv: Tally() for lv in spec.seating}
    key = ("arena", spec.seed, spec.game)  # the strong search's trees are kept per game (players.trees)
    while not st.finished:
        s = st.decider
        t0 = time.perf_counter()
        decision = decide(
            st, s, spec.seating[s], rngs[s], budget_s=spec.budget_s, iterations=spec.iterations, tree_key=key
        )
        tally = tallies[spec.seating[s]]
        tally.seconds += time.perf_counter() - t0
        tally.moves += 1
        tally.iterations += decision.iterations
        tally.searched += decision.iterations > 0
        apply(st, decision.action)
    TREES.forget(key)
    for s, lv in enumerate(spec.seating):
        tally = tallies[lv]
        tally.seats += 1
        tally.vp += st.vp[s]
        tally.held += len(st.hands[s])
        if s in st.winners:
            tally.wins += 1 / len(st.winners)
    return list(st.vp), sorted(st.winners), tallies


def report(result: ArenaResult) -> str:
    """The table of win rates, intervals, mean VP, cards left in hand and time per move."""
    lines = [
        f"{'level':<12} {'seats':>5} {'win rate':>8} {'95% CI':>15} {'mean VP':>8} {'in hand':>7} {'s/move':>8}"
        f" {'iter/move':>9}"
    ]
    for lv, t in result.tallies.items():
        lo, hi = wilson(t.wins, t.seats)
        seats = t.seats or 1  # per seat-game (no seats: all 0)
        rate, vp, held = t.wins / seats, t.vp / seats, t.held / seats
        per_move = t.seconds / t.moves if t.moves else 0.0
        its = f"{t.iterations / t.searched:.0f}" if t.searched else "-"
        lines.append(
            f"{lv:<12} {t.seats:>5} {rate:>8.1%} {f'{lo:.1%} - {hi:.1%}':>15} {vp:>8.1f} {held:>7.2f} {per_move:>8.3f}"
            f" {its:>9}"
        )
    lines.append("Shared wins count as fractional wins; a level on several seats is counted per seat.")
    lines.append("in hand: cards left in hand at the end, per seat-game (-5 VP each).")
    lines.append("s/move: wall clock per decision (forced moves included); iter/move: per searched decision.")
    return "\n".join(lines)
