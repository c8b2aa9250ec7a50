"""Evaluation knowledge for the computer players: what a legal move should bring over the rest of the
game (for the greedy players and the search's playouts) and what a position is worth (to cut playouts
short). Move values read card data, public facts and the deciding seat's own hand and money; the
position estimate reads every seat's (it is only used on the search's determinizations). No edition
switches; what an expansion adds is valued by its own module (the Market: ``market_eval``; In bester
Gesellschaft and Modules 1 to 6: ``parts_eval``).

The estimates follow the rulebooks' own advice (seed 000 "Tipps und taktische Bemerkungen"): workers
early, expensive buildings are cheaper per point, keep some money for the trading phase, and a card
left in hand costs 5 VP.
"""

from __future__ import annotations

import math
from typing import Final

from rules.actions import BUY, OBSERVE, PLAY, PUB, TAKE, Move
from rules.cards import GREEN, RED, CardType
from rules.expansions.assignments import KEY as MODULE5
from rules.expansions.banquet import KEY as BANQUET
from rules.expansions.module6 import KEY as MODULE6
from rules.expansions.society import beyond_ten
from rules.ruleset import Ruleset
from rules.state import GameState

from . import parts_eval as parts
from .market_eval import MarketOutlook, market_outlook, roundels
from .parts_eval import PURPLE

HAND_PENALTY: Final = 5  # BG-14: each card left in hand at the end
CARDS_PER_ROUND: Final = 6  # about how many cards of each stack a round uses


