"""The rules: setup, legal moves, validation, apply, scoring and the flow of phases and rounds.

Section references: seed 000 (1st edition), seed 001 (2nd edition), rules-notes.md (our rulings).
``legal_moves`` is the single authority on what may be done; ``apply`` validates with ``check``,
which agrees with it (tests/test_properties.py proves it on random games).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .actions import BUY, DISCARD, OBSERVE, PASS, PLAY, PUB, TAKE, Action, Move
from .cards import DECKS, EDITIONS, GREEN, CardType, Catalogue, catalogue
from .errors import RuleError
from .ruleset import Ruleset
from .state import DRAWN, HAND, LOWER, ROW_NAMES, TOKENS, UPPER, GameState, Pending

Event = dict[str, Any]

PUB_VP_PER_CARD = 5  # rules-notes 9 / cards.md D5: up to 5 VP per Pub
PUB_PRICE = 2
HAND_PENALTY = 5  # rules-notes 14


# --- setup ------------------------------------------------------------------------------------
def deal_tokens(n: int, rng: random.Random) -> dict[str, int]:
    """Start-player tokens (rules-notes 1): 4 players one each; 3 players one gets two; 2 players two each."""
    tokens = list(TOKENS)
    rng.shuffle(tokens)
    if n == 4:
        owners = [0, 1, 2, 3]
    elif n == 3:
        owners = [0, 1, 2, rng.randrange(3)]
    else:
        owners = [0, 0, 1, 1]
    return {tok: owners[i] for i, tok in enumerate(tokens)}


def new_game(
    ruleset: Ruleset,
    seats: Sequence[str],
    seed: int | None = None,
    stacks: Mapping[str, Sequence[str]] | None = None,
    tokens: dict[str, int] | None = None,
) -> GameState:
    """A new game, with stacks shuffled from ``seed`` or given explicitly (type ids, top card first).

    Explicit stacks are for tests, puzzles and bug reports; stacks left out are shuffled from ``seed``.
    """
    if len(seats) != ruleset.players:
        raise ValueError(f"the ruleset is for {ruleset.players} players, {len(seats)} seats given")
    cat = ruleset.catalogue
    rng = random.Random(seed)
    decks: dict[str, list[int]] = {}
    for deck in DECKS:
        ids = cat.deck_cards(deck)
        if stacks is not None and deck in stacks:
            pool = list(ids)
            order: list[int] = []
            for name in stacks[deck]:
                t = cat.lookup(name)
                match = next((c for c in pool if t is not None and cat.cards[c] is t), None)
                if match is None:
                    raise ValueError(f"stack {deck!r}: no (more) card {name!r} in this deck")
                pool.remove(match)
                order.append(match)
            rng.shuffle(pool)
            ids = order + pool  # named cards on top, the rest below in random order
        else:
            rng.shuffle(ids)
        decks[deck] = ids[::-1]  # top card at the end
    n = ruleset.players
    st = GameState(
        ruleset=ruleset,
        seats=list(seats),
        decks=decks,
        upper=[],
        lower=[],
        discard=[],
        rubles=[ruleset.starting_rubles] * n,
        vp=[0] * n,
        hands=[[] for _ in range(n)],
        tableaux=[[] for _ in range(n)],
        face_down=set(),
        tokens=dict(tokens) if tokens is not None else deal_tokens(n, rng),
        seed=seed,
        vp_by_source=[{} for _ in range(n)],
        stats=[{} for _ in range(n)],
    )
    if sorted(st.tokens) != sorted(TOKENS) or not all(0 <= s < n for s in st.tokens.values()):
        raise ValueError("tokens must give each of hammer, cathedral, bust, hand to a seat")
    # The very first worker phase shows 2 workers per player (rules-notes 1).
    _deal(st, ruleset.phases[0].deck, ruleset.first_workers, [])
    _begin_actions(st)
    return st


# --- derived facts about a player --------------------------------------------------------------
def hand_limit(st: GameState, seat: int) -> int:
    """3, plus 1 per Warehouse in the tableau (rules-notes 6)."""
    return seat_context(st, seat).hand_limit


class SeatContext:
    """Everything a player's prices, hand limit and Observatory depend on, from one pass over the
    tableau: what owned cards of the same name and discount cards take off each card type's price
    (``off``: only types with a reduction), the distinct card types a trading card could displace
    (never a trading card or a face-down Observatory), the hand limit and a face-up Observatory.
    ``tableau`` and ``face_down`` are copies of what it was built from: a context is a pure function
    of them, so a cached one is valid exactly while they are unchanged.
    """

    __slots__ = ("tableau", "face_down", "off", "targets", "hand_limit", "observatory")

    def __init__(
        self,
        tableau: list[int],
        face_down: set[int],
        off: dict[CardType, int],
        targets: list[CardType],
        hand_limit: int,
        observatory: int,
    ) -> None:
        self.tableau = tableau
        self.face_down = face_down
        self.off = off
        self.targets = targets
        self.hand_limit = hand_limit
        self.observatory = observatory

    @staticmethod
    def fresh(st: GameState, seat: int) -> SeatContext:
        """The context of ``seat``, from one pass over its tableau."""
        cards = st.cards
        fd = st.face_down
        off: dict[CardType, int] = {}
        discounts: list[str] = []
        targets: list[CardType] = []
        limit = st.ruleset.base_hand_limit
        observatory = -1
        for c in st.tableaux[seat]:
            t = cards[c]
            off[t] = off.get(t, 0) + 1
            if t.discount is not None:
                discounts.append(t.discount)
            face_up = c not in fd
            if not t.trading and face_up and t not in targets:
                targets.append(t)
            if observatory < 0 and face_up and t.ability == "observatory":
                observatory = c
            limit += t.hand_limit_bonus
        for colour in discounts:
            for t in _types_of_colour(st.ruleset.catalogue, colour):
                off[t] = off.get(t, 0) + 1
        return SeatContext(list(st.tableaux[seat]), set(fd), off, targets, limit, observatory)

    def extended(self, st: GameState, c: int) -> SeatContext:
        """The context of this tableau plus card ``c`` at its end: what a fresh one would be, built
        without a pass over the whole tableau (placing a card is the common change)."""
        t = st.cards[c]
        off = dict(self.off)
        off[t] = off.get(t, 0) + 1
        if t.discount is not None:
            for d in _types_of_colour(st.ruleset.catalogue, t.discount):
                off[d] = off.get(d, 0) + 1
        face_up = c not in self.face_down
        targets = self.targets
        if not t.trading and face_up and t not in targets:
            targets = targets + [t]
        observatory = self.observatory
        if observatory < 0 and face_up and t.ability == "observatory":
            observatory = c
        return SeatContext(
            self.tableau + [c], self.face_down, off, targets, self.hand_limit + t.hand_limit_bonus, observatory
        )

    def price(self, ctype: CardType, lower: bool, displaced: CardType | None = None) -> int:
        """rules-notes 4, 5; seed 000 "Kostensenkungen": printed cost (minus the displaced card's value
        for a trading card), minus 1 per card of the same name owned, 1 from the lower row, 1 per
        discount card of its colour; never below 1."""
        p = ctype.cost - self.off.get(ctype, 0)
        if lower:
            p -= 1
        if displaced is not None:
            p -= displaced.displace_value
        return p if p > 1 else 1


_COLOUR_TYPES: dict[tuple[int, str], tuple[CardType, ...]] = {}


def _types_of_colour(cat: Catalogue, colour: str) -> tuple[CardType, ...]:
    found = _COLOUR_TYPES.get((cat.edition, colour))
    if found is None:
        found = _COLOUR_TYPES[cat.edition, colour] = tuple(t for t in cat.types if t.colour == colour)
    return found


def seat_context(st: GameState, seat: int) -> SeatContext:
    """The SeatContext of ``seat``, rebuilt only when its tableau or the face-down cards changed
    (extended when a card was added at the end of the tableau)."""
    ctx = st.contexts[seat]
    tableau = st.tableaux[seat]
    if ctx is not None and ctx.face_down == st.face_down:
        if ctx.tableau == tableau:
            return ctx
        if len(tableau) == len(ctx.tableau) + 1 and tableau[:-1] == ctx.tableau:
            ctx = st.contexts[seat] = ctx.extended(st, tableau[-1])
            return ctx
    ctx = st.contexts[seat] = SeatContext.fresh(st, seat)
    return ctx


def price(st: GameState, seat: int, ctype: CardType, lower: bool, displaced: CardType | None = None) -> int:
    """Price of a card for ``seat`` (rules-notes 4, 5; seed 000 "Kostensenkungen"); see SeatContext.price."""
    return seat_context(st, seat).price(ctype, lower, displaced)


def can_displace(trading: CardType, target: CardType) -> bool:
    """rules-notes 5: same colour, never a trading card; green only with a shared worker symbol."""
    return (
        not target.trading
        and target.colour == trading.colour
        and (trading.colour != GREEN or not trading.symbols.isdisjoint(target.symbols))
    )


_DISPLACEABLE: dict[CardType, frozenset[CardType]] = {}


def _displaceable(trading: CardType) -> frozenset[CardType]:
    """Every card type of the edition that ``trading`` may displace (computed once per type)."""
    found = _DISPLACEABLE.get(trading)
    if found is None:
        types = [t for ed in EDITIONS for t in catalogue(ed).types]
        found = _DISPLACEABLE[trading] = frozenset(t for t in types if can_displace(trading, t))
    return found


def targets(st: GameState, seat: int, trading: CardType) -> list[int]:
    """Physical cards in ``seat``'s tableau that ``trading`` may displace (face-down Observatories never)."""
    cards = st.cards
    fd = st.face_down
    disp = _displaceable(trading)
    return [c for c in st.tableaux[seat] if cards[c] in disp and c not in fd]


