"""Legal moves (seed 000 "Die Aktionen"; BG-02, BG-03, BG-08): every action the deciding player may
take now, each with its price. ``legal_moves`` is the single authority on what may be done; ``check``
(rules/checks.py) agrees with it. Pending decisions list their own moves (``Hooks.decisions``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .actions import BUY, DISCARD, OBSERVE, PASS, PLAY, PUB, TAKE, Action, Move
from .cards import CardType
from .prices import Copies, SeatContext, can_displace, hand_room, seat_context
from .scoring import vp_cards
from .state import DRAWN, HAND, LOWER, UPPER, GameState

BEFORE_ACTION: Final = "before_action"  # st.ext: the seat whose regular action follows a step before it (flow)

PUB_VP_PER_CARD: Final = 5  # BG-09 / cards.md D5: up to 5 VP per Pub
PUB_PRICE: Final = 2


def first_worker_turn(st: GameState) -> bool:
    """BG-02: in the very first worker phase each turn must buy a worker."""
    return st.round == 1 and st.phase == 0 and st.ruleset.mandatory_first_workers


# --- legal moves -------------------------------------------------------------------------------
# Moves are immutable values, so each is built once per catalogue and shared: per row and copy class
# (``rules.prices.Copies``: the card type, and its roundel where copies differ, MK-49) the take move
# and a table of placements indexed by price (for a trading card, one such table per class it may
# displace). Cards are read by their index in the catalogue, so legal_moves looks nothing up in a
# dict and allocates nothing but its list.
class MoveTables:
    """Every take and placement move of one catalogue's cards, per row (UPPER, LOWER, HAND, DRAWN),
    by copy class: ``take[row][k]``, ``place[row][k][price]`` (None for a trading card or a card
    played from the hand as an action) and ``trade[row][k][j][price]`` (trading card class ``k`` over
    class ``j``; None where it may not displace it); and discarding a card drawn with the Observatory,
    ``discard[k]`` (BG-08). A move names the roundel of its card, or for a
    trading card of the displaced card (``Action.good``, where the ruleset tells copies apart)."""

    __slots__ = ("take", "place", "trade", "discard")

    def __init__(self, types: Sequence[CardType], copies: Copies, hand_only: frozenset[str] = frozenset()) -> None:
        rows = (UPPER, LOWER, HAND, DRAWN)
        classes = [(types[ti], copies.good[k]) for k, ti in enumerate(copies.type_of)]
        self.take: list[list[Move]] = []
        self.place: list[list[list[Move] | None]] = []
        self.trade: list[list[list[list[Move] | None] | None]] = []
        for row in rows:
            kind = PLAY if row == HAND else BUY
            self.take.append([Move(Action(TAKE, t.id, row, good=good), 0) for t, good in classes])
            place: list[list[Move] | None] = []
            trade: list[list[list[Move] | None] | None] = []
            for t, good in classes:
                laid = t.ability not in hand_only  # else played from the hand as an action, never laid out (BQ-03)
                place.append(_by_price(Action(kind, t.id, row, good=good), t.cost) if laid and not t.trading else None)
                trade.append(
                    [
                        _by_price(Action(kind, t.id, row, tt.id, good=tgood), t.cost - tt.displace_value)
                        if can_displace(t, tt)
                        else None
                        for tt, tgood in classes
                    ]
                    if laid and t.trading
                    else None
                )
            self.place.append(place)
            self.trade.append(trade)
        self.discard: list[Move] = [Move(Action(DISCARD, t.id, DRAWN, good=good), 0) for t, good in classes]

    def __repr__(self) -> str:
        return "MoveTables()"


def _by_price(action: Action, highest: int) -> list[Move]:
    """``action`` at every price from 0 to ``highest`` (at least 1), indexed by price."""
    return [Move(action, pr) for pr in range(max(highest, 1) + 1)]


def tables_of(ctx: SeatContext, st: GameState) -> MoveTables:
    """The shared moves of the copy classes ``ctx`` tells apart."""
    copies = ctx.copies
    found = copies.tables
    if isinstance(found, MoveTables):
        return found
    made = MoveTables(ctx.index.types, copies, frozenset(st.ruleset.hooks.hand_plays))
    copies.tables = made
    return made


PASS_MOVE: Final = Move(Action(PASS), 0)


def offers(
    ctx: SeatContext,
    st: GameState,
    rows: Iterable[tuple[int, Sequence[int]]],
    money: int,
    take: bool,
    out: list[Move],
) -> None:
    """Append the moves for the cards of each (row, cards) in ``rows``: each affordable placement (buy,
    or play from the hand; a trading card once per displaceable target) and, if ``take``, taking it
    (never from the hand). Cards of the same name in a row are one choice, unless the ruleset tells
    copies with different roundels apart (MK-49): then the action names the roundel (``Action.good``)
    of the card, or of the displaced card for a trading card."""
    numbers: list[int] = []
    lines: list[list[int]] = []
    for row, line in rows:
        numbers.append(row)
        lines.append(line if isinstance(line, list) else list(line))
    offer_rows(ctx, tables_of(ctx, st), tuple(numbers), lines, money, take, out)


MARK_BITS: Final = 60  # copy classes marked in one int (a native int holds 62 bits)
ROWS: Final[tuple[int, ...]] = (UPPER, LOWER, HAND)  # a normal turn's rows, in the order their moves are listed
UPPER_ROW: Final[tuple[int, ...]] = (UPPER,)
DRAWN_ROW: Final[tuple[int, ...]] = (DRAWN,)


def offer_rows(
    ctx: SeatContext,
    tables: MoveTables,
    rows: tuple[int, ...],
    lines: list[list[int]],
    money: int,
    take: bool,
    out: list[Move],
) -> None:
    """``offers`` for the cards ``lines[k]`` of row ``rows[k]``. The price arithmetic is
    SeatContext.price's, inlined: this is the hottest loop of random playouts (the property tests
    hold the two to agreement)."""
    cost = ctx.cost
    copies = ctx.copies
    of_copy = copies.of_card
    type_of = copies.type_of
    alike = copies.alike  # a copy class is its type index
    for k in range(len(lines)):
        line = lines[k]
        n = len(line)
        if n == 0:
            continue
        row = rows[k]
        place = tables.place[row]
        takes = tables.take[row] if take and row != HAND else None
        lower = 1 if row == LOWER else 0
        # The copy classes listed from this row, a bit each (classes from MARK_BITS on in a second word, so that
        # both stay native ints): one choice per class. A card skipped below as having nothing to offer is not
        # marked: a later copy of its class is skipped the same way.
        listed = listed_high = 0
        for c in line:
            cc = of_copy[c]
            base: int = cost[cc if alike else type_of[cc]] - lower
            if base < 1:
                base = 1
            prices = place[cc]  # None for a trading card (and a card never laid out)
            if prices is not None:
                if base > money and takes is None:
                    continue  # nothing to offer (the common case: known before looking for duplicates)
            elif money <= 0 and takes is None:
                continue
            if cc < MARK_BITS:
                bit = 1 << cc
                if listed & bit:
                    continue  # its moves are listed already
                listed |= bit
            else:
                bit = 1 << (cc - MARK_BITS)
                if listed_high & bit:
                    continue
                listed_high |= bit
            if prices is not None:
                if base <= money:
                    out.append(prices[base])
            elif money > 0:
                trades = tables.trade[row][cc]
                if trades is not None:
                    trade_targets = ctx.trade_targets
                    for j in range(len(trade_targets)):
                        tk = trade_targets[j]
                        table = trades[tk]
                        if table is not None:
                            pr: int = base - copies.value[tk]
                            if pr < 1:
                                pr = 1
                            if pr <= money:
                                out.append(table[pr])
            if takes is not None:
                out.append(takes[cc])


def legal_moves(st: GameState) -> list[Move]:
    """Every action the deciding player may take now, each with its price (seed 000 "Die Aktionen";
    BG-02, BG-03, BG-08, BG-09). Cards of the same name in the same row are one choice."""
    if st.finished:
        return []
    p = st.pending
    if p is not None:
        return st.ruleset.hooks.decisions[p.kind].moves(st, p)
    seat = st.to_move
    money = st.rubles[seat]
    ctx = seat_context(st, seat)
    moves: list[Move] = []
    hooks = st.ruleset.hooks
    before = hooks.before_action
    if st.round == 1 and st.phase == 0 and st.ruleset.mandatory_first_workers:  # first_worker_turn (BG-02)
        # buy a worker; pass only if none is affordable
        cards = st.cards
        workers = [[c for c in line if cards[c].deck == "workers"] for line in (st.upper, st.lower)]
        offer_rows(ctx, tables_of(ctx, st), ROWS, workers, money, False, moves)
        if not moves:
            moves.append(PASS_MOVE)
        if before:
            before_moves(st, seat, moves)
        return moves
    hand = st.hands[seat]
    take = len(hand) < (hand_room(st, seat, ctx) if hooks.hand_limit else ctx.hand_limit)
    tables = ctx.copies.tables
    if not isinstance(tables, MoveTables):
        tables = tables_of(ctx, st)
    offer_rows(ctx, tables, ROWS, [st.upper, st.lower, hand], money, take, moves)
    if ctx.observatory >= 0 and observing_phase(st):
        for deck in st.ruleset.decks:
            if len(st.decks[deck]) >= 2:
                moves.append(observe_move(deck))
    if hooks.hand_plays:
        hand_play_moves(st, seat, moves)
    extra = hooks.turn_actions
    if extra:
        for turn_action in extra.values():
            turn_action.moves(st, seat, moves)
    moves.append(PASS_MOVE)
    if before:
        before_moves(st, seat, moves)
    return moves


_OBSERVE_MOVES: Final[dict[str, Move]] = {}


def observe_move(deck: str) -> Move:
    """The move drawing from ``deck`` with the Observatory (BG-08), built once per stack."""
    found = _OBSERVE_MOVES.get(deck)
    if found is None:
        found = _OBSERVE_MOVES[deck] = Move(Action(OBSERVE, deck), 0)
    return found


def hand_play_moves(st: GameState, seat: int, out: list[Move]) -> None:
    """The plays of hand cards that are played as an action (``Hooks.hand_plays``), once per type."""
    plays = st.ruleset.hooks.hand_plays
    cards = st.cards
    seen: list[CardType] = []
    for c in st.hands[seat]:
        t = cards[c]
        if t.ability in plays and t not in seen:
            seen.append(t)
            plays[t.ability].moves(st, seat, c, out)


def before_moves(st: GameState, seat: int, out: list[Move]) -> None:
    """The steps a player may take before his regular action (X-07: an event, M4-03), at most one a
    turn."""
    if BEFORE_ACTION not in st.ext:
        for step in st.ruleset.hooks.before_action.values():
            step.moves(st, seat, out)


def pub_max(st: GameState, seat: int) -> int:
    """The most VP ``seat`` may buy at its Pubs now (BG-09): 5 per Pub that may yield VP (a covered
    one sells none, AMB-17(e)), 2 rubles each."""
    return min(PUB_VP_PER_CARD * vp_cards(st, seat, "pub"), st.rubles[seat] // PUB_PRICE)


_PUB_MOVES: Final[list[Move]] = []


def pub_moves(most: int) -> list[Move]:
    """Buying 0 to ``most`` VP at the Pubs (BG-09), 2 rubles each; the moves are built once."""
    made = _PUB_MOVES
    while len(made) <= most:
        k = len(made)
        made.append(Move(Action(PUB, amount=k), PUB_PRICE * k))
    return made[: most + 1]


def observing_phase(st: GameState) -> bool:
    """An Observatory is used in the building phase only (BG-08)."""
    return st.ruleset.phases[st.phase].key == "buildings"


def usable_observatory(st: GameState, seat: int) -> int:
    """A face-up Observatory of ``seat`` usable now (building phase only, BG-08), or -1."""
    return seat_context(st, seat).observatory if observing_phase(st) else -1
