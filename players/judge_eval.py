"""The review's position estimate (``judge``): each seat's chance to win where a valuation playout stops.

It is the strong player's estimate (``eval.Outlook.worth``) with one difference: a card in the hand counts
what playing it is expected to bring, not the -5 it costs if it is never played. The search needs the -5
(any credit for a later play made it hoard cards), but a judge that counted it would read every card taken
into the hand as a loss of 5 VP until the playout happens to play it: with playouts cut short, the strong
player's takes and its passes (it holds cards to play later) were labelled as mistakes. A hand card's
expected play is what the card would bring in the tableau (``Outlook.card_value``: its income over the
scorings still to come, its aristocrat gain; a trading card over the best card it may displace) less its
price at the money's worth, never less than the -5 of keeping it; in the last round a card the seat cannot
pay is the -5.
"""

from __future__ import annotations

import math

from rules.cards import CardType
from rules.prices import can_displace, price
from rules.state import GameState

from .eval import HAND_PENALTY, Outlook, final_rewards
from .parts_eval import PURPLE

# the share of a hand card's expected gain from its play that counts while it waits in the hand: playing it
# still takes an action and money the seat may want elsewhere (at 1, a take looked better than every pass
# that the normal level made instead: 38 of its 67 blunders in 6 games were such passes)
HAND_PLAY = 0.5


def hand_card_value(out: Outlook, seat: int, t: CardType) -> float:
    """What card ``t`` in ``seat``'s hand is expected to bring by being played (VP; a gain counts
    ``HAND_PLAY`` of it), at least -HAND_PENALTY."""
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
        return HAND_PLAY * value if value > 0.0 else value
    cost = price(st, seat, t, False)
    if last and cost > st.rubles[seat]:
        return -float(HAND_PENALTY)
    value = max(-float(HAND_PENALTY), out.card_value(seat, t, None) - cost * w)
    return HAND_PLAY * value if value > 0.0 else value


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