def _first_worker_turn(st: GameState) -> bool:
    """rules-notes 2: in the very first worker phase each turn must buy a worker."""
    return st.round == 1 and st.phase == 0 and st.ruleset.mandatory_first_workers


# --- legal moves -------------------------------------------------------------------------------
# Moves are immutable values, so each is built once per edition and shared: per row and card type
# the take move and a table of placements indexed by price (for a trading card, one such table per
# type it may displace). legal_moves then allocates nothing but its list.
class MoveTables:
    """Every take and placement move of one edition's cards, per row (UPPER, LOWER, HAND, DRAWN)."""

    __slots__ = ("take", "place", "trade")

    def __init__(self, types: Iterable[CardType]) -> None:
        rows = (UPPER, LOWER, HAND, DRAWN)
        self.take: tuple[dict[CardType, Move], ...] = tuple({} for _ in rows)
        self.place: tuple[dict[CardType, list[Move]], ...] = tuple({} for _ in rows)
        self.trade: tuple[dict[CardType, dict[CardType, list[Move]]], ...] = tuple({} for _ in rows)
        types = tuple(types)
        for row in rows:
            kind = PLAY if row == HAND else BUY
            for t in types:
                self.take[row][t] = Move(Action(TAKE, t.id, row), 0)
                if not t.trading:
                    self.place[row][t] = _by_price(Action(kind, t.id, row), t.cost)
                else:
                    self.trade[row][t] = {
                        tt: _by_price(Action(kind, t.id, row, tt.id), t.cost - tt.displace_value)
                        for tt in types
                        if can_displace(t, tt)
                    }


