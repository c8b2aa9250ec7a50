"""The review of a finished game by the strong player: every real decision judged from what its seat
knew then (docs/review.md has the method, the thresholds and the figures).

For each decision of a record (an action with more than one legal move) the review

1. searches the position from the mover's view with the strong player's search (``search.search``, a
   fixed number of iterations, everything the mover could not see re-dealt each iteration by
   ``hidden.determinize``) for its candidates: its most visited moves;
2. values the played move and each candidate on equal footing (``judge``): the same ``simulations``
   determinizations of the mover's view, each move applied in each, then the same seeded playout, and
   each seat's chance to win at its end; a move's value is the mean over them;
3. prefers the candidate of the highest value when its lead over the played move is more than noise,
   and labels the drop of the mover's chance from the preferred to the played move by the factor it
   multiplies the odds of winning with, on lichess's thresholds at an even two-player game
   (``equivalent_drop``; at the fair share 1/n these are the drops ``thresholds(n)``).

Every random choice comes from generators seeded by (seed, index): a review is the same on every
machine and never reads the real stacks after the decision, the other hands or hidden money. Pure: it
imports ``rules`` and ``players`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from rules import DRAWN, HAND, GameState, Ruleset, apply, legal_moves, parse_for
from rules.actions import KINDS, PASS, Action
from rules.record import GameRecord, notation

from .judge import CONFIDENCE, DEFAULT_ITERATIONS, Judgement, judge, simulations, value_action
from .labels import LABELS, accuracy_of, equivalent_drop, label_of, thresholds

__all__ = [
    "DEFAULT_ITERATIONS",
    "LABELS",
    "DecisionReview",
    "GameReview",
    "SeatSummary",
    "accuracy_of",
    "chances_after",
    "chances_of",
    "decisions_to_judge",
    "equivalent_drop",
    "label_of",
    "review_decision",
    "review_game",
    "simulations",
    "summarize",
    "thresholds",
    "value_of",
]


@dataclass(frozen=True)
class DecisionReview:
    index: int  # index of the judged action in the record's actions (0-based)
    seat: int
    round: int
    phase: str  # the phase key as in the state
    played: str  # the action's notation, as in the record
    preferred: str  # the notation of the move the strong player preferred (== played when it agrees)
    before: float  # the mover's chance to win with the preferred move (0..1)
    after: float  # the mover's chance to win after the played move (0..1)
    label: str | None  # None or one of LABELS
    preferred_public: bool  # naming the preferred move to other members reveals nothing hidden at that time
    # each seat's chance to win after the played move (the material of GameReview.chances)
    chances: tuple[float, ...] = field(default=())
    # the standard error of before - after (0..1), from the paired simulations of the two moves
    error: float = 0.0
    # the simulations of the played and the preferred move (at least ``simulations(iterations)``, more where
    # the label needed them; 0: that least count)
    simulations: int = 0

    @property
    def drop(self) -> float:
        """The drop of the mover's chance to win beyond noise, in points of 100: before - after less
        ``judge.CONFIDENCE`` standard errors (0 when the played move is preferred)."""
        return max(0.0, 100.0 * (self.before - self.after - CONFIDENCE * self.error))

    @property
    def equivalent(self) -> float:
        """``drop`` as its two-player equivalent (``equivalent_drop``): labels and accuracy come from it."""
        return equivalent_drop(self.before, self.before - self.drop / 100.0)

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "chances": list(self.chances)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> DecisionReview:
        return cls(
            int(d["index"]),
            int(d["seat"]),
            int(d["round"]),
            str(d["phase"]),
            str(d["played"]),
            str(d["preferred"]),
            float(d["before"]),
            float(d["after"]),
            None if d.get("label") is None else str(d["label"]),
            bool(d["preferred_public"]),
            tuple(float(c) for c in d.get("chances", ())),
            float(d.get("error", 0.0)),
            int(d.get("simulations", 0)),
        )


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    accuracy: float  # 0-100: the mean of its decisions' accuracies (100 without a judged decision)
    inaccuracies: int
    mistakes: int
    blunders: int
    decisions: int  # its judged decisions

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SeatSummary:
        return cls(
            int(d["seat"]),
            float(d["accuracy"]),
            int(d["inaccuracies"]),
            int(d["mistakes"]),
            int(d["blunders"]),
            int(d["decisions"]),
        )


@dataclass(frozen=True)
class GameReview:
    decisions: list[DecisionReview]
    seats: list[SeatSummary]
    # each seat's chance to win at the start (entry 0) and after each action of the record (entry i + 1
    # after action i): len == number of actions + 1 (``chances_of``)
    chances: list[list[float]]
    iterations: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": [d.to_json() for d in self.decisions],
            "seats": [s.to_json() for s in self.seats],
            "chances": [list(c) for c in self.chances],
            "iterations": self.iterations,
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameReview:
        return cls(
            [DecisionReview.from_json(x) for x in d["decisions"]],
            [SeatSummary.from_json(x) for x in d["seats"]],
            [[float(c) for c in row] for row in d["chances"]],
            int(d["iterations"]),
            int(d["seed"]),
        )


def _is_choice(st: GameState) -> bool:
    return not st.finished and len(legal_moves(st)) > 1


def decisions_to_judge(record: GameRecord) -> list[int]:
    """The indices of the record's actions that were real choices (more than one legal move)."""
    st = record.start()
    out = []
    for i, text in enumerate(record.actions):
        if _is_choice(st):
            out.append(i)
        apply(st, parse_for(st, text))
    return out


