"""Validation (seed 000 "Die Aktionen"; BG-02 … BG-09): ``check`` accepts exactly what ``legal_moves``
lists and says why anything else is refused, with a RuleError code (rules/errors.py)."""

from __future__ import annotations

from typing import Any, Final

from .actions import BUY, DISCARD, OBSERVE, PASS, PLAY, PUB, TAKE, Action
from .errors import RuleError
from .hooks import HandPlay
from .moves import BEFORE_ACTION, first_worker_turn, legal_moves, usable_observatory
from .prices import can_displace, hand_limit, locked_cards, seat_context
from .state import HAND, LOWER, UPPER, GameState


def check(st: GameState, action: Action, seat: int | None = None) -> tuple[int, int, int]:
    """Validate ``action`` for the deciding player (or raise RuleError). Returns (card, target, price),
    where card and target are physical card ids (-1 where none). Agrees with ``legal_moves``."""
    if st.finished:
        raise RuleError("game_over")
    p = st.pending
    decider = st.to_move if p is None else p.seat
    if seat is not None and seat != decider:
        if p is not None and p.seat != seat and seat == st.to_move:
            raise RuleError("decision_pending", player=st.seats[decider])
        raise RuleError("not_your_turn", to_move=st.seats[decider])
    kind, card_id, row, target_id, amount, good = action
    if p is not None:
        return st.ruleset.hooks.decisions[p.kind].check(st, p, action)
    hooks = st.ruleset.hooks
    if kind == PASS:
        if card_id or row != -1 or target_id or amount or good:
            raise RuleError("malformed_action")
        if first_worker_turn(st) and any(m.action.kind == BUY for m in legal_moves(st)):
            raise RuleError("must_buy_worker")
        return NOTHING
    if kind in (BUY, TAKE):
        if amount or (target_id and kind == TAKE):
            raise RuleError("malformed_action")
        line = st.upper if row == UPPER else st.lower if row == LOWER else None
        card = find(st, line, card_id, "" if target_id else good) if line is not None else -1
        if card < 0:
            raise RuleError("no_such_card", **card_params(st, card_id))
        if first_worker_turn(st) and (kind != BUY or st.cards[card].deck != "workers"):
            raise RuleError("must_buy_worker")
        if kind == TAKE:
            check_hand_room(st, decider)
            return card, -1, 0
        return check_placement(st, decider, card, action, lower=row == LOWER)
    # (the parts' notation never names a base kind, so pass, buy and take are never this)
    if kind in hooks.parsers and kind not in hooks.turn_actions and kind not in hooks.before_action:
        # an expansion's decision, none open
        raise RuleError("not_pending", kind=kind)
    if not well_formed(action) and not (kind == PLAY and hand_play_of(st, card_id) is not None):
        raise RuleError("malformed_action")
    if kind in (PUB, DISCARD):
        raise RuleError("no_decision")
    if kind == OBSERVE:
        if first_worker_turn(st):
            raise RuleError("must_buy_worker")
        obs = usable_observatory(st, decider)
        if obs < 0:
            raise RuleError("observatory_unavailable")
        if card_id not in st.decks or len(st.decks[card_id]) < 2:
            raise RuleError("stack_too_small", deck=card_id)
        return obs, -1, 0
    if kind == PLAY:
        if first_worker_turn(st):
            raise RuleError("must_buy_worker")
        hand_play = hand_play_of(st, card_id)
        if hand_play is not None:  # a hand card played as an action (Hooks.hand_plays)
            return hand_play.check(st, decider, action)
        card = find(st, st.hands[decider], card_id, "" if target_id else good) if row == HAND else -1
        if card < 0:
            raise RuleError("no_such_card", **card_params(st, card_id))
        return check_placement(st, decider, card, action, lower=False)
    before = st.ruleset.hooks.before_action.get(kind)
    if before is not None:  # a step before the regular action (M4-03), at most one a turn
        if BEFORE_ACTION in st.ext:
            raise RuleError("before_action_taken")
        return before.check(st, decider, action)
    extra = st.ruleset.hooks.turn_actions.get(kind)
    if extra is not None:
        if first_worker_turn(st):
            raise RuleError("must_buy_worker")
        return extra.check(st, decider, action)
    raise RuleError("malformed_action")


NOTHING: Final = (-1, -1, 0)


