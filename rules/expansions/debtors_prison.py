"""The Debtor's Prison (Schuldturm; M2-04, IBG-09, AMB-12) and its notation (X-09)::

    prison Bank                   use it: take a Bank from the discard pile (the turn's action)
    then: buy Bank [over ...] | take Bank | discard Bank   (``discard``: put it back on top)

Once per building phase, as the player's action (like the Observatory), its owner picks a card
(never a purple one) from the discard pile, then buys and places it (normal price, no lower-row
discount), takes it into his hand, or puts it back on top of the pile. The Debtor's Prison then lies
face down (``GameState.face_down``, as a used Observatory): no VP at building scoring, it cannot be
displaced, and it turns face up when the Observatories do (next round in the 2nd edition, next phase
in the 1st edition: ``Ruleset.observatory_reset``).
"""

from __future__ import annotations

from typing import Any, Final

from ..actions import Action, Move
from ..base import ObservatoryDecision
from ..cards import Catalogue
from ..checks import card_params, find
from ..errors import NotationError, RuleError
from ..hooks import Checked, Decision, Event, TurnAction
from ..moves import observing_phase
from ..state import GameState, Pending

PRISON: Final = "prison"
ABILITY: Final = "debtors_prison"
NOT_PICKED = ("purple",)  # AMB-12, AMB-19: purple cards cannot be picked


def usable_prison(st: GameState, seat: int) -> int:
    """A face-up Debtor's Prison of ``seat`` usable now (building phase only), or -1."""
    if not observing_phase(st):
        return -1
    cards = st.cards
    fd = st.face_down
    return next((c for c in st.tableaux[seat] if cards[c].ability == ABILITY and c not in fd), -1)


def _copy_good(st: GameState, card: int) -> str:
    return st.ruleset.catalogue.copy_goods[card] if st.ruleset.roundels else ""


class PrisonAction(TurnAction):
    """M2-04: use the Debtor's Prison on one's turn in the building phase, naming the card picked
    from the discard pile (one choice per card type, or per roundel where copies differ, MK-49)."""

    kind = PRISON

    def moves(self, st: GameState, seat: int, out: list[Move]) -> None:
        if not st.discard or usable_prison(st, seat) < 0:
            return
        cards = st.cards
        seen: set[tuple[str, str]] = set()
        for c in reversed(st.discard):
            key = (cards[c].id, _copy_good(st, c))
            if key in seen or cards[c].colour in NOT_PICKED:
                continue
            seen.add(key)
            out.append(Move(Action(PRISON, key[0], good=key[1]), 0))

    def check(self, st: GameState, seat: int, action: Action) -> Checked:
        if action.row != -1 or action.target or action.amount:
            raise RuleError("malformed_action")
        prison = usable_prison(st, seat)
        if prison < 0:
            raise RuleError("prison_unavailable")
        card = find(st, st.discard[::-1], action.card, action.good)
        if card < 0 or st.cards[card].colour in NOT_PICKED:
            raise RuleError("not_in_discard", **card_params(st, action.card))
        return card, prison, 0

    def apply(self, st: GameState, seat: int, action: Action, checked: Checked) -> list[Event]:
        card, prison, _ = checked
        st.face_down.add(prison)
        st.discard.remove(card)
        st.pending = Pending(PRISON, seat, card, prison)
        return [{"type": PRISON, "seat": seat, "card": st.cards[card].id}]


class PrisonDecision(Decision):
    """M2-04: buy, take or put back (``discard``: on top of the pile) the card picked with the
    Debtor's Prison; as the Observatory's drawn card, whose decision it uses (no lower-row discount;
    a trading card needs a target; the hand limit). Absent player: put it back (X-07)."""

    kind = PRISON
    drawn = True

    def __init__(self) -> None:
        self.inner = ObservatoryDecision()  # composed, not subclassed: the core may be compiled

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return self.inner.moves(st, p)

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        try:
            return self.inner.check(st, p, action)
        except RuleError as e:
            if e.code != "wrong_decision":
                raise
            raise RuleError("wrong_decision", **{**e.params, "pending": PRISON}) from None

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        events = self.inner.apply(st, p, action, checked)
        if events[0]["type"] == "discard":  # in words: put back on the discard pile, not discarded
            events[0]["type"] = "put_back"
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return self.inner.default(st, p)


def prison_view(st: GameState, seat: int | None, out: dict[str, Any]) -> None:
    """X-08: the card picked with the Debtor's Prison is shown to everyone (as an Observatory draw)."""
    p = st.pending
    if p is not None and p.kind == PRISON and out.get("pending") is not None:
        out["pending"]["card"] = st.cards[p.card].id
        out["pending"]["market"] = st.ruleset.catalogue.markets[p.card]


def parse_prison(text: str, rest: str, cat: Catalogue) -> Action:
    from ..actions import split_good

    name, good = split_good(rest)
    t = cat.lookup(name)
    if t is None:
        raise NotationError(text, "prison needs the card to take from the discard pile, e.g. 'prison Bank'")
    return Action(PRISON, t.id, good=good)


def format_prison(a: Action, cat: Catalogue, lang: str) -> str:
    text = f"{PRISON} {cat.by_id[a.card].name(lang)}"
    return text + (f" [{a.good}]" if a.good else "")
