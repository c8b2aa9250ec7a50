"""Module 4's decisions (X-07) and notation (M4-17, X-09):

event sponsor | event warehouse | event new luck | event twin     an event before the action (M4-03)
event ghost Library (lower)           the Ghost discards that card of the display (M4-08)
event grabber: buy Wharf over Ship Builder [fish]   the Grabber places the discard pile's top card
buy Hen | take Bank                   inside a Twin: each of the two cards on the first space (M4-05)
order Hen, Bank                       two cards discarded at once, in this order: Bank ends on top (M4-15)
"""

from __future__ import annotations

from ..actions import BUY, TAKE, Action, Move, format_action, parse_action
from ..cards import Catalogue
from ..checks import check_placement
from ..errors import NotationError, RuleError
from ..flow import discard, place, placed_event
from ..hooks import Checked, Decision, Event, Formatter, Notation, Parser
from ..moves import offers
from ..prices import hand_limit, seat_context
from ..state import UPPER, GameState, Pending
from .module4 import EVENT, GRABBER, ORDER, TWIN, data, event_ids, event_name, m4


# --- the Twin (M4-05, AMB-23) -------------------------------------------------------------------------
def acquisitions(st: GameState, seat: int, card: int) -> list[Move]:
    """Buying (at the upper row's price) or taking ``card``, where legal for ``seat``."""
    out: list[Move] = []
    room = len(st.hands[seat]) < hand_limit(st, seat)
    offers(seat_context(st, seat), st, ((UPPER, (card,)),), st.rubles[seat], room, out)
    return out


def acquire(st: GameState, seat: int, card: int, action: Action, events: list[Event]) -> None:
    """Buy or take one card of the Twin (it lies in the upper row)."""
    t = st.cards[card]
    if action.kind == TAKE:
        st.upper.remove(card)
        st.hands[seat].append(card)
        stats = st.stats[seat]
        stats["taken"] = stats.get("taken", 0) + 1
        events.append({"type": "take", "seat": seat, "card": t.id, "row": "upper"})
        return
    _, target, pr = check_placement(st, seat, card, action, lower=False)
    st.upper.remove(card)
    events.append(placed_event(BUY, seat, t, pr, UPPER, target, st.cards))
    place(st, seat, card, target, pr, events)


def twin_moves(st: GameState, seat: int, cards: list[int]) -> list[tuple[int, Move]]:
    """Each way to acquire one of the Twin's cards still there; with both there, only ways after
    which the other can still be acquired (he must acquire both)."""
    out: list[tuple[int, Move]] = []
    seen: set[Action] = set()
    for card in cards:
        others = [c for c in cards if c != card]
        for mv in acquisitions(st, seat, card):
            if mv.action in seen:
                continue
            if others:
                probe = st.copy()
                acquire(probe, seat, card, mv.action, [])
                if not acquisitions(probe, seat, others[0]):
                    continue
            seen.add(mv.action)
            out.append((card, mv))
    return out


def start_twin(st: GameState, seat: int, events: list[Event]) -> None:
    """After the second card is laid: the acquisitions, or (if he cannot acquire both) both cards to
    the discard pile."""
    cards = list(m4(st)["twin"])
    if twin_moves(st, seat, cards):
        st.pending = Pending(TWIN, seat, cards[0], cards[1])
    else:
        discard_together(st, seat, cards, events)


def discard_together(st: GameState, seat: int, cards: list[int], events: list[Event]) -> None:
    """M4-15 (AMB-24): cards discarded at once go in the order their player chooses (a decision when
    they differ)."""
    if len({st.cards[c].id for c in cards}) > 1:
        st.pending = Pending(ORDER, seat, cards[0], cards[1])
        return
    finish_discard(st, seat, cards, events)


def finish_discard(st: GameState, seat: int, cards: list[int], events: list[Event]) -> None:
    for c in cards:
        st.upper.remove(c)
        discard(st, c)
    m4(st)["twin"] = []
    events.append({"type": "discarded", "seat": seat, "cards": [st.cards[c].id for c in cards]})