class Outlook:
    """Per-position figures every move estimate needs, computed once per decision."""

    __slots__ = (
        "st", "rounds", "money", "scorings", "scored", "counts", "table", "market", "purple", "module5", "module6",
        "_reds_seat", "_reds", "_colours", "_aims", "_symbols", "_needs", "_ids", "_last_type", "_last_value",
        "_last_roundel", "_last_gain",
    )

    def __init__(self, st: GameState) -> None:
        self.st = st
        decks = st.decks
        left = -1
        for name in st.ruleset.decks:  # the keys of st.decks (rules.flow.new_game)
            size = len(decks[name])
            if left < 0 or size < left:
                left = size
        rounds = 1.0 if st.ending else 1.0 + left / CARDS_PER_ROUND
        self.rounds = rounds  # rounds still to play, this one included
        # What a ruble is worth in VP: much early (it buys cards), a tenth at the very end.
        self.money = max(0.1, min(1.0, 0.35 * (rounds - 1.0)))
        later = max(0.0, rounds - 1.0)
        # Scorings of each colour still to come (this round's only if its phase is not over yet), and the
        # aristocrat table: the same for every position of a ruleset at one phase and stage (``_Static``).
        fixed = _static(st.ruleset)
        if fixed.phase != st.phase or fixed.later != later:  # else as for the last position asked (a playout's)
            scorings = {colour: later + (1.0 if st.phase <= i else 0.0) for i, colour in fixed.scored}
            fixed.phase = st.phase
            fixed.later = later
            fixed.last = scorings
            fixed.colours = list(scorings)
            fixed.counts = list(scorings.values())
        self.scorings = fixed.last  # shared: read only
        scorings = fixed.last
        # The same as two lists, for ``scorings_of``: a few colours, found by identity (card data is interned)
        self.scored = fixed.colours
        self.counts = fixed.counts
        self.table = fixed.table
        ext = st.ext
        if ext:
            self.market: MarketOutlook | None = market_outlook(st, scorings)
            self.purple = BANQUET in ext  # purple hand cards (Module 1, the Banquet)
            self.module5 = MODULE5 in ext  # the seats' assignments
            self.module6 = MODULE6 in ext  # the obstacles on the VP track
        else:
            self.market = None
            self.purple = self.module5 = self.module6 = False
        # Made on first use: most positions of a playout ask for few of them.
        self._reds_seat = -1  # the seat whose red cards' names ``_reds`` holds (the deciding seat's, in ``score``)
        self._reds = _NO_NAMES
        self._colours: dict[tuple[int, str], int] | None = None  # (seat, colour): cards of that colour
        self._aims: dict[int, list[int]] | None = None  # per seat: its assignments (Module 5)
        self._symbols: dict[tuple[int, str], int] | None = None  # (seat, symbol): green cards with that symbol
        self._needs: dict[int, tuple[dict[str, int], float]] | None = None  # per seat: its next obstacle's lacks
        self._ids: dict[int, set[str]] | None = None  # per seat: the names of its cards
        # The card type of the last move scored that was placed displacing nothing, its ``card_value`` and, with
        # the Market, its roundel and ``card_gain``: the move to take the same card, listed right after it
        # (rules.moves.offer_rows), reuses them.
        self._last_type: CardType | None = None
        self._last_value = 0.0
        self._last_roundel: str | None = None
        self._last_gain = 0.0

    def symbol_count(self, seat: int, symbol: str) -> int:
        symbols = self._symbols
        if symbols is None:
            symbols = self._symbols = {}
        found = symbols.get((seat, symbol))
        if found is None:
            cards = self.st.cards
            found = symbols[seat, symbol] = sum(
                1 for c in self.st.tableaux[seat] if cards[c].colour == GREEN and symbol in cards[c].symbols
            )
        return found

    def needs(self, seat: int) -> tuple[dict[str, int], float]:
        needs = self._needs
        if needs is None:
            needs = self._needs = {}
        found = needs.get(seat)
        if found is None:
            found = needs[seat] = parts.obstacle_needs(self, seat)
        return found

    def owns(self, seat: int, card_id: str) -> bool:
        ids = self._ids
        if ids is None:
            ids = self._ids = {}
        found = ids.get(seat)
        if found is None:
            cards = self.st.cards
            found = ids[seat] = {cards[c].id for c in self.st.tableaux[seat]}
        return card_id in found

    def top_vp(self, seat: int, colour: str) -> int:
        """The most VP printed on a card of ``colour`` in ``seat``'s tableau (0: none)."""
        cards = self.st.cards
        top = 0
        found = False
        for c in self.st.tableaux[seat]:
            t = cards[c]
            if t.colour == colour and (not found or t.vp > top):
                top = t.vp
                found = True
        return top

    def aims(self, seat: int) -> list[int]:
        """The seat's assignments (Module 5; only the deciding seat's own are asked for in ``score``)."""
        aims = self._aims
        if aims is None:
            aims = self._aims = {}
        found = aims.get(seat)
        if found is None:
            found = aims[seat] = parts.m5.dealt(self.st, seat) if self.module5 else []
        return found

    def penalty_relief(self, seat: int, t: CardType | None) -> float:
        """What getting rid of hand card ``t`` (None: the seat's worst) saves: the -5 at the end, less
        what it could still bring if played."""
        if t is None:
            cards = self.st.cards
            hand = [cards[c] for c in self.st.hands[seat] if cards[c].colour != PURPLE]
            if not hand:
                return 0.0
            return max(self.penalty_relief(seat, h) for h in hand)
        redeem = 0.5 * min(2 * HAND_PENALTY, max(0.0, self.income(seat, t))) if self.rounds > 1.0 else 0.0
        return HAND_PENALTY - redeem

    def reds(self, seat: int) -> set[str]:
        """The names of ``seat``'s red cards (kept for the seat asked for last)."""
        if self._reds_seat != seat:
            cards = self.st.cards
            self._reds = {cards[c].id for c in self.st.tableaux[seat] if cards[c].colour == RED}
            self._reds_seat = seat
        return self._reds

    def scorings_of(self, colour: str) -> float:
        """The scorings of ``colour`` still to come (``scorings``)."""
        scored = self.scored
        for i in range(len(scored)):
            if scored[i] is colour:  # the card data's colours are the literals' objects (rules.cards interns them)
                return self.counts[i]
        for i in range(len(scored)):
            if scored[i] == colour:
                return self.counts[i]
        return 0.0

    def colour_count(self, seat: int, colour: str) -> int:
        colours = self._colours
        if colours is None:
            colours = self._colours = {}
        found = colours.get((seat, colour))
        if found is None:
            cards = self.st.cards
            found = colours[seat, colour] = sum(1 for c in self.st.tableaux[seat] if cards[c].colour == colour)
        return found

    def income(self, seat: int, t: CardType) -> float:
        """What card ``t`` in ``seat``'s tableau should still bring (income, bonuses, abilities)."""
        k = self.scorings_of(t.colour)
        w = self.money
        value = k * (t.vp + t.rubles * w)
        per_colour = t.bonus_per
        if t.ability is not None or t.discounts or per_colour is not None:
            value += parts.ability_income(self, seat, t, k, w)
            if per_colour is not None and not per_colour.startswith("symbol:"):
                value += k * self.colour_count(seat, per_colour) * (t.bonus_vp + t.bonus_rubles * w)
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
        if self.module5:
            value += parts.assignment_progress(self, seat, t)
        if self.module6:
            value += parts.obstacle_gain(self, seat, t)
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
        m = self.market
        # the commonest kind first: take (about half the moves), then buy
        if kind == TAKE:
            if self.rounds <= 1.0:
                return -HAND_PENALTY
            last = self._last_type
            t = last if last is not None and last.id == a.card else by_id[a.card]
            if t.colour == PURPLE:
                return parts.hold(self, seat, t)
            if t.trading:
                best = self.income(seat, t) * 0.6
            else:
                best = self._last_value if t is last else self.card_value(seat, t, None)
            if m is not None and not t.trading:
                roundel = roundels(st, a, t, None)[0]
                if t is last and roundel == self._last_roundel:
                    best += self._last_gain
                else:
                    best += m.card_gain(seat, t, roundel, w)
            return 0.3 * best - 0.4 * HAND_PENALTY - t.cost * w * 0.3
        if kind in (BUY, PLAY):
            t = by_id[a.card]
            if t.colour == PURPLE:
                return parts.purple_play(self, seat, a, t)
            displaced = by_id[a.target] if a.target else None
            value = self.card_value(seat, t, displaced)
            if displaced is None:
                self._last_type = t
                self._last_value = value
            value -= move.price * w
            if m is not None:
                new, old = roundels(st, a, t, displaced)
                gain = m.card_gain(seat, t, new, w)
                if displaced is None:
                    self._last_roundel = new
                    self._last_gain = gain
                value += gain
                if displaced is not None:
                    value -= m.displaced_loss(seat, displaced, old)
            if kind == PLAY:
                value += HAND_PENALTY  # the card leaves the hand
            return value
        if kind == PUB:
            return a.amount * (1.0 - 2 * w) if w < 0.5 else -float(a.amount)
        if kind == OBSERVE:
            return 0.5
        if m is not None:
            found = m.decision(seat, a, move.price, w)
            if found is not None:
                return found
        if kind != "pass":
            found = parts.decision(self, seat, move)
            if found is not None:
                return found
        return 0.0  # pass, discard (the Market's release)

    def worth(self, seat: int) -> float:
        """Expected final VP of ``seat``: VP so far, what its cards and money should still bring, its
        aristocrat bonus, and the penalty of the cards in its hand."""
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
        for c in st.hands[seat]:
            t = cards[c]
            # A card still in hand counts its penalty; what playing it brings is the playouts' to find. (Any
            # credit for a later play made the search hoard cards: 2.1 left in hand at the end.)
            value += parts.hold(self, seat, t) if t.colour == PURPLE else -HAND_PENALTY
        if self.market is not None:
            value += self.market.worth(seat, self.money if self.rounds > 1.0 else 0.1)
        if self.module5:
            value += parts.best_assignment(self, seat)
        if self.module6 and parts.is_blocked(self, seat):
            value -= parts.BLOCKED * max(0.0, value - st.vp[seat])
        return value


