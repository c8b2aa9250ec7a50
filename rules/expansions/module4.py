"""Module 4: the Events ("Die Ereignisse"; seed 001 module booklet, seed 004; M4-01 ...
M4-17, P5-13, X-03, X-07, AMB-22 ... AMB-24).

Six event cards lie face up (data/modules/module4.json). From round 2 on, a player may take one on his
turn before his regular action (``Hooks.before_action``: no action, never a pass); each event once a
game, each player one. The display's slot positions are kept here (``assign``): "the first space" is
upper-row slot 1, and the lower row is cleared left to right at the end of a round. The Twin's
acquisitions and the order of cards discarded together are decisions (module4_decisions.py).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from ..actions import BUY, Action, Move
from ..checks import check_placement, find
from ..errors import RuleError
from ..flow import _deal, discard, place
from ..hooks import Checked, Event, Hooks, TurnAction
from ..hooks import Events as EventLog
from ..i18n import t
from ..moves import UPPER_ROW, offer_rows, tables_of
from ..prices import seat_context
from ..state import LOWER, ROW_NAMES, UPPER, GameState, Pending
from .common import MarketModule

KEY: Final = "module4"
EVENT: Final = "event"  # action kinds (the Grabber names the card it buys)
GRABBER: Final = "grabber"
TWIN: Final = "twin"  # decision kinds
ORDER: Final = "order"
SPONSOR_SELF: Final = 6  # M4-07
SPONSOR_OTHERS: Final = 2


@cache
def data() -> dict[str, Any]:
    from ..cards import DATA_DIR

    with (DATA_DIR / "modules" / "module4.json").open(encoding="utf-8") as f:
        d: dict[str, Any] = json.load(f)
    return d


@cache
def event_ids() -> tuple[str, ...]:
    """M4-01: twin, sponsor, ghost, new_luck, warehouse, grabber."""
    return tuple(e["id"] for e in data()["events"])


def event_name(event: str, lang: str = "en") -> str:
    """An event's name in ``lang``: the text ``event.<id>`` (data/i18n/<lang>/modules46.json), its one place."""
    return t(f"event.{event}", lang)


def m4(st: GameState) -> dict[str, Any]:
    """Module 4's part of the state: the events still free (in their order) and who used which, the
    display's slots (physical card or -1, left to right), the two cards of a Twin being acquired,
    and a Twin acquisition to resume after a decision its first card opened."""
    m: dict[str, Any] = st.ext[KEY]
    return m


def setup(st: GameState, rng: random.Random, given: Mapping[str, Any]) -> None:
    """M4-01: all six events face up."""
    size = st.ruleset.display_size
    st.ext[KEY] = {"free": list(event_ids()), "used": {}, "upper_slots": [-1] * size, "lower_slots": [-1] * size,
                   "twin": [], "resume": None}


# --- the display's slots (M4-06, M4-14) -----------------------------------------------------------------
def assign(st: GameState, *_: object) -> None:
    """M4-06: the slots after the display changed (``Hooks.dealt``, the end of a round, an event): a
    card gone leaves its slot empty; a new card takes the leftmost empty slot of its row, in the
    order it was laid. A Twin's second card lies on slot 1 too and takes no slot of its own. Only
    ever called while an action is carried out, so the slots are part of the game's history."""
    m = m4(st)
    twin: list[int] = m["twin"]
    for key in ("upper_slots", "lower_slots"):
        row = st.upper if key == "upper_slots" else st.lower
        slots: list[int] = m[key]
        for i in range(len(slots)):
            if slots[i] >= 0 and _index(row, slots[i]) < 0:
                slots[i] = -1
        for c in row:  # a card already on a slot keeps it (row cards are distinct: one look each)
            if _index(slots, c) < 0 and _index(twin, c, 1) < 0:
                free = _index(slots, -1)
                if free >= 0:
                    slots[free] = c
                else:
                    slots.append(c)


def _index(xs: list[int], x: int, start: int = 0) -> int:
    """The first index of ``x`` in ``xs`` from ``start`` on, or -1 (native ints compared: no sets built)."""
    for i in range(start, len(xs)):
        if xs[i] == x:
            return i
    return -1


def slots(st: GameState, key: str) -> list[int]:
    """The row's slots now (``upper_slots`` or ``lower_slots``), -1 where a space is empty; without
    changing the state (a taken card's slot is empty until the next refill)."""
    row = set(st.upper if key == "upper_slots" else st.lower)
    return [c if c in row else -1 for c in m4(st)[key]]


def round_end(st: GameState, events: EventLog) -> None:
    """M4-14: the lower row is cleared left to right (the rightmost card ends on top of the discard
    pile); the upper row moves down, each card keeping its column."""
    assign(st)
    m = m4(st)
    st.lower[:] = [c for c in m["lower_slots"] if c >= 0]
    st.upper[:] = [c for c in m["upper_slots"] if c >= 0]
    m["lower_slots"] = list(m["upper_slots"])
    m["upper_slots"] = [-1] * len(m["upper_slots"])