class TwinDecision(Decision):
    """M4-05: buy or take each of the two cards on the first space, one after the other."""

    kind = TWIN

    def listed(self, st: GameState, p: Pending) -> list[tuple[int, Move]]:
        return twin_moves(st, p.seat, [c for c in (p.card, p.source) if c >= 0])

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return [mv for _, mv in self.listed(st, p)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        for card, mv in self.listed(st, p):
            if mv.action == action:
                return card, -1, mv.price
        raise RuleError("wrong_decision", pending=TWIN)

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        card = checked[0]
        other = p.source if card == p.card else p.card
        st.pending = None
        events: list[Event] = []
        acquire(st, p.seat, card, action, events)
        m = m4(st)
        m["twin"] = [other] if other >= 0 else []
        if other >= 0:
            if st.pending is None:
                st.pending = Pending(TWIN, p.seat, other)
            else:  # placing it opened a decision: the Twin goes on after it (module4.resume_twin)
                m["resume"] = [p.seat, other]
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        moves = self.moves(st, p)
        return min(moves, key=lambda mv: (mv.action.kind != TAKE, mv.price)).action


class OrderDecision(Decision):
    """M4-15 (AMB-24): the order of two cards discarded at once; the second ends on top. Absent
    player: the given order (the first space's card first)."""

    kind = ORDER

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        a, b = st.cards[p.card].id, st.cards[p.source].id
        return [Move(Action(ORDER, a, -1, b), 0), Move(Action(ORDER, b, -1, a), 0)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        if action not in {mv.action for mv in self.moves(st, p)}:
            raise RuleError("wrong_decision", pending=ORDER)
        return -1, -1, 0

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        first = p.card if st.cards[p.card].id == action.card else p.source
        second = p.source if first == p.card else p.card
        st.pending = None
        events: list[Event] = []
        finish_discard(st, p.seat, [first, second], events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return self.moves(st, p)[0].action


# --- notation ------------------------------------------------------------------------------------------
def _names() -> list[tuple[str, str]]:
    """(normalised name, event id), longest first: ids, English and German names."""
    out = []
    for e in data()["events"]:
        for name in (e["id"], e["id"].replace("_", " "), event_name(e["id"], "en"), event_name(e["id"], "de")):
            out.append((name.casefold(), e["id"]))
    return sorted(set(out), key=lambda x: -len(x[0]))


def _parse_event(text: str, rest: str, cat: Catalogue) -> Action:
    low = rest.strip()
    found = [(ev, low[len(name):].strip()) for name, ev in _names()
             if low.casefold().startswith(name) and (len(low) == len(name) or not low[len(name)].isalnum())]
    if not found:
        raise NotationError(text, f"'event' needs one of: {', '.join(e.replace('_', ' ') for e in event_ids())}")
    ev, after = found[0]
    if ev == GRABBER:
        return _parse_grabber(text, after, cat)
    if ev == "ghost":
        if not after:
            raise NotationError(text, "the Ghost names the card it discards, e.g. 'event ghost Library (lower)'")
        a = parse_action(f"take {after}", cat)
        return Action(EVENT, ev, a.row, a.card, 0, a.good)
    if after:
        raise NotationError(text, f"nothing follows 'event {ev.replace('_', ' ')}'")
    return Action(EVENT, ev)


def _parse_grabber(text: str, rest: str, cat: Catalogue) -> Action:
    after = rest.strip().lstrip(":").strip()
    a = parse_action(after, cat) if after else None
    if a is None or a.kind != BUY or a.row != UPPER:
        raise NotationError(text, "the Grabber buys the discard pile's top card, e.g. 'event grabber: buy Wharf'")
    return Action(GRABBER, a.card, -1, a.target, 0, a.good)


def _format_event(a: Action, cat: Catalogue, lang: str) -> str:
    text = f"event {a.card.replace('_', ' ')}"
    if a.card == "ghost":
        text += " " + format_action(Action(TAKE, a.target, a.row, "", 0, a.good), cat, lang)[len("take "):]
    return text


def _format_grabber(a: Action, cat: Catalogue, lang: str) -> str:
    return "event grabber: " + format_action(Action(BUY, a.card, UPPER, a.target, 0, a.good), cat, lang)


def _parse_order(text: str, rest: str, cat: Catalogue) -> Action:
    parts = [x.strip() for x in rest.split(",")]
    found = [cat.lookup(x) for x in parts]
    if len(parts) != 2 or any(t is None for t in found):
        raise NotationError(text, "'order' names two cards, the one to lie on top last, e.g. 'order Hen, Bank'")
    first, second = found
    assert first is not None and second is not None
    return Action(ORDER, first.id, -1, second.id)


def _format_order(a: Action, cat: Catalogue, lang: str) -> str:
    return f"order {cat.by_id[a.card].name(lang)}, {cat.by_id[a.target].name(lang)}"


def notation() -> Notation:
    parsers: dict[str, Parser] = {EVENT: _parse_event, GRABBER: _parse_grabber, ORDER: _parse_order}
    formatters: dict[str, Formatter] = {EVENT: _format_event, GRABBER: _format_grabber, ORDER: _format_order}
    return Notation(parsers=parsers, formatters=formatters)
