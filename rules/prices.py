"""Prices and discounts (BG-04, BG-05, BG-06; seed 000 "Kostensenkungen"): what a card costs a player,
what a trading card may displace, the hand limit and a usable Observatory, all from one pass over the
player's tableau (``SeatContext``), cached per seat while the tableau is unchanged."""

from __future__ import annotations

from typing import Final

from .card_index import CardIndex, Copies, card_index
from .cards import EDITIONS, GREEN, CardType, all_types
from .hooks import cards_of
from .state import GameState


def hand_limit(st: GameState, seat: int) -> int:
    """3, plus 1 per Warehouse in the tableau (BG-06), plus what the active parts add (M4-10)."""
    return hand_room(st, seat, seat_context(st, seat))


def hand_room(st: GameState, seat: int, ctx: SeatContext) -> int:
    """``hand_limit`` with the seat's context at hand: the tableau's limit plus ``Hooks.hand_limit``."""
    extra = st.ruleset.hooks.hand_limit
    if not extra:
        return ctx.hand_limit
    return ctx.hand_limit + sum(more(st, seat) for more in extra)


class SeatContext:
    """Everything a player's prices, hand limit and Observatory depend on, from one pass over the
    tableau: each card type's printed cost less what owned cards of the same name and discount
    cards take off it (``cost``, by type index of ``index``; ``off`` is what they take off), the
    distinct card types a trading card could displace (``targets``, and their type indices
    ``target_idx``; never a trading card, a face-down Observatory or a locked card), the same by copy
    class (``trade_targets``; ``copies`` is the ruleset's way of telling copies apart, see
    ``CardIndex``: where copies are alike, the classes are the types and ``trade_targets`` is
    ``target_idx``, the same list), the hand limit and a face-up Observatory.
    ``tableau`` and ``face_down`` are copies of what it was built from, ``bonus`` the expansions'
    discounts beyond the tableau (``Hooks.discounts``, e.g. a Module-3 assistant, M3-01) folded into
    ``cost``, ``locked`` the cards no trading card may displace (``Hooks.locked``, BQ-11): a context is
    a pure function of them, so a cached one is valid exactly while they are unchanged.
    """

    __slots__ = (
        "tableau", "face_down", "cost", "targets", "target_idx", "trade_targets", "hand_limit",
        "observatory", "locked", "bonus", "index", "copies", "shared",
    )  # fmt: skip

    def __init__(
        self,
        index: CardIndex,
        copies: Copies,
        tableau: list[int],
        face_down: set[int],
        cost: list[int],
        targets: list[CardType],
        target_idx: list[int],
        trade_targets: list[int],
        hand_limit: int,
        observatory: int,
        locked: frozenset[int] = frozenset(),
        bonus: tuple[tuple[str, int], ...] = (),
    ) -> None:
        self.index = index
        self.copies = copies
        self.bonus = bonus
        self.tableau = tableau
        self.face_down = face_down
        self.cost = cost
        self.targets = targets
        self.target_idx = target_idx
        self.trade_targets = trade_targets
        self.hand_limit = hand_limit
        self.observatory = observatory
        self.locked = locked
        # Its lists may be another state's too (a copied state shares its contexts, GameState.copy):
        # cloned before it changes in place (``seat_context``).
        self.shared = False

    @staticmethod
    def fresh(st: GameState, seat: int, index: CardIndex | None = None) -> SeatContext:
        """The context of ``seat``, from one pass over its tableau (``index``: the catalogue's, if at hand)."""
        cat = st.ruleset.catalogue
        if index is None or index.cat is not cat:
            index = card_index(cat)
        copies = index.copies[1 if st.ruleset.roundels else 0]
        target_idx: list[int] = []
        ctx = SeatContext(
            index, copies, [], set(st.face_down), list(index.costs), [], target_idx,
            target_idx if copies.alike else [], st.ruleset.base_hand_limit, -1, locked_cards(st),
            extra_discounts(st, seat),
        )  # fmt: skip
        for c in st.tableaux[seat]:  # the cards one by one, as they would have been added
            ctx.extend(st, c)
        cost = ctx.cost
        for selector, amount in ctx.bonus:  # M3-04: on top of every other discount
            for ti in index.selected(selector):
                cost[ti] = cost[ti] - amount
        return ctx

    def extend(self, st: GameState, c: int) -> None:
        """Card ``c`` added at the end of this context's tableau, in place: what a fresh context
        would be, made without a pass over the whole tableau (placing a card is the common change).
        Only for a context that is not ``shared``: no other state or context sees it change.
        The steps of ``_count`` and ``rescan`` for one card, inlined (the property tests hold the
        kept contexts equal to fresh ones)."""
        t = st.cards[c]
        index = self.index
        ti = index.of_card[c]
        cost = self.cost
        cost[ti] = cost[ti] - 1
        if t.discount is not None:
            for colour in t.discounts:
                for d in index.selected(colour):
                    cost[d] = cost[d] - 1
        self.hand_limit += t.hand_limit_bonus
        face_up = len(self.face_down) == 0 or c not in self.face_down
        if not t.trading and face_up and (len(self.locked) == 0 or c not in self.locked):
            for x in self.target_idx:  # a loop rather than ``in``: compiled, it compares native ints
                if x == ti:
                    break
            else:
                self.targets.append(t)
                self.target_idx.append(ti)
            copies = self.copies
            if not copies.alike:
                k = copies.of_card[c]
                for x in self.trade_targets:
                    if x == k:
                        break
                else:
                    self.trade_targets.append(k)
        if self.observatory < 0 and face_up and t.ability is not None and t.ability == "observatory":
            self.observatory = c
        self.tableau.append(c)

    def replace(self, st: GameState, i: int, c: int) -> None:
        """Card ``c`` in place of the ``i``-th card of this context's tableau (a trading card over the
        card it displaced, BG-05), in place, like ``extend``: the counts of the two cards are moved,
        the targets and the Observatory looked for anew."""
        self._count(st, self.tableau[i], -1)
        self._count(st, c, 1)
        self.tableau[i] = c
        self.rescan(st)

    def _count(self, st: GameState, c: int, sign: int) -> None:
        """Card ``c`` counted in the costs and the hand limit (``sign`` 1) or no longer (-1): one off
        its own type (BG-04) and one off each type of the colours it discounts (BG-06); its hand slots."""
        t = st.cards[c]
        index = self.index
        ti = index.of_card[c]
        cost = self.cost
        cost[ti] = cost[ti] - sign
        if t.discount is not None:
            for colour in t.discounts:
                for d in index.selected(colour):
                    cost[d] = cost[d] - sign
        self.hand_limit += sign * t.hand_limit_bonus

    def rescan(self, st: GameState) -> None:
        """The targets and the Observatory anew from the tableau, the face-down and the locked cards
        (the costs and the hand limit do not depend on the last two): each face-up card that is no
        trading card and not locked is a target, once per type (and per copy class), in the order of
        the tableau; the first face-up Observatory is the one to use. Only for a context that is not
        ``shared``; it makes new lists of targets, so these may be shared."""
        cards = st.cards
        of_card = self.index.of_card
        copies = self.copies
        fd = self.face_down
        locked = self.locked
        targets: list[CardType] = []
        target_idx: list[int] = []
        trade_targets = target_idx if copies.alike else []
        observatory = -1
        for c in self.tableau:
            t = cards[c]
            face_up = len(fd) == 0 or c not in fd
            if not t.trading and face_up and (len(locked) == 0 or c not in locked):
                ti = of_card[c]
                for x in target_idx:  # loops rather than ``in``, as in ``extend``
                    if x == ti:
                        break
                else:
                    targets.append(t)
                    target_idx.append(ti)
                if not copies.alike:
                    k = copies.of_card[c]
                    for x in trade_targets:
                        if x == k:
                            break
                    else:
                        trade_targets.append(k)
            if observatory < 0 and face_up and t.ability is not None and t.ability == "observatory":
                observatory = c
        self.targets = targets
        self.target_idx = target_idx
        self.trade_targets = trade_targets
        self.observatory = observatory

    def refaced(self, face_down: set[int]) -> SeatContext:
        """This context for other face-down cards elsewhere (none of them in this tableau); its lists
        are this one's (so it is shared)."""
        ctx = SeatContext(
            self.index, self.copies, self.tableau, set(face_down), self.cost, self.targets, self.target_idx,
            self.trade_targets, self.hand_limit, self.observatory, self.locked, self.bonus,
        )  # fmt: skip
        ctx.shared = True
        return ctx

    def clone(self) -> SeatContext:
        """A copy of this context with lists of its own (to change in place)."""
        target_idx = list(self.target_idx)
        return SeatContext(
            self.index, self.copies, list(self.tableau), self.face_down, list(self.cost), list(self.targets),
            target_idx, target_idx if self.copies.alike else list(self.trade_targets), self.hand_limit,
            self.observatory, self.locked, self.bonus,
        )  # fmt: skip

    def card_price(self, st: GameState, card: int, lower: bool, displaced: CardType | None = None) -> int:
        """``price`` of the physical card ``card`` (its type by index: no dict lookup)."""
        p = self.cost[self.index.of_card[card]]
        if lower:
            p -= 1
        if displaced is not None:
            p -= displaced.displace_value
        return p if p > 1 else 1

    def price(self, ctype: CardType, lower: bool, displaced: CardType | None = None) -> int:
        """BG-04, BG-05; seed 000 "Kostensenkungen": printed cost (minus the displaced card's value
        for a trading card), minus 1 per card of the same name owned, 1 from the lower row, 1 per
        discount card of its colour; never below 1."""
        ti = self.index.of_type.get(ctype)
        p = self.cost[ti] if ti is not None else ctype.cost
        if lower:
            p -= 1
        if displaced is not None:
            p -= displaced.displace_value
        return p if p > 1 else 1


    @property
    def off(self) -> list[int]:
        """What the seat's discounts take off each card type's printed cost, by type index."""
        return [t.cost - c for t, c in zip(self.index.types, self.cost, strict=True)]


