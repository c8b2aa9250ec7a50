"""Computer players: a greedy heuristic that values each legal move by what it should bring over the
rest of the game. Deterministic for a given state (ties broken by a seeded generator).

The estimate follows the rulebooks' own advice (seed 000 "Tipps und taktische Bemerkungen"): workers
early, expensive buildings are cheaper per point, keep some money for the trading phase, and a card
left in hand costs 5 VP.
"""

from __future__ import annotations

import random

from .actions import BUY, DISCARD, OBSERVE, PLAY, PUB, TAKE, Action, Move
from .cards import RED, CardType
from .engine import HAND_PENALTY, legal_moves
from .state import GameState

CARDS_PER_ROUND = 6  # about how many cards of each stack a round uses


def rounds_left(st: GameState) -> float:
    """A rough count of the rounds still to play, this one included (the shortest stack decides)."""
    if st.ending:
        return 1.0
    shortest = min(len(d) for d in st.decks.values())
    return 1.0 + shortest / CARDS_PER_ROUND


def _scorings_left(st: GameState, colour: str) -> float:
    """Scorings of ``colour`` still to come (this round's only if its phase has not been scored yet)."""
    idx = next(i for i, p in enumerate(st.ruleset.phases) if p.scores == colour)
    this_round = 1.0 if st.phase <= idx else 0.0
    return max(0.0, rounds_left(st) - 1.0) + this_round


def _money_weight(st: GameState) -> float:
    """What a ruble is worth in VP: much early (it buys cards), a tenth at the very end."""
    return max(0.1, min(1.0, 0.35 * (rounds_left(st) - 1.0)))


def _income_value(st: GameState, seat: int, t: CardType) -> float:
    k = _scorings_left(st, t.colour)
    value = k * (t.vp + t.rubles * _money_weight(st))
    if t.bonus_per is not None:
        per = sum(1 for c in st.tableaux[seat] if st.cards[c].colour == t.bonus_per)
        value += k * per * (t.bonus_vp + t.bonus_rubles * _money_weight(st))
    if t.discount is not None:
        value += 1.5 * rounds_left(st)
    if t.ability == "pub":
        value += 0.5 * rounds_left(st)
    if t.hand_limit_bonus:
        value += 0.5
    return value


def _aristocrat_bonus(st: GameState, seat: int, t: CardType, displaced: CardType | None) -> float:
    """The final-scoring value a red card adds by being a new distinct aristocrat."""
    if t.colour != RED:
        return 0.0
    names = {st.cards[c].id for c in st.tableaux[seat] if st.cards[c].colour == RED}
    before = len(names)
    if displaced is not None:
        names.discard(displaced.id)
    names.add(t.id)
    table = st.ruleset.catalogue.aristocrat_table
    return float(table[min(len(names), len(table) - 1)] - table[min(before, len(table) - 1)])


def _card_value(st: GameState, seat: int, t: CardType, target: str) -> float:
    displaced = st.ruleset.catalogue.by_id[target] if target else None
    value = _income_value(st, seat, t) + _aristocrat_bonus(st, seat, t, displaced)
    if displaced is not None:
        value -= _income_value(st, seat, displaced)
    return value


def score_move(st: GameState, move: Move) -> float:
    """The heuristic value of ``move`` for the deciding player (higher is better; pass is 0)."""
    a = move.action
    seat = st.decider
    w = _money_weight(st)
    cat = st.ruleset.catalogue
    if a.kind in (BUY, PLAY):
        value = _card_value(st, seat, cat.by_id[a.card], a.target) - move.price * w
        if a.kind == PLAY:
            value += HAND_PENALTY  # the card leaves the hand
        return value
    if a.kind == TAKE:
        t = cat.by_id[a.card]
        best = _card_value(st, seat, t, "") if not t.trading else _income_value(st, seat, t) * 0.6
        if rounds_left(st) <= 1.0:
            return -HAND_PENALTY
        return 0.3 * best - 0.4 * HAND_PENALTY - t.cost * w * 0.3
    if a.kind == PUB:
        return a.amount * (1.0 - 2 * w) if w < 0.5 else -a.amount
    if a.kind == OBSERVE:
        return 0.5
    if a.kind == DISCARD:
        return 0.0
    return 0.0  # pass


def choose(st: GameState, rng: random.Random | None = None) -> Action:
    """The computer player's decision for the deciding player (ties broken at random)."""
    moves = legal_moves(st)
    if not moves:
        raise ValueError("the game is over")
    rng = rng or random.Random(st.action_count)
    scored = [(score_move(st, m), rng.random(), i) for i, m in enumerate(moves)]
    return moves[max(scored)[2]].action
