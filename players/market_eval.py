"""What the computer players know of the Market (MK-18 ... MK-43): the
marketplace positions and the value tiles still to come, crates and what keeping them costs, and the
"?" goods. Used by ``eval.Outlook`` when the state has the Market; the data and the positions come
from ``rules.expansions.market``.

A good's standing for a seat is the marketplace VP it should still bring: for each scoring to come
the tile's higher value times a guess at the chance to be first (or tied first) and the lower value
times a guess at the chance to be a clear second, both smooth in the lead over the best other seat,
so a symbol that does not change today's ranking is still worth something. Crates count for the next
scoring only, at the price of the tile's higher value in rubles.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final

from rules.actions import Action
from rules.cards import CardType
from rules.expansions.market import (
    ANY,
    CRATE,
    KEY,
    YELLOW,
    free_goods,
    goods,
    mstate,
    positions,
    tiles,
    token_goods,
)
from rules.state import GameState

CONFIRM: Final = "confirm"  # the Market's decision kinds (rules.expansions.market_decisions)
AS: Final = "as"


@cache
def _tiles() -> tuple[tuple[int, int], ...]:
    return tuple(tiles())


@cache
def _goods() -> tuple[str, ...]:
    return goods()


# A tableau's positions (``pos``) by its cards, for the tableaux of one catalogue, without its "?" cards, and
# its "?" cards: a playout's steps change one tableau at a time, so most are asked for again. Shared: read only.
_KNOWN: Final[dict[tuple[int, ...], tuple[dict[str, int], tuple[int, ...]]]] = {}
_KNOWN_FOR: Final[list[object]] = [None]  # the catalogue of _KNOWN's tableaux


class _Seen:
    """A seat's tableau last asked for (a copy of its cards), with its entry in ``_KNOWN``: a tableau the
    previous position's seat had is found by comparing the lists, without making and hashing a tuple."""

    __slots__ = ("cards", "counts", "anys")

    def __init__(self, cards: list[int], counts: dict[str, int], anys: tuple[int, ...]) -> None:
        self.cards = cards
        self.counts = counts
        self.anys = anys


_SEEN: Final[list[_Seen]] = []  # per seat (of _KNOWN's catalogue)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