def state_before(record: GameRecord, index: int) -> GameState:
    """The position in which the record's action ``index`` was made."""
    if not 0 <= index < len(record.actions):
        raise IndexError(f"the record has no action {index}")
    st = record.start()
    for text in record.actions[:index]:
        apply(st, parse_for(st, text))
    return st


def preferred_is_public(ruleset: Ruleset, preferred: Action, played: Action) -> bool:
    """Whether naming ``preferred`` to the other members reveals nothing hidden at the time: the played move
    was shown anyway; a card from the hand or one drawn with the Observatory (with hidden hands), or an
    expansion's decision, may reveal a hidden hand, card or assignment; with hidden money, a move with a
    price or VP bought at a Pub tells what the mover could afford (also with open hands: they show the card,
    not the money). Passing and the base game's moves without price are public."""
    if preferred == played:
        return True
    if preferred.kind not in KINDS:
        return False
    if preferred.row in (HAND, DRAWN) and not ruleset.open_hands:  # a hand card, the Observatory's card
        return False
    if preferred.kind == PASS or ruleset.open_money:
        return True
    return preferred.kind in ("take", "observe", "discard")


def review_position(
    st: GameState, index: int, action: Action, *, iterations: int = DEFAULT_ITERATIONS, seed: int = 0
) -> DecisionReview:
    """The review of the decision at ``st`` (the record's action ``index``), where ``action`` was played."""
    seat = st.decider
    found: Judgement = judge(st, action, iterations=iterations, seed=seed, index=index)
    preferred = found.preferred
    before = found.values[preferred][seat]
    after = found.values[action][seat]
    error = found.error if preferred != action else 0.0
    drop = max(0.0, before - after - CONFIDENCE * error)
    return DecisionReview(
        index=index,
        seat=seat,
        round=st.round,
        phase=st.phase_key,
        played=notation(st, action),
        preferred=notation(st, preferred),
        before=before,
        after=after,
        label=label_of(equivalent_drop(before, before - drop)),
        preferred_public=preferred_is_public(st.ruleset, preferred, action),
        chances=tuple(found.values[action]),
        error=error,
        simulations=found.simulations,
    )


