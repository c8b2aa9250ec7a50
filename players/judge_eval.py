"""The review's position estimate (``judge``): each seat's chance to win where a valuation playout stops.

It is the strong player's estimate (``eval.Outlook.worth``) with one difference: a card in the hand counts
what playing it is expected to bring, not the -5 it costs if it is never played. The search needs the -5
(any credit for a later play made it hoard cards), but a judge that counted it would read every card taken
into the hand as a loss of 5 VP until the playout happens to play it: with playouts cut short, the strong
player's takes and its passes (it holds cards to play later) were labelled as mistakes. A hand card's
expected play is what the card would bring in the tableau (``Outlook.card_value``: its income over the
scorings still to come, its aristocrat gain; a trading card over the best card it may displace) less its
price at the money's worth; while it waits in the hand a gain counts ``HAND_PLAY`` of it, less
``HAND_HOLD`` for holding it, never less than the -5 of keeping it; in the last round a card the seat
cannot pay is the -5. Both figures are measured in play (``benchmarks/bench_hand_value.py``): a player
that takes a card into its hand whenever this value is the best of its moves plays best with them.
"""

from __future__ import annotations

import math

from rules.cards import CardType
from rules.prices import can_displace, price
from rules.state import GameState

from .eval import HAND_PENALTY, Outlook, final_rewards
from .parts_eval import PURPLE

# A card waiting in the hand: the share of its expected gain from play that counts (playing it still takes
# an action and money the seat may want elsewhere), and what holding it costs besides (VP). Measured in play
# (benchmarks/bench_hand_value.py: the greedy heuristic taking a card whenever this value is its best move,
# against two normal players, 1,200 games): with 0.45 and 3 it wins 36.5 % (a fair share is 33.3 %), the
# best of the values tried; with 0.5 and 0 (half the gain, nothing for holding it) 10.7 %, 19 VP a game behind:
# that value makes a take look better than a pass for every card of some gain.
HAND_PLAY = 0.45
HAND_HOLD = 3.0


def held(gain: float) -> float:
    """A hand card's value while it waits in the hand, from ``gain``, what playing it should bring (VP)."""
    return max(-float(HAND_PENALTY), (HAND_PLAY * gain if gain > 0.0 else gain) - HAND_HOLD)


def hand_card_value(out: Outlook, seat: int, t: CardType) -> float:
    """What card ``t`` in ``seat``'s hand is expected to bring by being played (VP; a gain counts
    ``HAND_PLAY`` of it, less ``HAND_HOLD``), at least -HAND_PENALTY."""
    st = out.st
    w = out.money
    last = out.rounds <= 1.0
    if t.trading:
        cards = st.cards
        value = -float(HAND_PENALTY)  # (the best target's gain)
        for c in st.tableaux[seat]:
            d = cards[c]
            if can_displace(t, d):
                cost = price(st, seat, t, False, d)
                if not (last and cost > st.rubles[seat]):
                    value = max(value, out.card_value(seat, t, d) - cost * w)
        return held(value)
    cost = price(st, seat, t, False)
    if last and cost > st.rubles[seat]:
        return -float(HAND_PENALTY)
    return held(out.card_value(seat, t, None) - cost * w)


def judge_worth(out: Outlook, seat: int) -> float:
    """Expected final VP of ``seat`` as the review judges a position: ``Outlook.worth`` with each hand card
    (but the Banquet's purple ones, valued there already) at its expected play (``hand_card_value``)."""
    st = out.st
    value = out.worth(seat)
    cards = st.cards
    for c in st.hands[seat]:
        t = cards[c]
        if t.colour != PURPLE:
            value += HAND_PENALTY + hand_card_value(out, seat, t)
    return value


def judge_chances(st: GameState, spread: float) -> list[float]:
    """Each seat's chance to win: 1 shared among the winners of a finished game, else the softmax over the
    seats' ``judge_worth`` with ``spread`` VP."""
    if st.finished:
        return final_rewards(st)
    out = Outlook(st)
    worth = [judge_worth(out, s) for s in range(st.n)]
    top = max(worth)
    exps = [math.exp((w - top) / spread) for w in worth]
    total = sum(exps)
    return [e / total for e in exps]