def _by_price(action: Action, highest: int) -> list[Move]:
    """``action`` at every price from 0 to ``highest`` (at least 1), indexed by price."""
    return [Move(action, pr) for pr in range(max(highest, 1) + 1)]


_TABLES: dict[int, MoveTables] = {}


def _move_tables(st: GameState) -> MoveTables:
    edition = st.ruleset.edition
    found = _TABLES.get(edition)
    if found is None:
        found = _TABLES[edition] = MoveTables(st.ruleset.catalogue.types)
    return found


_PASS_MOVE = Move(Action(PASS), 0)


def _offers(
    ctx: SeatContext,
    st: GameState,
    rows: Iterable[tuple[int, Sequence[int]]],
    money: int,
    take: bool,
    out: list[Move],
) -> None:
    """Append the moves for the cards of each (row, cards) in ``rows``: each affordable placement (buy,
    or play from the hand; a trading card once per displaceable target type) and, if ``take``, taking
    it (never from the hand). Cards of the same name in a row are one choice. The price arithmetic is
    SeatContext.price's, inlined: this is the hottest loop of random playouts (the property tests
    hold the two to agreement)."""
    off = ctx.off
    cards = st.cards
    tables = _move_tables(st)
    append = out.append
    for row, line in rows:
        if not line:
            continue
        place = tables.place[row]
        takes = tables.take[row] if take and row != HAND else None
        lower = row == LOWER
        seen: list[CardType] = []
        for c in line:
            t = cards[c]
            if t in seen:
                continue
            seen.append(t)
            base = t.cost - off.get(t, 0) - lower
            if base < 1:
                base = 1
            if not t.trading:
                if base <= money:
                    append(place[t][base])
            elif money > 0:
                trades = tables.trade[row][t]
                for tt in ctx.targets:
                    table = trades.get(tt)
                    if table is not None:
                        pr = base - tt.displace_value
                        if pr < 1:
                            pr = 1
                        if pr <= money:
                            append(table[pr])
            if takes is not None:
                append(takes[t])


