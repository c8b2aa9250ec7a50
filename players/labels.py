"""The review's labels and accuracy of a decision from the drop of the mover's chance to win
(docs/review.md, Thresholds and Accuracy): lichess's two-player thresholds, carried to n players by the
factor a drop multiplies the odds of winning with."""

from __future__ import annotations

import math

LABELS = ("inaccuracy", "mistake", "blunder")
# Lichess's drops of the mover's chance to win (points of 100) at two players for an inaccuracy, a mistake
# and a blunder; at n players each is the drop that changes the odds of winning as much from the fair share
# 1/n (``thresholds``)
TWO_PLAYER_THRESHOLDS = (5.0, 10.0, 15.0)


def thresholds(players: int) -> tuple[float, float, float]:
    """The drops (points of 100) of the mover's chance to win from which a decision is an inaccuracy, a
    mistake and a blunder at ``players`` seats: at the fair share 1/n, the drop that multiplies the odds of
    winning by as much as lichess's 5, 10 and 15 points do at an even two-player game (50 % to 45, 40, 35)."""
    fair = 1.0 / players
    odds = fair / (1.0 - fair)
    out = []
    for t in TWO_PLAYER_THRESHOLDS:
        factor = (50.0 - t) / (50.0 + t)
        after = factor * odds / (1.0 + factor * odds)
        out.append(round(100.0 * (fair - after), 2))
    return out[0], out[1], out[2]


# Chances count as at least FLOOR: a seat far behind is still judged by the factor its move multiplies its
# chance with (the softmax of the estimated VP makes that factor the VP it gives up, however far behind);
# a seat whose chance is below it in both positions (the playouts ended the game without it) is not judged
FLOOR = 1e-12


def equivalent_drop(before: float, after: float) -> float:
    """The drop of the mover's chance to win from ``before`` to ``after`` (0..1) as its two-player
    equivalent in points of 100: the drop from 50 % that multiplies the odds of winning by the same factor.
    A seat far behind still loses by a poor move (at 2 %, one that halves its chance is a 17-point drop);
    at the fair share 1/n, ``thresholds(n)`` are the drops equivalent to lichess's 5, 10 and 15 points.
    Above an even chance the move's factor on the chance itself counts, as if from 50 % (``after / before``
    times 50 %): a leader that gives up some of its margin but keeps winning has lost little (from 99 % to
    98 % is a 0.5-point drop; the odds of losing, doubled, would call it a blunder)."""
    b = max(FLOOR, before)
    a = max(FLOOR, after)
    if a >= b:
        return 0.0
    if b > 0.5:
        a, b = 0.5 * a / b, 0.5
    ratio = (a / (1.0 - a)) / (b / (1.0 - b))
    return 100.0 * (0.5 - ratio / (1.0 + ratio))


def label_of(equivalent: float) -> str | None:
    """The label of a decision whose drop is ``equivalent`` points at two players (``equivalent_drop``)."""
    label = None
    for name, t in zip(LABELS, TWO_PLAYER_THRESHOLDS, strict=True):
        if equivalent >= t:
            label = name
    return label


def accuracy_of(equivalent: float) -> float:
    """A decision's accuracy (0-100): lichess's per-move formula ``103.1668 * exp(-0.04354 * d) - 3.1669``
    on its two-player equivalent drop d (points of 100, ``equivalent_drop``)."""
    d = max(0.0, equivalent)
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * d) - 3.1669))
