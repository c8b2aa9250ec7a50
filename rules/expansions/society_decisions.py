"""The decisions of In bester Gesellschaft / Module 2 (X-07) and their notation (X-09):

guild_hall 3 VP        the Guild Hall's 4 split: 3 VP and 1 ruble (M2-09)
trading_house yes      pay 3 rubles at the Trading House for 2 VP (M2-03); ``trading_house no``
sycophant keep 1       keep one Sycophant for 1 ruble, discard the others (M2-05)

The Guild Hall and the Trading House are settled after building scoring with the Pub (X-05:
``Hooks.settle``); the Sycophants after aristocrat scoring (scoring step 'sycophant').
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from ..actions import Action, Move
from ..base import settle_next
from ..cards import Catalogue
from ..errors import NotationError, RuleError
from ..flow import discard, resume_after
from ..hooks import Checked, Decision, Event, Events, Formatter, Notation, Parser
from ..scoring import buy_vp, gain_vp, vp_cards
from ..state import GameState, Pending

GUILD_HALL: Final = "guild_hall"
TRADING_HOUSE: Final = "trading_house"
SYCOPHANT: Final = "sycophant"
GUILD_HALL_SPLIT: Final = 4  # M2-09
TRADING_HOUSE_PRICE: Final = 3  # M2-03
TRADING_HOUSE_VP: Final = 2
SYCOPHANT_FEE: Final = 1  # M2-05


def _owns(st: GameState, seat: int, ability: str) -> list[int]:
    cards = st.cards
    return [c for c in st.tableaux[seat] if cards[c].ability == ability]


def has_guild_hall(st: GameState, seat: int) -> bool:
    return bool(_owns(st, seat, GUILD_HALL))


def has_trading_house(st: GameState, seat: int) -> bool:
    """M2-03: a Trading House that may sell VP (a covered one sells none, AMB-17(e)) and the 3 rubles to use
    it (else there is nothing to decide)."""
    return st.rubles[seat] >= TRADING_HOUSE_PRICE and vp_cards(st, seat, TRADING_HOUSE) > 0


def guild_hall_vp(st: GameState, seat: int) -> int:
    """M2-09, AMB-17(e): the most VP the seat's Guild Hall split may take: 4, or 0 when it is covered (its 4
    are rubles then)."""
    return GUILD_HALL_SPLIT if vp_cards(st, seat, GUILD_HALL) else 0


def _plain(action: Action, kind: str) -> None:
    if action.kind != kind or action.card or action.row != -1 or action.target or action.good:
        raise RuleError("wrong_decision", pending=kind)


class GuildHallDecision(Decision):
    """M2-09 (AMB-11): at each building scoring the owner takes k VP and 4 - k rubles (k = 0..4),
    settled before his Pub and Trading House (X-05); a covered Guild Hall only 4 rubles (AMB-17(e)).
    Absent player: as many VP as it may give (X-07)."""

    kind = GUILD_HALL

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return [Move(Action(GUILD_HALL, amount=k), 0) for k in range(guild_hall_vp(st, p.seat) + 1)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        _plain(action, GUILD_HALL)
        most = guild_hall_vp(st, p.seat)
        if not 0 <= action.amount <= most:
            raise RuleError("guild_hall_split" if most else "guild_hall_no_vp", max=most)
        return -1, -1, 0

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        vp = action.amount
        rubles = GUILD_HALL_SPLIT - vp
        st.rubles[p.seat] += rubles
        events: list[Event] = [{"type": GUILD_HALL, "seat": p.seat, "vp": vp, "rubles": rubles}]
        if vp:
            gain_vp(st, p.seat, vp, GUILD_HALL, events)  # M6-19: through the obstacles, which tell
        stats = st.stats[p.seat]
        stats["buildings_rubles"] = stats.get("buildings_rubles", 0) + rubles
        stats["buildings_vp"] = stats.get("buildings_vp", 0) + vp
        settle_next(st, p, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(GUILD_HALL, amount=guild_hall_vp(st, p.seat))


class TradingHouseDecision(Decision):
    """M2-03 (AMB-13): right after building scoring, once, the owner may pay 3 rubles for 2 VP,
    after his Guild Hall and Pub (X-05); not at a covered Trading House (AMB-17(e)). Absent player: no
    (X-07)."""

    kind = TRADING_HOUSE

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        out = [Move(Action(TRADING_HOUSE, amount=0), 0)]
        if st.rubles[p.seat] >= TRADING_HOUSE_PRICE and vp_cards(st, p.seat, TRADING_HOUSE):
            out.insert(0, Move(Action(TRADING_HOUSE, amount=1), TRADING_HOUSE_PRICE))
        return out

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        _plain(action, TRADING_HOUSE)
        if action.amount not in (0, 1):
            raise RuleError("wrong_decision", pending=TRADING_HOUSE)
        if action.amount and not vp_cards(st, p.seat, TRADING_HOUSE):
            raise RuleError("trading_house_no_vp")
        price = TRADING_HOUSE_PRICE * action.amount
        if price > st.rubles[p.seat]:
            raise RuleError("trading_house_rubles", price=price, rubles=st.rubles[p.seat])
        return -1, -1, price

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        price = checked[2]
        vp = TRADING_HOUSE_VP if action.amount else 0
        events: list[Event] = [{"type": TRADING_HOUSE, "seat": p.seat, "vp": vp, "rubles": price, "none": not vp}]
        if vp:
            buy_vp(st, p.seat, vp, price, TRADING_HOUSE, events)  # M6-19: through the obstacles, which tell
        settle_next(st, p, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(TRADING_HOUSE, amount=0)


# --- the Sycophants (M2-05, AMB-10) ------------------------------------------------------------------
def sycophant_step(st: GameState, events: Events) -> bool:
    """Scoring step 'sycophant', after the aristocrats' income: each owner, from the Bust holder (the
    phase's start player), keeps each Sycophant for 1 ruble or discards it."""
    start = st.tokens[st.ruleset.phases[st.phase].token]
    return _next_sycophants(st, [(start + i) % st.n for i in range(st.n)], events)