def review_decision(
    record: GameRecord, index: int, *, iterations: int = DEFAULT_ITERATIONS, seed: int = 0
) -> DecisionReview:
    """The review of the record's action ``index`` (one of ``decisions_to_judge``): its
    ``chances`` are each seat's chance to win after it (``chances_of`` builds the game's curve from them)."""
    st = state_before(record, index)
    if not _is_choice(st):
        raise ValueError(f"action {index} was forced: it is not judged")
    return review_position(st, index, parse_for(st, record.actions[index]), iterations=iterations, seed=seed)


def value_of(
    record: GameRecord,
    index: int,
    action: str,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    simulations: int = 0,
) -> float:
    """The mover's chance to win after playing ``action`` (notation) at the record's action ``index``, on
    the same footing as ``review_decision``'s figures (the same determinizations and playouts, as many as
    the decision's ``simulations``): for a puzzle, compare it with the decision's ``before`` and ``after``."""
    st = state_before(record, index)
    found = value_action(
        st, parse_for(st, action), iterations=iterations, seed=seed, index=index, count=simulations
    )
    return found[st.decider]


def chances_after(
    record: GameRecord, index: int, *, iterations: int = DEFAULT_ITERATIONS, seed: int = 0
) -> list[float]:
    """Each seat's chance to win after the record's action ``index``, judged from the mover's view (the
    same figures as ``review_decision(...).chances``; a forced action is valued too)."""
    st = state_before(record, index)
    return value_action(st, parse_for(st, record.actions[index]), iterations=iterations, seed=seed, index=index)


def chances_of(record: GameRecord, decisions: list[DecisionReview]) -> list[list[float]]:
    """Each seat's chance to win at the start (1/n each) and after every action: after a judged decision
    its ``chances``, after a forced action the previous entry, and after the last action of a finished game
    the result (1 shared among the winners)."""
    st = record.start()
    n = st.n
    by_index = {d.index: d for d in decisions}
    out = [[1.0 / n] * n]
    for i, text in enumerate(record.actions):
        apply(st, parse_for(st, text))
        d = by_index.get(i)
        out.append(list(d.chances) if d is not None and d.chances else list(out[-1]))
    if st.finished and st.winners:
        out[-1] = [1.0 / len(st.winners) if s in st.winners else 0.0 for s in range(n)]
    return out


def summarize(
    record: GameRecord,
    decisions: list[DecisionReview],
    chances: list[list[float]] | None = None,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
) -> GameReview:
    """The game's review from its decisions' reviews: each seat's accuracy (the mean of ``accuracy_of``
    over its judged decisions) and counts of labels. ``chances`` (None: ``chances_of``)."""
    n = len(record.seats)
    ordered = sorted(decisions, key=lambda d: d.index)
    seats = []
    for s in range(n):
        own = [d for d in ordered if d.seat == s]
        accuracy = sum(accuracy_of(d.equivalent) for d in own) / len(own) if own else 100.0
        seats.append(
            SeatSummary(
                s,
                round(accuracy, 1),
                sum(d.label == "inaccuracy" for d in own),
                sum(d.label == "mistake" for d in own),
                sum(d.label == "blunder" for d in own),
                len(own),
            )
        )
    return GameReview(ordered, seats, chances if chances is not None else chances_of(record, ordered), iterations, seed)


def review_game(
    record: GameRecord,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """The review of every real decision of a finished game; ``progress(done, total)`` is called before
    the first and after each decision."""
    todo = decisions_to_judge(record)
    total = len(todo)
    judged = set(todo)
    if progress is not None:
        progress(0, total)
    st = record.start()
    out: list[DecisionReview] = []
    for i, text in enumerate(record.actions):
        action = parse_for(st, text)
        if i in judged:
            out.append(review_position(st, i, action, iterations=iterations, seed=seed))
            if progress is not None:
                progress(len(out), total)
        apply(st, action)
    return summarize(record, out, iterations=iterations, seed=seed)
