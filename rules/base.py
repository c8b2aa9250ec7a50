"""The base game's own hooks: the Observatory's drawn card (rules-notes 8) and the Pub (rules-notes 9)
as pending decisions, and the scoring steps 'income' (rules-notes 7, 10) and 'pub'."""

from __future__ import annotations

from .actions import BUY, DISCARD, PUB, TAKE, Action, Move
from .checks import card_params, check_hand_room, check_placement, well_formed
from .errors import RuleError
from .flow import after_turn, discard, place, placed_event, resume_after
from .hooks import Checked, Decision, Event, Hooks
from .moves import PUB_PRICE, offers, pub_max
from .prices import hand_room, seat_context
from .scoring import gain_vp, income
from .state import DRAWN, GameState, Pending


class ObservatoryDecision(Decision):
    """rules-notes 8: buy, take or discard the card drawn with the Observatory."""

    kind = "observatory"

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        seat = p.seat
        ctx = seat_context(st, seat)
        moves: list[Move] = []
        room = len(st.hands[seat]) < hand_room(st, seat, ctx)
        offers(ctx, st, ((DRAWN, (p.card,)),), st.rubles[seat], room, moves)
        moves.append(Move(self.default(st, p), 0))
        return moves

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        if not well_formed(action):
            raise RuleError("malformed_action")
        kind = action.kind
        drawn_t = st.cards[p.card]
        good = _copy_good(st, p.card)
        if (
            kind not in (BUY, TAKE, DISCARD)
            or action.card != drawn_t.id
            or action.row != DRAWN
            or (action.good != good and not action.target)
        ):
            raise RuleError("wrong_decision", pending="observatory", **card_params(st, drawn_t.id))
        if kind == DISCARD:
            return p.card, -1, 0
        if kind == TAKE:
            check_hand_room(st, p.seat)
            return p.card, -1, 0
        return check_placement(st, p.seat, p.card, action, lower=False)

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        card, target, pr = checked
        decider = p.seat
        kind = action.kind
        st.pending = None
        t = st.cards[card]
        events: list[Event]
        if kind == BUY:
            events = [placed_event(BUY, decider, t, pr, DRAWN, target, st.cards)]
            place(st, decider, card, target, pr, events)
        elif kind == TAKE:
            st.hands[decider].append(card)
            stats = st.stats[decider]
            stats["taken"] = stats.get("taken", 0) + 1
            events = [{"type": "take", "seat": decider, "card": t.id, "row": "drawn"}]
        else:
            discard(st, card)
            events = [{"type": "discard", "seat": decider, "card": t.id}]
        st.passes = 0
        after_turn(st, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(DISCARD, st.cards[p.card].id, DRAWN, good=_copy_good(st, p.card))


def _copy_good(st: GameState, card: int) -> str:
    """The roundel naming this copy in actions, where the ruleset tells copies apart (MK-49)."""
    return st.ruleset.catalogue.copy_goods[card] if st.ruleset.roundels else ""


class PubDecision(Decision):
    """rules-notes 9: right after building scoring, each Pub owner may buy up to 5 VP per Pub at
    2 rubles each, from the phase's start player on."""

    kind = "pub"

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return [Move(Action(PUB, amount=k), PUB_PRICE * k) for k in range(pub_max(st, p.seat) + 1)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        if not well_formed(action):
            raise RuleError("malformed_action")
        if action.kind != PUB:
            raise RuleError("wrong_decision", pending="pub")
        mx = pub_max(st, p.seat)
        if not 0 <= action.amount <= mx:
            raise RuleError("pub_amount", max=mx)
        return -1, -1, PUB_PRICE * action.amount

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        decider = p.seat
        pr = checked[2]
        if action.amount:
            st.rubles[decider] -= pr
        events: list[Event] = [{"type": "pub", "seat": decider, "vp": action.amount, "rubles": pr}]
        if action.amount:
            gain_vp(st, decider, action.amount, "pub", events)
            stats = st.stats[decider]
            stats["spent"] = stats.get("spent", 0) + pr
        next_pub(st, p.queue, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(PUB, amount=0)


def pub_step(st: GameState, events: list[Event]) -> bool:
    """Scoring step 'pub': the Pub decisions, from the phase's start player (rules-notes 9)."""
    start = st.tokens[st.ruleset.phases[st.phase].token]
    return _open_pub(st, [(start + i) % st.n for i in range(st.n)])


def _open_pub(st: GameState, queue: list[int]) -> bool:
    queue = list(queue)
    while queue:
        seat = queue.pop(0)
        if pub_max(st, seat) > 0:
            st.pending = Pending("pub", seat, queue=queue)
            return True
    return False


def next_pub(st: GameState, queue: list[int], events: list[Event]) -> None:
    if not _open_pub(st, queue):
        resume_after(st, "pub", events)


def base_hooks() -> Hooks:
    """A fresh Hooks holding the base game's decisions and scoring steps."""
    return Hooks(
        decisions={"observatory": ObservatoryDecision(), "pub": PubDecision()},
        steps={"income": income, "pub": pub_step},
    )