def _next_sycophants(st: GameState, queue: list[int], events: Events) -> bool:
    """Open the next owner's decision; one who cannot pay for any discards them at once (M2-05)."""
    queue = list(queue)
    while queue:
        seat = queue.pop(0)
        owned = _owns(st, seat, SYCOPHANT)
        if not owned:
            continue
        if st.rubles[seat] >= SYCOPHANT_FEE:
            st.pending = Pending(SYCOPHANT, seat, queue=queue)
            return True
        _settle_sycophants(st, seat, 0, events)
    return False


def _settle_sycophants(st: GameState, seat: int, keep: int, events: Events) -> None:
    owned = _owns(st, seat, SYCOPHANT)
    fee = SYCOPHANT_FEE * keep
    st.rubles[seat] -= fee
    stats = st.stats[seat]
    stats["aristocrats_rubles"] = stats.get("aristocrats_rubles", 0) - fee
    for c in owned[keep:]:
        st.tableaux[seat].remove(c)
        discard(st, c)
    if events is not None:
        events.append(
            {"type": SYCOPHANT, "seat": seat, "kept": keep, "discarded": len(owned) - keep, "rubles": fee}
        )


class SycophantDecision(Decision):
    """M2-05 (AMB-10): keep k of one's Sycophants (1 ruble each, k affordable), discard the rest.
    Absent player: keep as many as affordable (X-07)."""

    kind = SYCOPHANT

    def _most(self, st: GameState, p: Pending) -> int:
        return min(len(_owns(st, p.seat, SYCOPHANT)), st.rubles[p.seat] // SYCOPHANT_FEE)

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return [Move(Action(SYCOPHANT, amount=k), SYCOPHANT_FEE * k) for k in range(self._most(st, p), -1, -1)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        _plain(action, SYCOPHANT)
        most = self._most(st, p)
        if not 0 <= action.amount <= most:
            raise RuleError("sycophant_keep", max=most)
        return -1, -1, SYCOPHANT_FEE * action.amount

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        events: list[Event] = []
        _settle_sycophants(st, p.seat, action.amount, events)
        st.pending = None
        if not _next_sycophants(st, p.queue, events):
            resume_after(st, SYCOPHANT, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(SYCOPHANT, amount=self._most(st, p))


# --- notation ----------------------------------------------------------------------------------------
_NUMBER = re.compile(r"^\s*(\d+)\s*(?:vp|sp)?\s*$", re.I)
_KEEP = re.compile(r"^\s*(?:keep\s+)?(\d+)\s*$", re.I)
_YES = {"yes": 1, "ja": 1, "no": 0, "nein": 0}


def _parse_guild_hall(text: str, rest: str, cat: Catalogue) -> Action:
    m = _NUMBER.match(rest)
    if m is None:
        raise NotationError(text, "guild_hall needs the VP to take (0 to 4), e.g. 'guild_hall 3 VP'")
    return Action(GUILD_HALL, amount=int(m.group(1)))


def _parse_trading_house(text: str, rest: str, cat: Catalogue) -> Action:
    word = rest.strip().casefold()
    if word not in _YES:
        raise NotationError(text, "trading_house needs yes or no")
    return Action(TRADING_HOUSE, amount=_YES[word])


def _parse_sycophant(text: str, rest: str, cat: Catalogue) -> Action:
    m = _KEEP.match(rest)
    if m is None:
        raise NotationError(text, "sycophant needs how many to keep, e.g. 'sycophant keep 1'")
    return Action(SYCOPHANT, amount=int(m.group(1)))


def _format(kind: str) -> Callable[[Action, Catalogue, str], str]:
    def fmt(a: Action, cat: Catalogue, lang: str) -> str:
        if kind == GUILD_HALL:
            return f"{GUILD_HALL} {a.amount} VP"
        if kind == TRADING_HOUSE:
            return f"{TRADING_HOUSE} {'yes' if a.amount else 'no'}"
        return f"{SYCOPHANT} keep {a.amount}"

    return fmt


def notation() -> Notation:
    from .debtors_prison import PRISON, format_prison, parse_prison

    parsers: dict[str, Parser] = {
        GUILD_HALL: _parse_guild_hall,
        TRADING_HOUSE: _parse_trading_house,
        SYCOPHANT: _parse_sycophant,
        PRISON: parse_prison,
    }
    formatters: dict[str, Formatter] = {k: _format(k) for k in (GUILD_HALL, TRADING_HOUSE, SYCOPHANT)}
    formatters[PRISON] = format_prison
    return Notation(parsers=parsers, formatters=formatters)
