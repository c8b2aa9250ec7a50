"""The base game's own hooks: the Observatory's drawn card (BG-08) and the Pub (BG-09)
as pending decisions, and the scoring steps 'income' (BG-07, BG-10) and 'pub'."""

from __future__ import annotations

from .actions import BUY, DISCARD, PUB, TAKE, Action, Move
from .checks import card_params, check_hand_room, check_placement, well_formed
from .errors import RuleError
from .flow import after_turn, discard, place, placed_event, resume_after
from .hooks import Checked, Decision, Event, Events, Hooks
from .moves import DRAWN_ROW, PUB_PRICE, offer_rows, pub_max, pub_moves, tables_of
from .prices import hand_room, seat_context
from .scoring import buy_vp, income, vp_cards
from .state import DRAWN, GameState, Pending


class ObservatoryDecision(Decision):
    """BG-08: buy, take or discard the card drawn with the Observatory."""

    kind = "observatory"
    drawn = True

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        seat = p.seat
        ctx = seat_context(st, seat)
        moves: list[Move] = []
        room = len(st.hands[seat]) < hand_room(st, seat, ctx)
        tables = tables_of(ctx, st)
        offer_rows(ctx, tables, DRAWN_ROW, [[p.card]], st.rubles[seat], room, moves)
        moves.append(tables.discard[ctx.copies.of_card[p.card]])  # ``default``'s action
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
    """BG-09: right after building scoring, each Pub owner may buy up to 5 VP per Pub at
    2 rubles each, from the phase's start player on."""

    kind = "pub"

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return pub_moves(pub_max(st, p.seat))

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
        events: list[Event] = [{"type": "pub", "seat": decider, "vp": action.amount, "rubles": pr}]
        if action.amount:
            buy_vp(st, decider, action.amount, pr, "pub", events)
        settle_next(st, p, events)
        return events

    def default(self, st: GameState, p: Pending) -> Action:
        return Action(PUB, amount=0)


def pub_step(st: GameState, events: Events) -> bool:
    """Scoring step 'pub', right after building scoring (BG-09; X-05, AMB-11): from the
    phase's start player, each player settles the decisions of ``Hooks.settle`` he has, in their
    order (the Pub in the base game), before the next player."""
    start = st.tokens[st.ruleset.phases[st.phase].token]
    return _open_settle(st, [(start + i) % st.n for i in range(st.n)], None)


def _open_settle(st: GameState, queue: list[int], after: tuple[int, str] | None) -> bool:
    """Open the next decision to settle: the same seat's later kinds after ``after`` (seat, kind),
    then the seats of ``queue`` in turn. Whether a seat has one is asked only when it comes up, so
    rubles gained from one decision can pay for the next (X-05)."""
    order = st.ruleset.hooks.settle_order()
    queue = list(queue)
    if after is not None:
        seat, done = after
        later = False
        for kind, has in order:
            if later and has(st, seat):
                st.pending = Pending(kind, seat, queue=queue)
                return True
            later = later or kind == done
    while queue:
        seat = queue.pop(0)
        for kind, has in order:
            if has(st, seat):
                st.pending = Pending(kind, seat, queue=queue)
                return True
    return False


def settle_next(st: GameState, p: Pending, events: Events) -> None:
    """After a settling decision ``p``: the next one, or the rest of the phase's scoring."""
    if not _open_settle(st, p.queue, (p.seat, p.kind)):
        resume_after(st, "pub", events)


def _has_pub(st: GameState, seat: int) -> bool:
    """``pub_max(st, seat) > 0``: the rubles for one VP and a Pub that may sell VP (BG-09)."""
    return st.rubles[seat] >= PUB_PRICE and vp_cards(st, seat, "pub") > 0


def base_hooks() -> Hooks:
    """A fresh Hooks holding the base game's decisions and scoring steps."""
    return Hooks(
        decisions={"observatory": ObservatoryDecision(), "pub": PubDecision()},
        steps={"income": income, "pub": pub_step},
        settle={"pub": (20, _has_pub)},
    )
