"""Legal moves (seed 000 "Die Aktionen"; BG-02, BG-03, BG-08): every action the deciding player may
take now, each with its price. ``legal_moves`` is the single authority on what may be done; ``check``
(rules/checks.py) agrees with it. Pending decisions list their own moves (``Hooks.decisions``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import BUY, OBSERVE, PASS, PLAY, TAKE, Action, Move
from .cards import CardType
from .prices import SeatContext, can_displace, hand_room, locked_cards, seat_context
from .scoring import vp_cards
from .state import DRAWN, HAND, LOWER, UPPER, GameState

BEFORE_ACTION = "before_action"  # st.ext: the seat whose regular action follows a step before it (flow)

PUB_VP_PER_CARD = 5  # BG-09 / cards.md D5: up to 5 VP per Pub
PUB_PRICE = 2


def first_worker_turn(st: GameState) -> bool:
    """BG-02: in the very first worker phase each turn must buy a worker."""
    return st.round == 1 and st.phase == 0 and st.ruleset.mandatory_first_workers


# --- legal moves -------------------------------------------------------------------------------
# Moves are immutable values, so each is built once per edition and shared: per row and card type
# the take move and a table of placements indexed by price (for a trading card, one such table per
# type it may displace). legal_moves then allocates nothing but its list.
class MoveTables:
    """Every take and placement move of one edition's cards, per row (UPPER, LOWER, HAND, DRAWN)."""

    __slots__ = ("take", "place", "trade")

    def __init__(self, types: Iterable[CardType], hand_only: frozenset[str] = frozenset()) -> None:
        rows = (UPPER, LOWER, HAND, DRAWN)
        self.take: tuple[dict[CardType, Move], ...] = tuple({} for _ in rows)
        self.place: tuple[dict[CardType, list[Move]], ...] = tuple({} for _ in rows)
        self.trade: tuple[dict[CardType, dict[CardType, list[Move]]], ...] = tuple({} for _ in rows)
        types = tuple(types)
        for row in rows:
            kind = PLAY if row == HAND else BUY
            for t in types:
                self.take[row][t] = Move(Action(TAKE, t.id, row), 0)
                if t.ability in hand_only:  # played from the hand as an action, never laid out (BQ-03)
                    continue
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


_TABLES: dict[tuple[int, tuple[str, ...]], MoveTables] = {}


def move_tables(st: GameState) -> MoveTables:
    """The shared moves of the game's cards; types played as a hand action (``Hooks.hand_plays``)
    have no placement moves (the same extras always come with the same hooks)."""
    cat = st.ruleset.catalogue
    found = _TABLES.get((cat.edition, cat.extras))
    if found is None:
        hand_only = frozenset(st.ruleset.hooks.hand_plays)
        found = _TABLES[cat.edition, cat.extras] = MoveTables(cat.types, hand_only)
    return found


PASS_MOVE = Move(Action(PASS), 0)


def offers(
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
    if st.ruleset.roundels:
        _offers_by_copy(ctx, st, rows, money, take, out)
        return
    off = ctx.off
    cards = st.cards
    tables = move_tables(st)
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
                    prices = place.get(t)
                    if prices is not None:
                        append(prices[base])
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


def _offers_by_copy(
    ctx: SeatContext,
    st: GameState,
    rows: Iterable[tuple[int, Sequence[int]]],
    money: int,
    take: bool,
    out: list[Move],
) -> None:
    """``offers`` where copies of a type with different roundels are different choices (MK-49): the
    action names the roundel (``Action.good``) of the card, or of the displaced card for a trading
    card. Same arithmetic as ``offers``."""
    off = ctx.off
    cards = st.cards
    goods = st.ruleset.catalogue.copy_goods
    tables = move_tables(st)
    targets: list[tuple[CardType, str]] | None = None
    append = out.append
    for row, line in rows:
        if not line:
            continue
        place = tables.place[row]
        takes = tables.take[row] if take and row != HAND else None
        lower = row == LOWER
        seen: list[object] = []
        for c in line:
            t = cards[c]
            good = goods[c]
            key: object = (t, good) if good else t
            if key in seen:
                continue
            seen.append(key)
            base = t.cost - off.get(t, 0) - lower
            if base < 1:
                base = 1
            if not t.trading:
                if base <= money:
                    prices = place.get(t)
                    if prices is not None:
                        m = prices[base]
                        append(_with_good(m, good) if good else m)
            elif money > 0:
                if targets is None:
                    targets = _copy_targets(st)
                trades = tables.trade[row][t]
                for tt, tgood in targets:
                    table = trades.get(tt)
                    if table is not None:
                        pr = base - tt.displace_value
                        if pr < 1:
                            pr = 1
                        if pr <= money:
                            m = table[pr]
                            append(_with_good(m, tgood) if tgood else m)
            if takes is not None:
                m = takes[t]
                append(_with_good(m, good) if good else m)


def _copy_targets(st: GameState) -> list[tuple[CardType, str]]:
    """The deciding seat's displaceable cards as (type, roundel naming the copy), once each."""
    cards = st.cards
    goods = st.ruleset.catalogue.copy_goods
    fd = st.face_down
    locked = locked_cards(st)
    out: list[tuple[CardType, str]] = []
    for x in st.tableaux[st.decider]:
        key = (cards[x], goods[x])
        if not key[0].trading and x not in fd and x not in locked and key not in out:
            out.append(key)
    return out


_GOOD_MOVES: dict[tuple[int, str], Move] = {}


def _with_good(m: Move, good: str) -> Move:
    """The move ``m`` (one of the shared MoveTables moves) naming the roundel ``good``; built once."""
    found = _GOOD_MOVES.get((id(m), good))
    if found is None:
        found = _GOOD_MOVES[id(m), good] = Move(m.action._replace(good=good), m.price)
    return found


def legal_moves(st: GameState) -> list[Move]:
    """Every action the deciding player may take now, each with its price (seed 000 "Die Aktionen";
    BG-02, BG-03, BG-08, BG-09). Cards of the same name in the same row are one choice."""
    if st.finished:
        return []
    p = st.pending
    if p is not None:
        return st.ruleset.hooks.decisions[p.kind].moves(st, p)
    seat = st.to_move
    cards = st.cards
    money = st.rubles[seat]
    ctx = seat_context(st, seat)
    moves: list[Move] = []
    before = st.ruleset.hooks.before_action
    if first_worker_turn(st):  # BG-02: buy a worker; pass only if none is affordable
        rows = ((UPPER, st.upper), (LOWER, st.lower))
        workers = [(row, [c for c in line if cards[c].deck == "workers"]) for row, line in rows]
        offers(ctx, st, workers, money, False, moves)
        if not moves:
            moves.append(PASS_MOVE)
        if before:
            before_moves(st, seat, moves)
        return moves
    take = len(st.hands[seat]) < hand_room(st, seat, ctx)
    offers(ctx, st, ((UPPER, st.upper), (LOWER, st.lower), (HAND, st.hands[seat])), money, take, moves)
    if ctx.observatory >= 0 and observing_phase(st):
        for deck in st.ruleset.decks:
            if len(st.decks[deck]) >= 2:
                moves.append(Move(Action(OBSERVE, deck), 0))
    hooks = st.ruleset.hooks
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


def observing_phase(st: GameState) -> bool:
    """An Observatory is used in the building phase only (BG-08)."""
    return st.ruleset.phases[st.phase].key == "buildings"


def usable_observatory(st: GameState, seat: int) -> int:
    """A face-up Observatory of ``seat`` usable now (building phase only, BG-08), or -1."""
    return seat_context(st, seat).observatory if observing_phase(st) else -1
