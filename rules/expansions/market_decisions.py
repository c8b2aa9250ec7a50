"""The Market's decisions (X-07) and their notation (MK-50, X-09):

as fish                      the good of a "?" card just placed (MK-25)
confirm Crate of Fish        pay the current tile's higher value to keep a crate (MK-33)
release Crate of Fish        let it go to the box (MK-35)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..actions import Action, Move
from ..cards import Catalogue
from ..errors import NotationError, RuleError
from ..flow import next_turn
from ..hooks import Checked, Decision, Event, Formatter, Notation, Parser
from ..state import GameState, Pending
from .market import continue_crates, free_goods, goods, mstate, release, tile

AS: Final = "as"
CONFIRM: Final = "confirm"
RELEASE: Final = "release"

_MOVES: Final[dict[tuple[str, str, int], Move]] = {}  # the decisions' moves, built once (Actions are costly)


def _move(kind: str, card: str, price: int) -> Move:
    """The move ``kind card`` (``as`` a good, ``confirm`` or ``release`` a crate) at ``price``."""
    found = _MOVES.get((kind, card, price))
    if found is None:
        found = _MOVES[kind, card, price] = Move(Action(kind, card), price)
    return found


class GoodDecision(Decision):
    """MK-25 (AMB-04): the owner of a "?" card just placed chooses a good token still in the supply;
    the card counts for that good while it stays (MK-26). Absent player: the first free good (X-07)."""

    kind = "good"

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return [_move(AS, g, 0) for g in free_goods(st)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        if action.kind != AS or action.row != -1 or action.target or action.amount or action.good:
            raise RuleError("wrong_decision", pending="good")
        free = free_goods(st)
        if action.card not in free:
            raise RuleError("good_taken", good=action.card, free=", ".join(free))
        return p.card, -1, 0

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        mstate(st)["goods"][action.card] = p.card
        st.pending = None
        events: list[Event] = [{"type": "good", "seat": p.seat, "card": st.cards[p.card].id, "good": action.card}]
        next_turn(st, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(AS, free_goods(st)[0])


class CrateDecision(Decision):
    """MK-33 ... MK-36: confirm a crate for the current tile's higher value in rubles, or release it
    to the box. One decision per crate (which reaches every affordable subset of MK-36, crate by
    crate). Absent player: release (X-07)."""

    kind = "crate"

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        cid = st.cards[p.card].id
        return [_move(CONFIRM, cid, tile(st)[0]), _move(RELEASE, cid, 0)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        cid = st.cards[p.card].id
        if action.kind not in (CONFIRM, RELEASE) or action != Action(action.kind, cid):
            raise RuleError("wrong_decision", pending="crate")
        cost = tile(st)[0] if action.kind == CONFIRM else 0
        if cost > st.rubles[p.seat]:
            raise RuleError("too_few_rubles", price=cost, rubles=st.rubles[p.seat], card=cid, card_id=cid, edition=2)
        return p.card, -1, cost

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        cost = checked[2]
        events: list[Event]
        if action.kind == CONFIRM:
            st.rubles[p.seat] -= cost
            stats = st.stats[p.seat]
            stats["crates_paid"] = stats.get("crates_paid", 0) + cost
            events = [{"type": "crate_confirmed", "seat": p.seat, "card": st.cards[p.card].id, "rubles": cost}]
        else:
            events = []
            release(st, p.seat, p.card, events)
        continue_crates(st, list(p.queue), events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(RELEASE, st.cards[p.card].id)


def _parse_as(text: str, rest: str, cat: Catalogue) -> Action:
    good = rest.strip().casefold()
    if good not in goods():
        raise NotationError(text, f"'as' needs a good: {', '.join(goods())}")
    return Action(AS, good)


def _crate_parser(kind: str) -> Callable[[str, str, Catalogue], Action]:
    def parse(text: str, rest: str, cat: Catalogue) -> Action:
        t = cat.lookup(rest)
        if t is None or t.ability != "crate":
            raise NotationError(text, f"{kind} needs a crate, e.g. '{kind} Crate of Fish'")
        return Action(kind, t.id)

    return parse


def _format_as(a: Action, cat: Catalogue, lang: str) -> str:
    return f"as {a.card}"


def _format_crate(a: Action, cat: Catalogue, lang: str) -> str:
    return f"{a.kind} {cat.by_id[a.card].name(lang)}"


def notation() -> Notation:
    parsers: dict[str, Parser] = {AS: _parse_as, CONFIRM: _crate_parser(CONFIRM), RELEASE: _crate_parser(RELEASE)}
    formatters: dict[str, Formatter] = {AS: _format_as, CONFIRM: _format_crate, RELEASE: _format_crate}
    return Notation(parsers=parsers, formatters=formatters)