def first_space(st: GameState) -> int:
    """M4-05 (AMB-23): the card on upper-row slot 1, or -1."""
    return slots(st, "upper_slots")[0]


def phase_stack(st: GameState) -> list[int]:
    return st.decks[st.ruleset.phases[st.phase].deck]


# --- which events a player may take now (M4-02, M4-12) ----------------------------------------------
def may_take_event(st: GameState, seat: int) -> bool:
    """M4-02: from round 2 on, one event per player in the whole game."""
    if st.round < 2:
        return False
    used: dict[str, int] = st.ext[KEY]["used"]
    for s in used.values():  # noqa: SIM110 (a loop: compiled, neither a view nor a generator is made)
        if s == seat:
            return False
    return True


# The moves of the events, built once each (an Action is a named tuple: costly to build in a hot loop).
_EVENT_MOVES: Final[dict[str, Move]] = {}
_GHOST_MOVES: Final[dict[tuple[int, str, str], Move]] = {}
_GRABBER_MOVES: Final[dict[Move, Move]] = {}


def _event_move(ev: str) -> Move:
    found = _EVENT_MOVES.get(ev)
    if found is None:
        found = _EVENT_MOVES[ev] = Move(Action(EVENT, ev), 0)
    return found


def _ghost_move(row: int, card: str, good: str) -> Move:
    key = (row, card, good)
    found = _GHOST_MOVES.get(key)
    if found is None:
        found = _GHOST_MOVES[key] = Move(Action(EVENT, "ghost", row, card, good=good), 0)
    return found


def event_moves(st: GameState, seat: int, out: list[Move]) -> None:
    if not may_take_event(st, seat):
        return
    m = m4(st)
    stack = phase_stack(st)
    free: list[str] = m["free"]
    for ev in free:
        if (
            ev in ("sponsor", "warehouse")
            or (ev == "twin" and stack and first_space(st) >= 0)
            or (ev == "new_luck" and stack and st.ruleset.display_size - len(st.upper) >= st.n)
        ):
            out.append(_event_move(ev))
        elif ev == "ghost" and stack:
            goods = st.ruleset.catalogue.copy_goods if st.ruleset.roundels else None
            cards = st.cards
            first = len(out)
            upper_full = len(st.upper) >= st.ruleset.display_size  # 10 spaces a row with the Market (AMB-23)
            for row, line in ((UPPER, st.upper), (LOWER, st.lower)):
                if row == LOWER and upper_full:  # M4-12: the new card must find a space in the upper row
                    continue
                for c in line:
                    mv = _ghost_move(row, cards[c].id, goods[c] if goods is not None else "")
                    if not any(out[i] is mv for i in range(first, len(out))):  # one move per choice
                        out.append(mv)


def grabber_moves(st: GameState, seat: int) -> list[Move]:
    """M4-11 (AMB-23): placing the top card of the discard pile, at its normal price (no lower-row
    discount), where legal and affordable."""
    if not st.discard:
        return []
    buys: list[Move] = []
    ctx = seat_context(st, seat)
    offer_rows(ctx, tables_of(ctx, st), UPPER_ROW, [[st.discard[-1]]], st.rubles[seat], False, buys)
    out: list[Move] = []
    for m in buys:
        found = _GRABBER_MOVES.get(m)
        if found is None:
            a = m.action
            found = _GRABBER_MOVES[m] = Move(Action(GRABBER, a.card, -1, a.target, 0, a.good), m.price)
        out.append(found)
    return out


class EventStep(TurnAction):
    """M4-03: take an event and carry it out before the regular action."""

    kind = EVENT

    def moves(self, st: GameState, seat: int, out: list[Move]) -> None:
        event_moves(st, seat, out)

    def check(self, st: GameState, seat: int, action: Action) -> Checked:
        listed: list[Move] = []
        event_moves(st, seat, listed)
        for mv in listed:
            if mv.action == action:
                if action.card == "ghost":
                    line = st.upper if action.row == UPPER else st.lower
                    return find(st, line, action.target, action.good), -1, 0
                return -1, -1, 0
        raise RuleError("event_unavailable", event=action.card)

    def apply(self, st: GameState, seat: int, action: Action, checked: Checked) -> list[Event]:
        ev = action.card
        events = use_event(st, seat, ev)
        m = m4(st)
        if ev == "sponsor":  # M4-07
            for s in range(st.n):
                st.rubles[s] += SPONSOR_SELF if s == seat else SPONSOR_OTHERS
        elif ev == "new_luck":  # M4-09, M4-13: a short stack lays what it has and ends the game
            _deal(st, st.ruleset.phases[st.phase].deck, st.n, events)
        elif ev == "ghost":  # M4-08
            card = checked[0]
            (st.upper if action.row == UPPER else st.lower).remove(card)
            discard(st, card)
            events.append({"type": "ghost_discard", "seat": seat, "card": st.cards[card].id,
                           "row": ROW_NAMES[action.row]})
            _deal(st, st.ruleset.phases[st.phase].deck, 1, events)
        elif ev == "twin":  # M4-05
            m["twin"] = [first_space(st), phase_stack(st)[-1]]  # the second card takes no slot
            _deal(st, st.ruleset.phases[st.phase].deck, 1, events)
            from .module4_decisions import start_twin

            start_twin(st, seat, events)
        return events