def extra_discounts(st: GameState, seat: int) -> tuple[tuple[str, int], ...]:
    """The expansions' discounts for ``seat`` beyond its tableau (``Hooks.discounts``): (selector, rubles)."""
    hooks = st.ruleset.hooks.discounts
    if not hooks:
        return ()
    out: tuple[tuple[str, int], ...] = ()
    for hook in hooks:
        out += hook(st, seat)
    return out


def seat_context(st: GameState, seat: int) -> SeatContext:
    """The SeatContext of ``seat``, rebuilt only when its discounts beyond the tableau changed or its
    tableau changed otherwise than by one card added at the end or put in place of another; after
    other changes of the tableau, the face-down or the locked cards it is brought up to date."""
    ctx = st.contexts[seat]
    if ctx is None:
        return _rebuilt(st, seat, None)
    hooks = st.ruleset.hooks
    if hooks.discounts and ctx.bonus != extra_discounts(st, seat):
        return _rebuilt(st, seat, ctx)  # e.g. the assistants passed on at the end of a round (M3-06)
    if hooks.locked:
        locked = locked_cards(st)
        if ctx.locked != locked:  # e.g. a card covered (BQ-11)
            ctx = st.contexts[seat] = ctx.clone() if ctx.shared else ctx
            ctx.locked = locked
            ctx.rescan(st)
    fd = st.face_down
    if (len(fd) != 0 or len(ctx.face_down) != 0) and ctx.face_down != fd:
        if (ctx.face_down ^ fd).isdisjoint(ctx.tableau):
            # the cards turned face down or up are none of this tableau's: nothing else changes
            ctx = st.contexts[seat] = ctx.refaced(fd)
        else:  # e.g. its Observatory used (BG-08)
            ctx = st.contexts[seat] = ctx.clone() if ctx.shared else ctx
            ctx.face_down = set(fd)
            ctx.rescan(st)
    tableau = st.tableaux[seat]
    kept = ctx.tableau
    n = len(kept)
    size = len(tableau)
    if size == n:
        if tableau == kept:
            return ctx
        changed = -1
        for i in range(n):
            if tableau[i] != kept[i]:
                if changed >= 0:
                    return _rebuilt(st, seat, ctx)
                changed = i
        ctx = st.contexts[seat] = ctx.clone() if ctx.shared else ctx
        ctx.replace(st, changed, tableau[changed])
        return ctx
    if size == n + 1:
        for i in range(n):
            if tableau[i] != kept[i]:
                return _rebuilt(st, seat, ctx)
        ctx = st.contexts[seat] = ctx.clone() if ctx.shared else ctx
        ctx.extend(st, tableau[n])
        return ctx
    return _rebuilt(st, seat, ctx)