class MarketOutlook:
    """Per-position Market figures for ``eval.Outlook`` (positions computed once, on first use)."""

    __slots__ = ("st", "high", "low", "next_high", "next_low", "soft", "_pos", "goods", "_top")

    def __init__(self, st: GameState, scorings: float) -> None:
        self.st = st
        m = mstate(st)
        last = _LAST[0]  # (ruleset, its phase scoring the goods, start, scorings, figures, goods): one tuple
        rs = st.ruleset
        if last[0] is not rs:
            phase = next(i for i, p in enumerate(rs.phases) if p.scores == YELLOW)
            last = (rs, phase, -1, -1.0, last[4], _goods())
        start = m["tile"] if st.phase <= last[1] and not st.finished else m["tile"] + 1
        if start != last[2] or scorings != last[3]:
            last = (rs, last[1], start, scorings, _figures(start, scorings), last[5])
            _LAST[0] = last
        self.high, self.low, self.next_high, self.next_low, self.soft = last[4]
        self._pos: list[dict[str, int]] | None = None
        self.goods = last[5]
        # per good: the two highest positions (and their seats) and the third (``rivals``)
        self._top: dict[str, tuple[int, int, int, int, int]] | None = None

    def pos(self) -> list[dict[str, int]]:
        """Every seat's positions, as ``rules.expansions.market.positions`` counts them (MK-21, MK-23)."""
        if self._pos is None:
            st = self.st
            cat = st.ruleset.catalogue
            if _KNOWN_FOR[0] is not cat or len(_KNOWN) > 50_000:
                _KNOWN.clear()
                _SEEN.clear()
                _KNOWN_FOR[0] = cat
            markets = cat.markets
            held: dict[int, str] | None = None
            out = []
            seen = _SEEN
            for s in range(st.n):
                tableau = st.tableaux[s]
                if s < len(seen) and seen[s].cards == tableau:
                    counts = seen[s].counts
                    anys = seen[s].anys
                else:
                    key = tuple(tableau)
                    found = _KNOWN.get(key)
                    if found is None:
                        # the symbols of the cards with a roundel, and the "?" cards, whose good moves with its token
                        found = _KNOWN[key] = (positions(st, s, {}), tuple(c for c in key if markets[c] == ANY))
                    counts, anys = found
                    entry = _Seen(list(tableau), counts, anys)
                    if s < len(seen):
                        seen[s] = entry
                    else:
                        while len(seen) < s:  # (seats are asked for in order: never taken)
                            seen.append(entry)
                        seen.append(entry)
                if anys:  # MK-25: a "?" card counts 1 for its token's good
                    if held is None:
                        held = token_goods(st)
                    counts = dict(counts)
                    for c in anys:
                        good = held.get(c)
                        if good is not None:
                            counts[good] += 1
                out.append(counts)
            self._pos = out
        return self._pos

    def rivals(self, seat: int, good: str) -> tuple[int, int]:
        """The highest and second highest positions in ``good`` of the other seats."""
        top = self._top
        if top is None:
            top = self._top = {}
        found = top.get(good)
        if found is None:
            # the three highest positions, the first two with their seats (ties: the lower seat first)
            pos = self.pos()
            b1 = b2 = b3 = 0
            s1 = s2 = -1
            for s in range(self.st.n):
                p = pos[s][good]
                if s1 < 0 or p > b1:
                    b3, b2, s2 = b2, b1, s1
                    b1, s1 = p, s
                elif s2 < 0 or p > b2:
                    b3 = b2
                    b2, s2 = p, s
                elif p > b3:
                    b3 = p
            found = top[good] = (b1, s1, b2, s2, b3)
        b1, s1, b2, s2, b3 = found
        if seat == s1:
            return b2, b3
        if seat == s2:
            return b1, b3
        return b1, b2

    def standing(self, seat: int, good: str, mine: int, high: float, low: float, soft: float) -> float:
        """The VP ``seat`` should get from ``good`` with ``mine`` symbols of it (others as they are)."""
        if mine <= 0:
            return 0.0
        best, second_best = self.rivals(seat, good)
        first = _sigmoid((mine - best + 0.5) / soft)
        # a clear second, less likely the surer the seat is of the lead (monotonic while high >= 1.5 low,
        # as on every tile)
        second = (1.0 - first) * (1.0 - 0.5 * first) * _sigmoid((mine - second_best + 0.5) / soft)
        return high * first + low * second

    def gain(self, seat: int, good: str, symbols: int) -> float:
        """What ``symbols`` more (or fewer, if negative) of ``good`` bring ``seat`` over the scorings to come."""
        mine = self.pos()[seat][good]
        high, low, soft = self.high, self.low, self.soft
        return self.standing(seat, good, mine + symbols, high, low, soft) - self.standing(
            seat, good, mine, high, low, soft
        )

    def next_gain(self, seat: int, good: str, symbols: int) -> float:
        """The same for the next scoring alone, ranked nearly as it will be (a crate, MK-33)."""
        mine = self.pos()[seat][good]
        high, low = self.next_high, self.next_low
        return self.standing(seat, good, mine + symbols, high, low, 0.6) - self.standing(
            seat, good, mine, high, low, 0.6
        )

    def best_free(self, seat: int) -> float:
        """A "?" card's worth: one symbol of the best good token still free (MK-25)."""
        free = free_goods(self.st)
        return max((self.gain(seat, g, 1) for g in free), default=0.0)

    def card_gain(self, seat: int, t: CardType, roundel: str | None, money: float) -> float:
        """What card ``t`` (with ``roundel``) entering ``seat``'s tableau adds on the marketplace."""
        if roundel is None:
            return 0.0
        if roundel == ANY:
            return self.best_free(seat)
        if t.ability == CRATE:
            return self.next_gain(seat, roundel, t.market_count) - self.next_high * money
        return self.gain(seat, roundel, t.market_count)

    def displaced_loss(self, seat: int, t: CardType, roundel: str | None) -> float:
        """What a displaced card's symbols were worth on the marketplace."""
        if roundel is None or roundel == ANY:
            return 0.5 * self.best_free(seat) if roundel == ANY else 0.0
        return -self.gain(seat, roundel, -t.market_count)

    def decision(self, seat: int, a: Action, price: int, money: float) -> float | None:
        """The value of the Market's own decisions ("?" good, crate), None for any other action."""
        if a.kind == AS:
            return self.gain(seat, a.card, 1)
        if a.kind == CONFIRM:
            t = self.st.ruleset.catalogue.by_id[a.card]
            roundel = t.market[0] if t.market else None
            if roundel is None:
                return 0.0
            mine = self.pos()[seat][roundel]
            keep = self.standing(seat, roundel, mine, self.next_high, self.next_low, 0.3)
            drop = self.standing(seat, roundel, mine - t.market_count, self.next_high, self.next_low, 0.3)
            return keep - drop - price * money
        return None

    def worth(self, seat: int, money: float) -> float:
        """The marketplace VP ``seat`` should still get, less what its crates will cost."""
        value = 0.0
        mine = self.pos()[seat]
        for g in self.goods:
            value += self.standing(seat, g, mine[g], self.high, self.low, self.soft)
        cards = self.st.cards
        crates = sum(1 for c in self.st.tableaux[seat] if cards[c].ability == CRATE)
        return value - crates * self.next_high * money


