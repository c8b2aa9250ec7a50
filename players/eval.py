"""Evaluation knowledge for the computer players: what a legal move should bring over the rest of the
game (for the greedy players and the search's playouts) and what a position is worth (to cut playouts
short). Move values read card data, public facts and the deciding seat's own hand and money; the
position estimate reads every seat's (it is only used on the search's determinizations). No edition
or module switches.

The estimates follow the rulebooks' own advice (seed 000 "Tipps und taktische Bemerkungen"): workers
early, expensive buildings are cheaper per point, keep some money for the trading phase, and a card
left in hand costs 5 VP.
"""

from __future__ import annotations

import math

from rules.actions import BUY, OBSERVE, PLAY, PUB, TAKE, Move
from rules.cards import RED, CardType
from rules.state import GameState

HAND_PENALTY = 5  # rules-notes 14: each card left in hand at the end
CARDS_PER_ROUND = 6  # about how many cards of each stack a round uses


class Outlook:
    """Per-position figures every move estimate needs, computed once per decision."""

    __slots__ = ("st", "rounds", "money", "scorings", "table", "_reds", "_colours")

    def __init__(self, st: GameState) -> None:
        self.st = st
        rounds = 1.0 if st.ending else 1.0 + min(len(d) for d in st.decks.values()) / CARDS_PER_ROUND
        self.rounds = rounds  # rounds still to play, this one included
        # What a ruble is worth in VP: much early (it buys cards), a tenth at the very end.
        self.money = max(0.1, min(1.0, 0.35 * (rounds - 1.0)))
        later = max(0.0, rounds - 1.0)
        # Scorings of each colour still to come (this round's only if its phase is not over yet).
        self.scorings = {
            p.scores: later + (1.0 if st.phase <= i else 0.0) for i, p in enumerate(st.ruleset.phases) if p.scores
        }
        self.table = st.ruleset.catalogue.aristocrat_table
        self._reds: dict[int, set[str]] = {}  # per seat: the names of its red cards
        self._colours: dict[tuple[int, str], int] = {}  # (seat, colour): cards of that colour

    def reds(self, seat: int) -> set[str]:
        found = self._reds.get(seat)
        if found is None:
            cards = self.st.cards
            found = self._reds[seat] = {cards[c].id for c in self.st.tableaux[seat] if cards[c].colour == RED}
        return found

    def colour_count(self, seat: int, colour: str) -> int:
        found = self._colours.get((seat, colour))
        if found is None:
            cards = self.st.cards
            found = self._colours[seat, colour] = sum(1 for c in self.st.tableaux[seat] if cards[c].colour == colour)
        return found

    def income(self, seat: int, t: CardType) -> float:
        """What card ``t`` in ``seat``'s tableau should still bring (income, bonuses, abilities)."""
        k = self.scorings.get(t.colour, 0.0)
        w = self.money
        value = k * (t.vp + t.rubles * w)
        if t.bonus_per is not None:
            per = self.colour_count(seat, t.bonus_per)
            value += k * per * (t.bonus_vp + t.bonus_rubles * w)
        if t.discount is not None:
            value += 1.5 * self.rounds
        if t.ability == "pub":
            value += 0.5 * self.rounds
        if t.hand_limit_bonus:
            value += 0.5
        return value

    def aristocrat_gain(self, seat: int, t: CardType, displaced: CardType | None) -> float:
        """The final-scoring value a red card adds by being a new distinct aristocrat."""
        if t.colour != RED:
            return 0.0
        names = self.reds(seat)
        table = self.table
        before = len(names)
        after = before + (t.id not in names)
        if displaced is not None and displaced.id in names and displaced.id != t.id:
            after -= 1  # (a trading card displaces one copy; as in the greedy player, its name goes)
        return float(table[min(after, len(table) - 1)] - table[min(before, len(table) - 1)])

    def card_value(self, seat: int, t: CardType, displaced: CardType | None) -> float:
        value = self.income(seat, t) + self.aristocrat_gain(seat, t, displaced)
        if displaced is not None:
            value -= self.income(seat, displaced)
        return value

    def score(self, move: Move) -> float:
        """The heuristic value of ``move`` for the deciding player (higher is better; pass is 0)."""
        a = move.action
        st = self.st
        seat = st.decider
        w = self.money
        by_id = st.ruleset.catalogue.by_id
        kind = a.kind
        if kind in (BUY, PLAY):
            value = self.card_value(seat, by_id[a.card], by_id[a.target] if a.target else None) - move.price * w
            if kind == PLAY:
                value += HAND_PENALTY  # the card leaves the hand
            return value
        if kind == TAKE:
            if self.rounds <= 1.0:
                return -HAND_PENALTY
            t = by_id[a.card]
            best = self.card_value(seat, t, None) if not t.trading else self.income(seat, t) * 0.6
            return 0.3 * best - 0.4 * HAND_PENALTY - t.cost * w * 0.3
        if kind == PUB:
            return a.amount * (1.0 - 2 * w) if w < 0.5 else -float(a.amount)
        if kind == OBSERVE:
            return 0.5
        return 0.0  # pass, discard

    def worth(self, seat: int) -> float:
        """Expected final VP of ``seat``: VP so far, what its cards and money should still bring, its
        aristocrat bonus, and its hand cards (partly redeemable while rounds remain)."""
        st = self.st
        cards = st.cards
        tableau = st.tableaux[seat]
        value = float(st.vp[seat]) + st.rubles[seat] * (self.money if self.rounds > 1.0 else 0.1)
        names = set()
        for c in tableau:
            t = cards[c]
            value += self.income(seat, t)
            if t.colour == RED:
                names.add(t.id)
        table = self.table
        value += table[min(len(names), len(table) - 1)]
        redeem = 0.5 if self.rounds > 1.0 else 0.0
        for c in st.hands[seat]:
            value += -HAND_PENALTY + redeem * min(2 * HAND_PENALTY, max(0.0, self.income(seat, cards[c])))
        return value


def final_rewards(st: GameState) -> list[float]:
    """A finished game: 1 shared equally among the winners (ties counted as fractional wins)."""
    share = 1.0 / len(st.winners)
    return [share if s in st.winners else 0.0 for s in range(st.n)]


def estimated_rewards(st: GameState, spread: float) -> list[float]:
    """Each seat's chance to win, guessed from the expected final VP (a softmax with ``spread`` VP)."""
    if st.finished:
        return final_rewards(st)
    out = Outlook(st)
    worth = [out.worth(s) for s in range(st.n)]
    top = max(worth)
    exps = [math.exp((w - top) / spread) for w in worth]
    total = sum(exps)
    return [e / total for e in exps]