def hand_play_of(st: GameState, type_id: str) -> HandPlay | None:
    """The HandPlay of a card type played from the hand as an action, or None for other cards."""
    plays = st.ruleset.hooks.hand_plays
    if not plays:
        return None
    t = st.ruleset.catalogue.by_id.get(type_id)
    return plays.get(t.ability or "") if t is not None else None


def well_formed(a: Action) -> bool:
    """The fields an action's kind does not use are empty (as in what ``legal_moves`` lists)."""
    k = a.kind
    if k == PASS:
        return not a.card and a.row == -1 and not a.target and not a.amount and not a.good
    if k == PUB:
        return not a.card and a.row == -1 and not a.target and not a.good
    if k == OBSERVE:
        return a.row == -1 and not a.target and not a.amount and not a.good
    if k in (TAKE, DISCARD):
        return not a.target and not a.amount
    return not a.amount


def card_name(st: GameState, type_id: str) -> str:
    t = st.ruleset.catalogue.by_id.get(type_id)
    return t.name_en if t is not None else repr(type_id)


def card_params(st: GameState, card_id: str, target_id: str = "") -> dict[str, Any]:
    """Error parameters naming cards: English names for the message, ids and edition to translate them."""
    params: dict[str, Any] = {"card": card_name(st, card_id), "card_id": card_id, "edition": st.ruleset.edition}
    if target_id:
        params["target"] = card_name(st, target_id)
        params["target_id"] = target_id
    return params


def find(st: GameState, line: list[int], type_id: str, good: str = "") -> int:
    """The first card of type ``type_id`` in ``line`` (-1: none); where the ruleset tells copies apart
    by roundel (MK-49), the one whose roundel is ``good`` ("" for a type whose copies do not differ)."""
    cards = st.cards
    if not st.ruleset.roundels:
        if good:
            return -1
        for c in line:
            if cards[c].id == type_id:
                return c
        return -1
    goods = st.ruleset.catalogue.copy_goods
    for c in line:
        if cards[c].id == type_id and goods[c] == good:
            return c
    return -1


def check_hand_room(st: GameState, seat: int) -> None:
    limit = hand_limit(st, seat)
    if len(st.hands[seat]) >= limit:
        raise RuleError("hand_full", limit=limit)


def check_placement(st: GameState, seat: int, card: int, action: Action, lower: bool) -> tuple[int, int, int]:
    """A placement of ``card`` by ``seat``: (card, displaced card or -1, price); RuleError if it is not
    allowed or not affordable."""
    card, target, pr = resolve_placement(st, seat, card, action, lower)
    if pr > st.rubles[seat]:
        raise RuleError("too_few_rubles", price=pr, rubles=st.rubles[seat], **card_params(st, st.cards[card].id))
    return card, target, pr


def resolve_placement(st: GameState, seat: int, card: int, action: Action, lower: bool) -> tuple[int, int, int]:
    """As ``check_placement`` but without the affordability check: the price in full."""
    cards = st.cards
    t = cards[card]
    target = -1
    displaced = None
    if t.ability is not None and t.ability in st.ruleset.hooks.hand_plays:
        raise RuleError("not_placeable", **card_params(st, t.id))
    ctx = seat_context(st, seat)
    if t.trading:
        # can_displace itself, not the table ``displaceable`` (the same answers): a check needs no table of
        # every type a trading card may displace, whose first making costs far more than this pass
        for tt in ctx.targets:
            if can_displace(t, tt):
                break
        else:
            raise RuleError("no_target", **card_params(st, t.id))
        if not action.target:
            raise RuleError("needs_target", **card_params(st, t.id))
        fd = st.face_down
        locked = locked_cards(st)
        goods = st.ruleset.catalogue.copy_goods if st.ruleset.roundels else None
        for c in st.tableaux[seat]:
            tt = cards[c]
            if (
                tt.id == action.target
                and can_displace(t, tt)
                and c not in fd
                and c not in locked
                and (goods[c] if goods else "") == action.good
            ):
                target = c
                displaced = tt
                break
        else:
            raise RuleError("bad_target", **card_params(st, t.id, action.target))
    elif action.target:
        raise RuleError("not_trading", **card_params(st, t.id))
    return card, target, ctx.card_price(st, card, lower, displaced)
