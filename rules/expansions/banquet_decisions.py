"""The Banquet's pending decisions (BQ-26, X-07) and the Pickpocket's notation (X-09)::

    pickpocket take Shepherd             pickpocket buy Bank (lower)         pickpocket decline
    double turn: buy Bank | take Shepherd | play Wharf over Ship Builder | pass  (twice)
    money collector: buy Harbor (lower) | play Bank    (the card placed at half price)
    black market: buy Harbor | take Harbor | discard Harbor   (a card of the discard pile)

Each decision lists its moves and accepts exactly those (the property tests hold ``check`` to
``legal_moves``); each has a default for an absent player (X-07).
"""

from __future__ import annotations

from ..actions import BUY, DISCARD, PASS, TAKE, Action, Move, format_action, parse_action
from ..cards import Catalogue
from ..checks import find, resolve_placement
from ..errors import NotationError, RuleError
from ..flow import after_turn, discard, place, placed_event
from ..hooks import Checked, Decision, Event, Notation
from ..moves import offers
from ..prices import seat_context
from ..state import DRAWN, HAND, LOWER, ROW_NAMES, UPPER, GameState, Pending
from .banquet import PICKPOCKET, bstate, is_purple, pickpocket_moves, to_box

HUGE = 10**9  # "any price": the full price of every placement, before the Money Collector halves it


def _line(st: GameState, seat: int, row: int) -> list[int]:
    return st.upper if row == UPPER else st.lower if row == LOWER else st.hands[seat] if row == HAND else st.discard


def _physical(st: GameState, seat: int, a: Action) -> int:
    """The card an accepted action names (a trading card's roundel names its target, MK-49)."""
    return find(st, _line(st, seat, a.row), a.card, "" if a.target else a.good)


def _accept(moves: list[Move], action: Action, kind: str) -> int:
    """The price of ``action`` if it is one of ``moves``; else RuleError."""
    for m in moves:
        if m.action == action:
            return m.price
    raise RuleError("wrong_decision", pending=kind)


def _take(st: GameState, seat: int, card: int, row: int, events: list[Event]) -> None:
    _line(st, seat, row).remove(card)
    st.hands[seat].append(card)
    stats = st.stats[seat]
    stats["taken"] = stats.get("taken", 0) + 1
    events.append({"type": "take", "seat": seat, "card": st.cards[card].id, "row": ROW_NAMES[row]})


def _place(st: GameState, seat: int, a: Action, card: int, price: int, events: list[Event]) -> int:
    """Lay out ``card`` as ``a`` says at ``price``; returns the displaced card (-1: none)."""
    _, target, _ = resolve_placement(st, seat, card, a, lower=a.row == LOWER)
    _line(st, seat, a.row).remove(card)
    events.append(placed_event(a.kind, seat, st.cards[card], price, a.row, target, st.cards))
    place(st, seat, card, target, price, events)
    return target