def legal_moves(st: GameState) -> list[Move]:
    """Every action the deciding player may take now, each with its price (seed 000 "Die Aktionen";
    rules-notes 2, 3, 8, 9). Cards of the same name in the same row are one choice."""
    if st.finished:
        return []
    p = st.pending
    if p is not None:
        return _pending_moves(st, p)
    seat = st.to_move
    cards = st.cards
    money = st.rubles[seat]
    ctx = seat_context(st, seat)
    moves: list[Move] = []
    if _first_worker_turn(st):  # rules-notes 2: buy a worker; pass only if none is affordable
        rows = ((UPPER, st.upper), (LOWER, st.lower))
        workers = [(row, [c for c in line if cards[c].deck == "workers"]) for row, line in rows]
        _offers(ctx, st, workers, money, False, moves)
        return moves if moves else [_PASS_MOVE]
    take = len(st.hands[seat]) < ctx.hand_limit
    _offers(ctx, st, ((UPPER, st.upper), (LOWER, st.lower), (HAND, st.hands[seat])), money, take, moves)
    if ctx.observatory >= 0 and _observing_phase(st):
        for deck in DECKS:
            if len(st.decks[deck]) >= 2:
                moves.append(Move(Action(OBSERVE, deck), 0))
    moves.append(_PASS_MOVE)
    return moves


def _pending_moves(st: GameState, p: Pending) -> list[Move]:
    """The Pub decision (rules-notes 9) or the Observatory's drawn card (rules-notes 8)."""
    seat = p.seat
    if p.kind == "pub":
        return [Move(Action(PUB, amount=k), PUB_PRICE * k) for k in range(_pub_max(st, seat) + 1)]
    ctx = seat_context(st, seat)
    moves: list[Move] = []
    _offers(ctx, st, ((DRAWN, (p.card,)),), st.rubles[seat], len(st.hands[seat]) < ctx.hand_limit, moves)
    moves.append(Move(Action(DISCARD, st.cards[p.card].id, DRAWN), 0))
    return moves