def _rebuilt(st: GameState, seat: int, old: SeatContext | None) -> SeatContext:
    """A fresh context of ``seat``, kept as the state's."""
    ctx = st.contexts[seat] = SeatContext.fresh(st, seat, None if old is None else old.index)
    return ctx


def locked_cards(st: GameState) -> frozenset[int]:
    """Cards in tableaux that no trading card may displace (``Hooks.locked``; BQ-11's covered card)."""
    return cards_of(st.ruleset.hooks.locked, st)


def price(st: GameState, seat: int, ctype: CardType, lower: bool, displaced: CardType | None = None) -> int:
    """Price of a card for ``seat`` (BG-04, BG-05; seed 000 "Kostensenkungen"); see SeatContext.price."""
    return seat_context(st, seat).price(ctype, lower, displaced)


def can_displace(trading: CardType, target: CardType) -> bool:
    """BG-05: same colour, never a trading card; green only with a shared worker symbol, unless
    the trading card may displace any worker (IBG-08, M2-07); a trading card limited to named types
    (BQ-09's Czar-Superstar) only those."""
    if trading.displaces:
        return not target.trading and target.id in trading.displaces
    return (
        not target.trading
        and target.colour == trading.colour
        and (trading.colour != GREEN or trading.displaces_any or not trading.symbols.isdisjoint(target.symbols))
    )


_DISPLACEABLE: Final[dict[CardType, frozenset[CardType]]] = {}


def displaceable(trading: CardType) -> frozenset[CardType]:
    """Every card type (of both editions, expansions included) that ``trading`` may displace
    (computed once per type)."""
    found = _DISPLACEABLE.get(trading)
    if found is None:
        types = [t for ed in EDITIONS for t in all_types(ed)]
        found = _DISPLACEABLE[trading] = frozenset(t for t in types if can_displace(trading, t))
    return found


def targets(st: GameState, seat: int, trading: CardType) -> list[int]:
    """Physical cards in ``seat``'s tableau that ``trading`` may displace (face-down Observatories and
    locked cards never)."""
    cards = st.cards
    fd = st.face_down
    locked = locked_cards(st)
    disp = displaceable(trading)
    return [c for c in st.tableaux[seat] if cards[c] in disp and c not in fd and c not in locked]