# --- Pickpocket --------------------------------------------------------------------------------------
class PickpocketDecision(Decision):
    """BQ-21/22, AMB-21: at a phase's start, before the start player, the holder may play the
    Pickpocket to buy or take one card of the display, at no action (not a pass, tokens stay).
    Absent player: decline (X-07)."""

    kind = PICKPOCKET

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        out = [
            Move(Action(PICKPOCKET, m.action.card, m.action.row, m.action.target, 1 if m.action.kind == BUY else 2,
                        m.action.good), m.price)
            for m in pickpocket_moves(st, p.seat)
        ]
        out.append(Move(Action(PICKPOCKET), 0))
        return out

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        price = _accept(self.moves(st, p), action, self.kind)
        if not action.card:
            return -1, -1, 0
        return _physical(st, p.seat, action), -1, price

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        st.pending = None
        seat = p.seat
        if not action.card:
            return [{"type": "note", "key": "log.bq_pickpocket_decline", "seat": seat, "cards": {}, "params": {}}]
        hand = st.hands[seat]
        pocket = next(c for c in hand if st.cards[c].ability == PICKPOCKET)
        hand.remove(pocket)
        to_box(st, pocket)
        card, _, price = checked
        events: list[Event] = [
            {"type": "note", "key": "log.bq_pickpocket", "seat": seat, "cards": {"card": st.cards[pocket].id},
             "params": {}}
        ]
        # The start player moves next (AMB-21: he may be the Pickpocket's player himself): the extra
        # action stands just before his turn, and the phase may end if it emptied the display.
        st.to_move = (st.to_move - 1) % st.n
        if action.amount == 1:
            _place(st, seat, _inner(action), card, price, events)
        else:
            _take(st, seat, card, action.row, events)
        after_turn(st, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(PICKPOCKET)


def _inner(a: Action) -> Action:
    """The buy or take inside a ``pickpocket`` action."""
    return Action(BUY if a.amount == 1 else TAKE, a.card, a.row, a.target, 0, a.good)


def _parse_pickpocket(text: str, rest: str, cat: Catalogue) -> Action:
    if rest.strip().casefold() == "decline":
        return Action(PICKPOCKET)
    inner = parse_action(rest, cat)
    if inner.kind not in (BUY, TAKE):
        why = "the Pickpocket buys or takes a card: 'pickpocket take Shepherd' or 'pickpocket decline'"
        raise NotationError(text, why)
    return Action(PICKPOCKET, inner.card, inner.row, inner.target, 1 if inner.kind == BUY else 2, inner.good)


def _format_pickpocket(a: Action, cat: Catalogue, lang: str) -> str:
    if not a.card:
        return "pickpocket decline"
    return f"pickpocket {format_action(_inner(a), cat, lang)}"


# --- Double Turn -----------------------------------------------------------------------------------------
class DoubleTurnDecision(Decision):
    """BQ-14, AMB-22: each of the two sub-actions is a buy, a take, a play from the hand (no purple
    card) or a pass; no Observatory. A sub-action's pass is no pass of the turn. Absent player: pass."""

    kind = "double_turn"

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        seat = p.seat
        ctx = seat_context(st, seat)
        out: list[Move] = []
        take = len(st.hands[seat]) < ctx.hand_limit
        offers(ctx, st, ((UPPER, st.upper), (LOWER, st.lower), (HAND, st.hands[seat])), st.rubles[seat], take, out)
        out.append(Move(Action(PASS), 0))
        return out

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        price = _accept(self.moves(st, p), action, self.kind)
        if action.kind == PASS:
            return -1, -1, 0
        return _physical(st, p.seat, action), -1, price

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        st.pending = None
        seat = p.seat
        bstate(st)["double"] -= 1
        card, _, price = checked
        events: list[Event] = []
        if action.kind == PASS:
            events.append({"type": "pass", "seat": seat})
        elif action.kind == TAKE:
            _take(st, seat, card, action.row, events)
        else:
            _place(st, seat, action, card, price, events)
        after_turn(st, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(PASS)


# --- Money Collector --------------------------------------------------------------------------------------
def collector_moves(st: GameState, seat: int, without: int = -1) -> list[Move]:
    """BQ-11, BQ-25, AMB-17: every placement of a card from the display or the hand (not the
    Money Collector ``without`` itself, never a purple card) at half its price after all other
    discounts, rounded down, at least 1, that ``seat`` can pay."""
    ctx = seat_context(st, seat)
    full: list[Move] = []
    hand = [c for c in st.hands[seat] if c != without]
    offers(ctx, st, ((UPPER, st.upper), (LOWER, st.lower), (HAND, hand)), HUGE, False, full)
    money = st.rubles[seat]
    out = []
    for m in full:
        half = max(1, m.price // 2)
        if half <= money:
            out.append(Move(m.action, half))
    return out


class MoneyCollectorDecision(Decision):
    """BQ-11/12: the card placed with the Money Collector; the chip covers its VP and it can never
    be displaced. Absent player: the cheapest placement (the card is already played)."""

    kind = "money_collector"

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return collector_moves(st, p.seat)

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        price = _accept(self.moves(st, p), action, self.kind)
        return _physical(st, p.seat, action), -1, price

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        st.pending = None
        card, _, price = checked
        events: list[Event] = []
        bstate(st)["chip"] = [card, p.seat]
        _place(st, p.seat, action, card, price, events)
        events.append({"type": "note", "key": "log.bq_chip", "seat": p.seat, "cards": {"card": st.cards[card].id},
                       "params": {}})
        after_turn(st, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return min(self.moves(st, p), key=lambda m: (m.price, m.action)).action


# --- Black Market ------------------------------------------------------------------------------------------
class BlackMarketDecision(Decision):
    """BQ-13, AMB-19, AMB-12: a non-purple card of the discard pile: buy it at once (normal price, no
    lower-row discount), take it into hand, or put it back on top of the pile (``discard``).
    Absent player: put back the topmost such card (X-07)."""

    kind = "black_market"
    drawn = True

    def choices(self, st: GameState) -> list[int]:
        return [c for c in st.discard if not is_purple(st, c)]

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        seat = p.seat
        ctx = seat_context(st, seat)
        pile = self.choices(st)
        out: list[Move] = []
        offers(ctx, st, ((DRAWN, pile[::-1]),), st.rubles[seat], len(st.hands[seat]) < ctx.hand_limit, out)
        goods = st.ruleset.catalogue.copy_goods if st.ruleset.roundels else None
        for c in pile[::-1]:
            m = Move(Action(DISCARD, st.cards[c].id, DRAWN, good=goods[c] if goods else ""), 0)
            if m not in out:
                out.append(m)
        return out

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        price = _accept(self.moves(st, p), action, self.kind)
        card = find(st, self.choices(st)[::-1], action.card, "" if action.target else action.good)
        return card, -1, price

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        st.pending = None
        seat = p.seat
        card, _, price = checked
        cid = st.cards[card].id
        events: list[Event] = []
        if action.kind == DISCARD:
            st.discard.remove(card)
            discard(st, card)  # back on top (AMB-12)
            events.append({"type": "note", "key": "log.bq_black_market_back", "seat": seat, "cards": {"card": cid},
                           "params": {}})
        elif action.kind == TAKE:
            st.discard.remove(card)
            st.hands[seat].append(card)
            events.append({"type": "note", "key": "log.bq_black_market_take", "seat": seat, "cards": {"card": cid},
                           "params": {}})
        else:
            events.append({"type": "note", "key": "log.bq_black_market_buy", "seat": seat, "cards": {"card": cid},
                           "params": {"price": price}})
            _place(st, seat, action, card, price, events)
        after_turn(st, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return next(m.action for m in self.moves(st, p) if m.action.kind == DISCARD)


def decisions() -> dict[str, Decision]:
    return {
        PICKPOCKET: PickpocketDecision(),
        "double_turn": DoubleTurnDecision(),
        "money_collector": MoneyCollectorDecision(),
        "black_market": BlackMarketDecision(),
    }


def notation() -> Notation:
    return Notation(parsers={PICKPOCKET: _parse_pickpocket}, formatters={PICKPOCKET: _format_pickpocket})