def _pub_max(st: GameState, seat: int) -> int:
    cards = st.cards
    pubs = sum(1 for c in st.tableaux[seat] if cards[c].ability == "pub")
    return min(PUB_VP_PER_CARD * pubs, st.rubles[seat] // PUB_PRICE)


def _observing_phase(st: GameState) -> bool:
    """An Observatory is used in the building phase only (rules-notes 8)."""
    return st.ruleset.phases[st.phase].key == "buildings"


def _usable_observatory(st: GameState, seat: int) -> int:
    """A face-up Observatory of ``seat`` usable now (building phase only, rules-notes 8), or -1."""
    return seat_context(st, seat).observatory if _observing_phase(st) else -1


# --- validation ----------------------------------------------------------------------------------
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
    kind, card_id, row, target_id, amount = action
    if p is not None:
        return _check_pending(st, p, action)
    if kind == PASS:
        if card_id or row != -1 or target_id or amount:
            raise RuleError("malformed_action")
        if _first_worker_turn(st) and any(m.action.kind == BUY for m in legal_moves(st)):
            raise RuleError("must_buy_worker")
        return _NOTHING
    if kind in (BUY, TAKE):
        if amount or (target_id and kind == TAKE):
            raise RuleError("malformed_action")
        line = st.upper if row == UPPER else st.lower if row == LOWER else None
        card = _find(st, line, card_id) if line is not None else -1
        if card < 0:
            raise RuleError("no_such_card", **_card_params(st, card_id))
        if _first_worker_turn(st) and (kind != BUY or st.cards[card].deck != "workers"):
            raise RuleError("must_buy_worker")
        if kind == TAKE:
            _check_hand_room(st, decider)
            return card, -1, 0
        return _check_placement(st, decider, card, action, lower=row == LOWER)
    if not _well_formed(action):
        raise RuleError("malformed_action")
    if kind in (PUB, DISCARD):
        raise RuleError("no_decision")
    if kind == OBSERVE:
        if _first_worker_turn(st):
            raise RuleError("must_buy_worker")
        obs = _usable_observatory(st, decider)
        if obs < 0:
            raise RuleError("observatory_unavailable")
        if card_id not in st.decks or len(st.decks[card_id]) < 2:
            raise RuleError("stack_too_small", deck=card_id)
        return obs, -1, 0
    if kind == PLAY:
        if _first_worker_turn(st):
            raise RuleError("must_buy_worker")
        card = _find(st, st.hands[decider], card_id) if row == HAND else -1
        if card < 0:
            raise RuleError("no_such_card", **_card_params(st, card_id))
        return _check_placement(st, decider, card, action, lower=False)
    raise RuleError("malformed_action")


_NOTHING = (-1, -1, 0)


def _check_pending(st: GameState, p: Pending, action: Action) -> tuple[int, int, int]:
    """The Pub decision (rules-notes 9) or the Observatory's drawn card (rules-notes 8)."""
    if not _well_formed(action):
        raise RuleError("malformed_action")
    kind = action.kind
    if p.kind == "pub":
        if kind != PUB:
            raise RuleError("wrong_decision", pending="pub")
        mx = _pub_max(st, p.seat)
        if not 0 <= action.amount <= mx:
            raise RuleError("pub_amount", max=mx)
        return -1, -1, PUB_PRICE * action.amount
    drawn_t = st.cards[p.card]
    if kind not in (BUY, TAKE, DISCARD) or action.card != drawn_t.id or action.row != DRAWN:
        raise RuleError("wrong_decision", pending="observatory", **_card_params(st, drawn_t.id))
    if kind == DISCARD:
        return p.card, -1, 0
    if kind == TAKE:
        _check_hand_room(st, p.seat)
        return p.card, -1, 0
    return _check_placement(st, p.seat, p.card, action, lower=False)


def _well_formed(a: Action) -> bool:
    """The fields an action's kind does not use are empty (as in what ``legal_moves`` lists)."""
    k = a.kind
    if k == PASS:
        return not a.card and a.row == -1 and not a.target and not a.amount
    if k == PUB:
        return not a.card and a.row == -1 and not a.target
    if k == OBSERVE:
        return a.row == -1 and not a.target and not a.amount
    if k in (TAKE, DISCARD):
        return not a.target and not a.amount
    return not a.amount


def _name(st: GameState, type_id: str) -> str:
    t = st.ruleset.catalogue.by_id.get(type_id)
    return t.name_en if t is not None else repr(type_id)


def _card_params(st: GameState, card_id: str, target_id: str = "") -> dict[str, Any]:
    """Error parameters naming cards: English names for the message, ids and edition to translate them."""
    params: dict[str, Any] = {"card": _name(st, card_id), "card_id": card_id, "edition": st.ruleset.edition}
    if target_id:
        params["target"] = _name(st, target_id)
        params["target_id"] = target_id
    return params


def _find(st: GameState, line: Iterable[int], type_id: str) -> int:
    cards = st.cards
    for c in line:
        if cards[c].id == type_id:
            return c
    return -1


def _check_hand_room(st: GameState, seat: int) -> None:
    limit = seat_context(st, seat).hand_limit
    if len(st.hands[seat]) >= limit:
        raise RuleError("hand_full", limit=limit)


def _check_placement(st: GameState, seat: int, card: int, action: Action, lower: bool) -> tuple[int, int, int]:
    cards = st.cards
    t = cards[card]
    target = -1
    displaced = None
    ctx = seat_context(st, seat)
    if t.trading:
        disp = _displaceable(t)
        if not any(tt in disp for tt in ctx.targets):
            raise RuleError("no_target", **_card_params(st, t.id))
        if not action.target:
            raise RuleError("needs_target", **_card_params(st, t.id))
        fd = st.face_down
        for c in st.tableaux[seat]:
            tt = cards[c]
            if tt.id == action.target and tt in disp and c not in fd:
                target = c
                displaced = tt
                break
        else:
            raise RuleError("bad_target", **_card_params(st, t.id, action.target))
    elif action.target:
        raise RuleError("not_trading", **_card_params(st, t.id))
    pr = ctx.price(t, lower, displaced)
    if pr > st.rubles[seat]:
        raise RuleError("too_few_rubles", price=pr, rubles=st.rubles[seat], **_card_params(st, t.id))
    return card, target, pr


# --- apply ---------------------------------------------------------------------------------------
def apply(st: GameState, action: Action, seat: int | None = None) -> list[Event]:
    """Validate and carry out ``action`` in place; return the events it caused (for the game log).

    On a RuleError nothing has changed.
    """
    card, target, pr = check(st, action, seat)
    kind = action.kind
    p = st.pending
    st.action_count += 1
    if p is None:
        decider = st.to_move
        if kind == PASS:
            st.passes += 1
            events: list[Event] = [{"type": "pass", "seat": decider}]
            _next_turn(st, events)
            return events
        if kind == OBSERVE:
            st.face_down.add(card)
            drawn = st.decks[action.card].pop()
            st.pending = Pending("observatory", decider, drawn, card)
            return [{"type": "observe", "seat": decider, "deck": action.card, "card": st.cards[drawn].id}]
        t = st.cards[card]
        row = action.row
        if kind == TAKE:
            (st.upper if row == UPPER else st.lower).remove(card)
            st.hands[decider].append(card)
            stats = st.stats[decider]
            stats["taken"] = stats.get("taken", 0) + 1
            events = [{"type": "take", "seat": decider, "card": t.id, "row": ROW_NAMES[row]}]
        else:
            (st.hands[decider] if kind == PLAY else st.upper if row == UPPER else st.lower).remove(card)
            _place(st, decider, card, target, pr)
            events = [_placed_event(kind, decider, t, pr, row, target, st.cards)]
        st.passes = 0
        _next_turn(st, events)
        return events
    decider = p.seat
    if p.kind == "pub":
        if action.amount:
            st.rubles[decider] -= pr
            _gain_vp(st, decider, action.amount, "pub")
            stats = st.stats[decider]
            stats["spent"] = stats.get("spent", 0) + pr
        events = [{"type": "pub", "seat": decider, "vp": action.amount, "rubles": pr}]
        _next_pub(st, p.queue, events)
        return events
    # The Observatory's drawn card.
    st.pending = None
    t = st.cards[card]
    if kind == BUY:
        _place(st, decider, card, target, pr)
        events = [_placed_event(BUY, decider, t, pr, DRAWN, target, st.cards)]
    elif kind == TAKE:
        st.hands[decider].append(card)
        stats = st.stats[decider]
        stats["taken"] = stats.get("taken", 0) + 1
        events = [{"type": "take", "seat": decider, "card": t.id, "row": "drawn"}]
    else:
        st.discard.append(card)
        events = [{"type": "discard", "seat": decider, "card": t.id}]
    st.passes = 0
    _next_turn(st, events)
    return events


def _placed_event(
    kind: str, seat: int, t: CardType, pr: int, row: int, target: int, cards: Sequence[CardType]
) -> Event:
    ev: Event = {
        "type": kind,
        "seat": seat,
        "card": t.id,
        "price": pr,
        "row": ROW_NAMES[row],
    }
    if target >= 0:
        ev["displaced"] = cards[target].id
    return ev


def _place(st: GameState, seat: int, card: int, target: int, pr: int) -> None:
    """Pay and lay out a card; a trading card replaces ``target``, which goes to the discard pile."""
    st.rubles[seat] -= pr
    tab = st.tableaux[seat]
    stats = st.stats[seat]
    stats["spent"] = stats.get("spent", 0) + pr
    if target >= 0:
        tab[tab.index(target)] = card
        st.discard.append(target)
        stats["traded"] = stats.get("traded", 0) + 1
    else:
        tab.append(card)
        stats["bought"] = stats.get("bought", 0) + 1


def _gain_vp(st: GameState, seat: int, vp: int, source: str) -> None:
    st.vp[seat] += vp
    d = st.vp_by_source[seat]
    d[source] = d.get(source, 0) + vp


# --- flow ----------------------------------------------------------------------------------------
def _next_turn(st: GameState, events: list[Event]) -> None:
    """After a turn: the phase ends when all passed in succession or the display is empty (rules-notes 3)."""
    if st.passes >= len(st.seats) or (not st.upper and not st.lower and st.ruleset.display_empty_ends_phase):
        _end_phase(st, events)
    else:
        st.to_move = (st.to_move + 1) % len(st.seats)


def _begin_actions(st: GameState) -> None:
    st.to_move = st.tokens[st.ruleset.phases[st.phase].token]
    st.passes = 0


def _deal(st: GameState, deck: str, count: int, events: list[Event]) -> None:
    """Place up to ``count`` cards from ``deck`` in the upper row; placing a stack's last card, or a
    stack too short to fill the display, triggers the end of the game (rules-notes 13)."""
    stack = st.decks[deck]
    dealt = []
    for _ in range(count):
        if not stack:
            break
        dealt.append(stack.pop())
    st.upper.extend(dealt)
    if count > 0 and not stack and not st.ending:
        st.ending = True
        events.append({"type": "end_triggered", "deck": deck})
    if dealt:
        cards = st.cards
        events.append({"type": "dealt", "deck": deck, "cards": [cards[c].id for c in dealt]})


def _end_phase(st: GameState, events: list[Event]) -> None:
    phase = st.ruleset.phases[st.phase]
    if phase.scores is not None:
        _score(st, phase.scores, phase.key, events)
        if phase.key == "buildings":
            start = st.tokens[phase.token]
            order = [(start + i) % st.n for i in range(st.n)]
            _next_pub(st, order, events)
            return
    _after_scoring(st, events)


def _next_pub(st: GameState, queue: list[int], events: list[Event]) -> None:
    """Pub decisions right after building scoring, from the phase's start player (rules-notes 9)."""
    queue = list(queue)
    while queue:
        seat = queue.pop(0)
        if _pub_max(st, seat) > 0:
            st.pending = Pending("pub", seat, queue=queue)
            return
    st.pending = None
    _after_scoring(st, events)


def _score(st: GameState, colour: str, key: str, events: list[Event]) -> None:
    """Scoring of one colour (rules-notes 7, 10): income of every card of that colour, plus bonuses."""
    cards = st.cards
    start = st.tokens[st.ruleset.phases[st.phase].token]
    rubles_key, vp_key = f"{key}_rubles", f"{key}_vp"
    n = len(st.seats)
    for i in range(n):
        seat = (start + i) % n
        rub = vp = 0
        for c in st.tableaux[seat]:
            t = cards[c]
            if t.colour != colour:
                continue
            rub += t.rubles
            if c not in st.face_down:
                vp += t.vp
            if t.bonus_per is not None:
                k = sum(1 for x in st.tableaux[seat] if cards[x].colour == t.bonus_per)
                rub += t.bonus_rubles * k
                vp += t.bonus_vp * k
        st.rubles[seat] += rub
        if vp:
            _gain_vp(st, seat, vp, key)
        s = st.stats[seat]
        s[rubles_key] = s.get(rubles_key, 0) + rub
        s[vp_key] = s.get(vp_key, 0) + vp
        events.append({"type": "score", "phase": key, "seat": seat, "rubles": rub, "vp": vp})


def _after_scoring(st: GameState, events: list[Event]) -> None:
    phases = st.ruleset.phases
    if st.phase + 1 < len(phases):
        _start_phase(st, st.phase + 1, events)
        return
    # End of a round (rules-notes 12): lower row discarded, upper row moves down, tokens pass left.
    st.discard.extend(st.lower)
    st.lower = st.upper
    st.upper = []
    step = st.ruleset.token_step
    st.tokens = {tok: (s + step) % st.n for tok, s in st.tokens.items()}
    st.history.append({"round": st.round, "vp": list(st.vp), "rubles": list(st.rubles)})
    events.append({"type": "round_end", "round": st.round})
    if st.ending:
        _final_scoring(st, events)
        return
    st.round += 1
    if st.ruleset.observatory_reset == "round":
        st.face_down.clear()
    _start_phase(st, 0, events)


def _start_phase(st: GameState, index: int, events: list[Event]) -> None:
    """New cards (rules-notes 11): the upper row is filled from the phase's stack to 8 in both rows."""
    st.phase = index
    if st.ruleset.observatory_reset == "phase":
        st.face_down.clear()
    phase = st.ruleset.phases[index]
    need = st.ruleset.display_size - len(st.upper) - len(st.lower)
    events.append({"type": "phase", "phase": phase.key, "round": st.round})
    if need > 0:
        _deal(st, phase.deck, need, events)
    _begin_actions(st)
    if st.ruleset.display_empty_ends_phase and not st.upper and not st.lower:
        _end_phase(st, events)


def aristocrat_vp(st: GameState, seat: int) -> int:
    """Final VP for distinct aristocrats, red trading cards included, by name (rules-notes 14)."""
    cards = st.cards
    table = st.ruleset.catalogue.aristocrat_table
    distinct = {cards[c].id for c in st.tableaux[seat] if cards[c].colour == "red"}
    return table[min(len(distinct), len(table) - 1)]


def _final_scoring(st: GameState, events: list[Event]) -> None:
    """Final scoring (rules-notes 14): aristocrats, 1 VP per 10 rubles, -5 per hand card; ties by rubles left."""
    final = []
    for seat in range(st.n):
        ar = aristocrat_vp(st, seat)
        money_vp = st.rubles[seat] // 10
        penalty = HAND_PENALTY * len(st.hands[seat])
        _gain_vp(st, seat, ar, "aristocrat_bonus")
        _gain_vp(st, seat, money_vp, "rubles")
        _gain_vp(st, seat, -penalty, "hand_penalty")
        st.rubles[seat] -= 10 * money_vp
        final.append(
            {
                "seat": seat,
                "aristocrats": ar,
                "rubles_vp": money_vp,
                "hand_penalty": -penalty,
                "vp": st.vp[seat],
                "rubles_left": st.rubles[seat],
            }
        )
    best = max((st.vp[s], st.rubles[s]) for s in range(st.n))
    st.winners = [s for s in range(st.n) if (st.vp[s], st.rubles[s]) == best]
    st.final = final
    st.finished = True
    st.pending = None
    events.append({"type": "game_end", "final": final, "winners": list(st.winners)})