class GrabberStep(TurnAction):
    """M4-11: the Grabber buys the top card of the discard pile and places it, paying at once."""

    kind = GRABBER

    def moves(self, st: GameState, seat: int, out: list[Move]) -> None:
        if may_take_event(st, seat):
            free: list[str] = st.ext[KEY]["free"]
            if GRABBER in free:
                out.extend(grabber_moves(st, seat))

    def check(self, st: GameState, seat: int, action: Action) -> Checked:
        listed: list[Move] = []
        self.moves(st, seat, listed)
        if action not in {mv.action for mv in listed}:
            raise RuleError("event_unavailable", event=GRABBER)
        buy = Action(BUY, action.card, UPPER, action.target, 0, action.good)
        return check_placement(st, seat, st.discard[-1], buy, lower=False)

    def apply(self, st: GameState, seat: int, action: Action, checked: Checked) -> list[Event]:
        card, target, pr = checked
        events = use_event(st, seat, GRABBER)
        st.discard.pop()
        ev: Event = {"type": "grab", "seat": seat, "card": st.cards[card].id, "price": pr}
        if target >= 0:
            ev["displaced"] = st.cards[target].id
        events.append(ev)
        place(st, seat, card, target, pr, events)
        return events


def use_event(st: GameState, seat: int, event: str) -> list[Event]:
    """M4-03, M4-16: the event card goes in front of its player (public)."""
    m = m4(st)
    m["free"].remove(event)
    m["used"][event] = seat
    stats = st.stats[seat]
    stats["events"] = stats.get("events", 0) + 1
    if event != "warehouse":  # UI-08: a card action ends "pass until the display changes", but the Warehouse
        stats["card_actions"] = stats.get("card_actions", 0) + 1
    return [{"type": "event", "seat": seat, "event": event}]


def extra_hand_room(st: GameState, seat: int) -> int:
    """M4-10 (AMB-28): the event Warehouse adds 1 to its player's hand limit (on top of Warehouses)."""
    used: dict[str, int] = st.ext[KEY]["used"]
    return 1 if used.get("warehouse", -1) == seat else 0


def resume_twin(st: GameState, events: EventLog) -> bool:
    """A Twin whose first card opened a decision (a "?" good) goes on with its second card."""
    m = m4(st)
    if m["resume"] is None or st.pending is not None:
        return False
    seat, card = m["resume"]
    m["resume"] = None
    st.pending = Pending(TWIN, seat, card)
    return True


def view_fields(st: GameState, seat: int | None, out: dict[str, Any]) -> None:
    """X-08, M4-16: the events (free or used, by whom), the display by slots (None: an empty space),
    the two cards on slot 1 during a Twin (UI-14)."""
    m = m4(st)
    cards = st.cards
    out[KEY] = {
        "events": [{"id": e, "used_by": m["used"].get(e)} for e in event_ids()],
        "upper_slots": [None if c < 0 else cards[c].id for c in slots(st, "upper_slots")],
        "lower_slots": [None if c < 0 else cards[c].id for c in slots(st, "lower_slots")],
        "twin": [cards[c].id for c in m["twin"]],
    }
    p = st.pending
    if p is not None and p.kind in (TWIN, ORDER) and out.get("pending") is not None:
        out["pending"]["cards"] = [cards[c].id for c in (p.card, p.source) if c >= 0]


class Events(MarketModule):
    """M4-01 (2nd edition, with the Market: X-02)."""

    key = KEY

    def hooks(self) -> Hooks:
        from .module4_decisions import OrderDecision, TwinDecision, notation

        return Hooks(
            decisions={TWIN: TwinDecision(), ORDER: OrderDecision()},
            before_action={EVENT: EventStep(), GRABBER: GrabberStep()},
            setups=[setup],
            round_end=[round_end],
            dealt=[assign],
            hand_limit=[extra_hand_room],
            interrupts=[resume_twin],
            view=[view_fields],
            **notation(),
        )


EVENTS = Events()