def market_outlook(st: GameState, scorings: dict[str, float]) -> MarketOutlook | None:
    """The Market's figures if ``st`` has the Market, else None."""
    if KEY not in st.ext:
        return None
    return MarketOutlook(st, scorings.get(YELLOW, 0.0))


# What ``MarketOutlook`` reads of a ruleset and of the last position asked for (a playout's steps share them):
# the ruleset (kept alive, so that no other one is at its address), the index of its phase scoring the goods,
# the first tile to come and the scorings to come, the figures made of them (``_figures``) and the goods. One
# tuple, replaced whole.
_LAST: Final[list[tuple[object, int, int, float, tuple[float, float, float, float, float], tuple[str, ...]]]] = [
    (None, -1, -1, -1.0, (0.0, 0.0, 0.0, 0.0, 0.0), ())
]


def _figures(start: int, scorings: float) -> tuple[float, float, float, float, float]:
    """The tiles of the scorings still to come from tile ``start`` (the last one repeats, MK-18), the last
    one partly: their first and second place VP, those of the next scoring, and the lead in symbols that
    makes a place fairly sure (``MarketOutlook``'s figures)."""
    table = _tiles()
    high = low = 0.0
    k = 0
    left = scorings
    while left > 1e-9:
        share = min(1.0, left)
        h, lo = table[min(start + k, len(table) - 1)]
        high += share * h
        low += share * lo
        left -= share
        k += 1
    nxt = table[min(start, len(table) - 1)] if scorings > 0 else (0, 0)
    soft = 0.6 + 0.4 * scorings  # symbols of lead that make a place fairly sure
    return high, low, float(nxt[0]), float(nxt[1]), soft


def roundels(st: GameState, a: Action, t: CardType, displaced: CardType | None) -> tuple[str | None, str | None]:
    """The market roundels of the card an action places and of the card it displaces (MK-49: the
    action names the roundel of the target for a trading card, else of the card, where copies differ)."""
    if displaced is not None and t.trading:
        return _roundel(t, ""), _roundel(displaced, a.good)
    return _roundel(t, a.good), (_roundel(displaced, "") if displaced is not None else None)


def _roundel(ct: CardType, named: str) -> str | None:
    if named:
        return named
    return ct.market[0] if ct.market else None