_NO_NAMES: Final[set[str]] = set()  # (never changed)


class _Static:
    """What ``Outlook`` reads of a ruleset: the phases that score (index, colour), the aristocrat table, and
    the scorings still to come of the last position asked for (at ``phase`` with ``later`` rounds after this)."""

    __slots__ = ("ruleset", "scored", "table", "phase", "later", "last", "colours", "counts")

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset  # kept alive, so its id is not reused while cached
        self.scored = [(i, p.scores) for i, p in enumerate(ruleset.phases) if p.scores]
        self.table = parts.extended_table(ruleset.catalogue.aristocrat_table, beyond_ten in ruleset.hooks.final)
        self.phase = -1
        self.later = -1.0
        self.last: dict[str, float] = {}
        self.colours: list[str] = []  # ``last`` as two lists
        self.counts: list[float] = []


_STATIC: Final[dict[int, _Static]] = {}


_LAST: Final[list[_Static]] = []  # the one asked for last (a playout's steps ask for the same one)


def _static(ruleset: Ruleset) -> _Static:
    if _LAST and _LAST[0].ruleset is ruleset:
        return _LAST[0]
    found = _STATIC.get(id(ruleset))
    if found is None or found.ruleset is not ruleset:
        if len(_STATIC) > 256:  # rulesets made anew (tests, the bot's games): keep the cache small
            _STATIC.clear()
        found = _STATIC[id(ruleset)] = _Static(ruleset)
    if _LAST:
        _LAST[0] = found
    else:
        _LAST.append(found)
    return found


def final_rewards(st: GameState) -> list[float]:
    """A finished game: 1 shared equally among the winners (ties counted as fractional wins)."""
    share = 1.0 / len(st.winners)
    return [share if s in st.winners else 0.0 for s in range(st.n)]


def estimated_rewards(st: GameState, spread: float, margin: float = 0.0) -> list[float]:
    """Each seat's chance to win, guessed from the expected final VP (a softmax with ``spread`` VP);
    with ``margin`` > 0 blended with ``margin_rewards`` of the expected final VP."""
    if st.finished:
        return blend(st, final_rewards(st), [float(v) for v in st.vp], spread, margin)
    out = Outlook(st)
    worth = [out.worth(s) for s in range(st.n)]
    top = max(worth)
    exps = [math.exp((w - top) / spread) for w in worth]
    total = sum(exps)
    return blend(st, [e / total for e in exps], worth, spread, margin)


def margin_rewards(points: list[float], spread: float) -> list[float]:
    """Per seat, a reward in (0, 1) growing with its lead over the best other seat (a logistic with
    four times ``spread`` VP): a gradient for every seat, also those far from winning (max-n for more
    than two players gets one for every opponent's move too)."""
    out = []
    for s, p in enumerate(points):
        best_other = max(q for o, q in enumerate(points) if o != s)
        out.append(1.0 / (1.0 + math.exp(-(p - best_other) / (4 * spread))))
    return out


def blend(st: GameState, wins: list[float], points: list[float], spread: float, margin: float) -> list[float]:
    if margin <= 0.0:
        return wins
    margins = margin_rewards(points, spread)
    return [(1.0 - margin) * w + margin * m for w, m in zip(wins, margins, strict=True)]
