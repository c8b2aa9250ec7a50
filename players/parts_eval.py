"""What the computer players know of In bester Gesellschaft, the Banquet / Module 1, Module 2 and
Modules 3 to 6 (IBG-, BQ-, M2-, M4-, M5-, M6-). Used by
``eval.Outlook``: the abilities of the new cards in a tableau (``ability_income``), the purple cards
held and played from the hand (``hold``, ``purple_play``), the new decisions (``decision``), the
seat's own assignments (``assignment_progress``, ``best_assignment``) and the obstacles on the VP
track (``obstacle_needs``, ``obstacle_gain``, ``is_blocked``). Each reads only what the deciding seat
may see: card data, public tableaux, the discard pile, its own hand, money and assignments
(``rules.view``).

Values are expected VP over the rest of the game, with rubles at ``Outlook.money`` VP each, as in
``eval`` and ``market_eval``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from rules.actions import BUY, TAKE, Action, Move
from rules.cards import BLUE, GREEN, RED, CardType
from rules.expansions import assignments as m5
from rules.expansions import module6 as m6

if TYPE_CHECKING:
    from rules.state import GameState

    from .eval import Outlook

PURPLE: Final = "purple"  # the Banquet's hand cards (BQ-03): never laid out, no -5 at the end (BQ-06)
GUILD_HALL_SPLIT: Final = 4  # M2-09: 4 split between rubles and VP at each building scoring
TRADING_HOUSE_RUBLES: Final = 3  # M2-03: once after each building scoring
TRADING_HOUSE_VP: Final = 2
SYCOPHANT_FEE: Final = 1  # M2-05: 1 ruble at each aristocrat scoring, or the card goes
BEYOND_TEN: Final = 10  # IBG-04: each distinct aristocrat beyond the tenth
GOLDEN_DONKEY: Final = 5  # BQ-15: 5 rubles from the bank
SPONSOR_SELF: Final = 6  # M4-07
SPONSOR_OTHERS: Final = 2
HOLD: Final = 0.6  # share of a purple card's effect counted while it waits in the hand
AIM: Final = 0.5  # share of an assignment's progress counted (the one chosen at the end may be another)
MARKET: Final = -1.0  # the urgency given for the market's obstacle: not valued here (its positions are)
URGENT: Final = 4.0  # a blocked seat's VP gains are lost until it meets the condition
BLOCKED: Final = 0.3  # share of a blocked seat's future gains counted as lost (M6-09: VP past F - 1 are lost)

# Module 4's events (M4-03 ... M4-08) taken before the action: what each brings besides the action.
EVENT_KINDS: Final = ("event", "grabber")


def extended_table(table: tuple[int, ...], beyond_ten: bool) -> tuple[int, ...]:
    """The aristocrat table, with IBG-04's +10 VP for each distinct aristocrat beyond the tenth."""
    if not beyond_ten:
        return table
    return table + tuple(table[-1] + BEYOND_TEN * i for i in range(1, 8))


def ability_income(o: Outlook, seat: int, t: CardType, k: float, w: float) -> float:
    """What the new cards' abilities bring over the ``k`` scorings of their colour still to come."""
    ab = t.ability
    value = 0.0
    if t.bonus_per is not None and t.bonus_per.startswith("symbol:"):  # the Textile Factory (M2-07)
        value += k * o.symbol_count(seat, t.bonus_per[7:]) * (t.bonus_vp + t.bonus_rubles * w)
    if ab == "guild_hall":
        value += k * GUILD_HALL_SPLIT * max(1.0, w)
    elif ab == "trading_house":
        value += k * max(0.0, TRADING_HOUSE_VP - TRADING_HOUSE_RUBLES * w)
    elif ab == "sycophant":
        value -= k * SYCOPHANT_FEE * w
    if len(t.discounts) > 1:  # the Czar-Superstar: red and blue cards 1 cheaper (BQ-09)
        value += 1.5 * o.rounds * (len(t.discounts) - 1)
    return value


# --- the purple hand cards (BQ-03 ... BQ-15) ---------------------------------------------------------
def effect(o: Outlook, seat: int, t: CardType, a: Action | None) -> float:
    """What playing purple card ``t`` (as action ``a``; None: its best use, guessed) brings."""
    ab = t.ability
    w = o.money
    if ab == "golden_donkey":
        return GOLDEN_DONKEY * w
    if ab in ("jester", "banquet"):
        if a is None:
            return max((attach_gain(o, seat, ab, o.st.cards[c]) for c in o.st.tableaux[seat]), default=0.0)
        return attach_gain(o, seat, ab, o.st.ruleset.catalogue.by_id[a.target])
    if ab == "moocher":
        if a is None:
            return 2.0
        target = o.st.ruleset.catalogue.by_id[a.target]
        return target.vp if a.good == "vp" else target.rubles * w
    if ab == "away_with_it":
        if a is None:
            return 0.5 * o.penalty_relief(seat, None)
        return o.penalty_relief(seat, o.st.ruleset.catalogue.by_id[a.target])
    if ab == "black_market":
        return black_market(o, seat)
    if ab == "money_collector":
        return 4.0 * w  # about half the price of a good card
    if ab == "double_turn":
        return 2.0 if o.rounds > 1.0 else 1.0
    if ab == "pickpocket":
        return 2.0 if o.rounds > 1.0 else 0.5
    return 0.0


def attach_gain(o: Outlook, seat: int, ability: str, t: CardType) -> float:
    """A Jester (rubles and VP swapped) or a Banquet (both doubled) on ``t``, at its next scoring."""
    if o.scorings.get(t.colour, 0.0) <= 0.0:
        return 0.0
    w = o.money
    if ability == "banquet":
        return t.vp + t.rubles * w
    return (t.rubles - t.vp) * (1.0 - w)


def black_market(o: Outlook, seat: int) -> float:
    """The best card of the discard pile bought at its printed price (BQ-13), or nothing."""
    st = o.st
    cards = st.cards
    w = o.money
    best = 0.0
    for c in st.discard[-12:]:
        t = cards[c]
        if t.colour == PURPLE or t.cost > st.rubles[seat]:
            continue
        best = max(best, o.card_value(seat, t, None) - t.cost * w)
    return best


def hold(o: Outlook, seat: int, t: CardType) -> float:
    """A purple card waiting in the hand: part of its effect (it costs nothing at the end, BQ-06)."""
    return HOLD * effect(o, seat, t, None)


def purple_play(o: Outlook, seat: int, a: Action, t: CardType) -> float:
    """Playing purple card ``t`` from the hand as the action: its effect, less keeping it."""
    return effect(o, seat, t, a) - hold(o, seat, t)


# --- the new decisions -------------------------------------------------------------------------------
def decision(o: Outlook, seat: int, move: Move) -> float | None:
    """The value of a new decision's choice, None for an action kind not known here."""
    a = move.action
    kind = a.kind
    w = o.money
    if kind == "guild_hall":  # M2-09: amount = the VP taken, the rest in rubles
        return a.amount + (GUILD_HALL_SPLIT - a.amount) * w
    if kind == "trading_house":  # M2-03
        return (TRADING_HOUSE_VP - TRADING_HOUSE_RUBLES * w) if a.amount else 0.0
    if kind == "sycophant":  # M2-05
        return sycophants(o, seat, a.amount)
    if kind == "assignment":  # M5-02: chosen at the final scoring
        return float(m5.value(o.st, seat, a.amount))
    if kind == "bonus":  # M6-18: VP, unless an obstacle blocks the seat
        if a.card == "vp":
            return 0.0 if m6.blocked(o.st, seat) else float(bonus_amount(o, seat, a))
        return bonus_amount(o, seat, a) * w
    if kind == "pickpocket":  # BQ-21: a buy or take at no action, the card spent
        if not a.card:
            return 0.0
        by_id = o.st.ruleset.catalogue.by_id
        inner = Action(BUY if a.amount == 1 else TAKE, a.card, a.row, a.target, 0, a.good)
        return o.score(Move(inner, move.price)) - hold(o, seat, by_id["pickpocket"]) if "pickpocket" in by_id else 0.0
    if kind == "prison":  # M2-04: a discarded card to buy, take or put back
        t = o.st.ruleset.catalogue.by_id[a.card]
        return max(0.0, o.card_value(seat, t, None) - t.cost * w)
    if kind == "grabber":  # M4-08: buy the top card of the discard pile
        t = o.st.ruleset.catalogue.by_id[a.card]
        return o.card_value(seat, t, None) - move.price * w
    if kind == "event":
        return event(o, a)
    return None


def sycophants(o: Outlook, seat: int, keep: int) -> float:
    """Keeping ``keep`` Sycophants: a distinct aristocrat while one stays (at the count the seat
    should reach by the end, about one more per round), 1 ruble each now and, unless discarded
    then, at the aristocrat scorings after this one (counted half)."""
    names = o.reds(seat)
    table = o.table
    n = min(len(names) + int(o.rounds - 1.0), len(table) - 1)
    gain = table[n] - table[n - 1] if "sycophant" in names and n >= 1 else 0.0
    later = max(0.0, o.scorings.get(RED, 0.0) - 1.0)
    return (gain if keep else 0.0) - keep * SYCOPHANT_FEE * o.money * (1.0 + 0.5 * later)


def bonus_amount(o: Outlook, seat: int, a: Action) -> int:
    """The printed value an obstacle bonus option names (AMB-18): the card's VP or rubles."""
    if not a.target:
        return max((amount for side, _, amount in _options(o, seat) if side == a.card), default=0)
    t = o.st.ruleset.catalogue.by_id[a.target]
    return t.vp if a.card == "vp" else max(0, t.rubles)


def _options(o: Outlook, seat: int) -> list[tuple[str, str, int]]:
    p = o.st.pending
    if p is None:
        return []
    ob = m6.m6(o.st)["obstacles"].get(str(p.card))
    return m6.bonus_parts(o.st, seat, ob)[2] if ob else []


def event(o: Outlook, a: Action) -> float:
    """Module 4's events before the action (M4-03 ... M4-08), each once a game per player."""
    w = o.money
    if a.card == "sponsor":
        return (SPONSOR_SELF - SPONSOR_OTHERS) * w
    if a.card == "warehouse":
        return 0.3 * o.rounds
    return 0.0


# --- Module 6: the obstacles on the VP track ----------------------------------------------------------
def obstacle_needs(o: Outlook, seat: int) -> tuple[dict[str, int], float]:
    """What the seat still lacks for the next real obstacle it has not passed (M6-12 ... M6-16, as
    ``module6.progress`` counts them; not the market's), and how urgent it is: blocked now, close (12 VP
    or less), or further. Counted here from the tableau (``progress`` would rank the marketplace too)."""
    st = o.st
    done = m6.m6(st)["passed"][seat]
    for f, ob in _placed(st):
        if f in done or not _is_real(ob):
            continue
        if ob == "real_market":
            return {}, MARKET
        need = _need(ob, f)
        cards = st.cards
        tableau = [cards[c] for c in st.tableaux[seat]]
        if ob == "real_workers":
            have = {"distinct_green": len({t.id for t in tableau if t.colour == GREEN})}
            want = {"distinct_green": need}
        elif ob in ("real_buildings", "real_aristocrats"):
            colour = BLUE if ob == "real_buildings" else RED
            have = {colour: sum(1 for t in tableau if t.colour == colour)}
            want = {colour: need}
        elif isinstance(need, str):  # real_trading at 50: one of each colour (M6-16)
            want = {f"{c}_trading": 1 for c in (GREEN, RED, BLUE)}
            have = {k: sum(1 for t in tableau if t.trading and f"{t.colour}_trading" == k) for k in want}
        else:
            have = {"trading": sum(1 for t in tableau if t.trading)}
            want = {"trading": need}
        needs = {k: n - have[k] for k, n in want.items() if have[k] < n}
        if not needs:
            return {}, 0.0
        gap = f - 1 - st.vp[seat]
        return needs, (URGENT if gap <= 0 else 2.0 if gap <= 12 else 1.0)
    return {}, 0.0


def is_blocked(o: Outlook, seat: int) -> bool:
    """``module6.blocked``, from the figures above where they tell (the market's obstacle: asked)."""
    needs, urgency = o.needs(seat)
    if urgency == MARKET:
        return m6.blocked(o.st, seat)
    return urgency == URGENT


# ``module6.placed`` by the obstacles of the state (fixed for a game; a playout asks at every step) and
# ``module6.is_real`` by obstacle. Shared: read only.
_PLACED: Final[dict[tuple[Any, ...], list[tuple[int, str]]]] = {}
_REAL: Final[dict[str, bool]] = {}


# the obstacles asked for last (kept alive) and their answer, as one pair (replaced whole, never torn)
_PLACED_LAST: Final[list[tuple[Any, list[tuple[int, str]]]]] = [(None, [])]


def _placed(st: GameState) -> list[tuple[int, str]]:
    obstacles = m6.m6(st)["obstacles"]  # set up once, never changed (M6-02)
    last = _PLACED_LAST[0]
    if last[0] is obstacles:  # the same state's (a playout's steps)
        return last[1]
    key = tuple(obstacles.items())
    found = _PLACED.get(key)
    if found is None:
        if len(_PLACED) > 1024:
            _PLACED.clear()
        found = _PLACED[key] = m6.placed(st)
    _PLACED_LAST[0] = (obstacles, found)
    return found


def _is_real(obstacle: str) -> bool:
    found = _REAL.get(obstacle)
    if found is None:
        found = _REAL[obstacle] = m6.is_real(obstacle)
    return found


_NEED: Final[dict[tuple[str, int], Any]] = {}


def _need(obstacle: str, field: int) -> Any:
    found = _NEED.get((obstacle, field))
    if found is None:
        found = _NEED[obstacle, field] = m6.obstacle_info()[obstacle]["need"][str(field)]
    return found


def obstacle_gain(o: Outlook, seat: int, t: CardType) -> float:
    """What card ``t`` adds toward the seat's next real obstacle's condition."""
    needs, urgency = o.needs(seat)
    if not needs or urgency <= 0.0:
        return 0.0
    colour = t.colour
    units = 0
    if colour == GREEN and "distinct_green" in needs and not o.owns(seat, t.id):
        units += 1
    if colour in needs:
        units += 1
    if t.trading and ("trading" in needs or f"{colour}_trading" in needs):
        units += 1
    short = sum(needs.values())
    return urgency * units * (1.5 if short <= units else 1.0)


# --- Module 5: the seat's own assignments ------------------------------------------------------------
def best_assignment(o: Outlook, seat: int) -> float:
    """The VP of the seat's best assignment now (M5-02; a determinization's for other seats)."""
    ids = m5.dealt(o.st, seat)
    return float(max((m5.value(o.st, seat, aid) for aid in ids), default=0))


def assignment_progress(o: Outlook, seat: int, t: CardType) -> float:
    """What card ``t`` entering ``seat``'s tableau adds to its assignments (the best gain counted in
    part): the cheap marginal of each assignment (M5-03 ... M5-17)."""
    best = 0.0
    for aid in o.aims(seat):
        g = _marginal(o, seat, aid, t)
        if g > best:
            best = g
    return AIM * best


def _marginal(o: Outlook, seat: int, aid: int, t: CardType) -> float:
    colour = t.colour
    if aid == 1:
        return 2.0 if colour == RED else 0.0
    if aid == 2:
        return 1.0 if colour == GREEN else 0.0
    if aid == 5:
        return 3.0 if t.id in m5.A5_CARDS else 0.0
    if aid == 7:
        return 3.0 if colour == GREEN and not o.owns(seat, t.id) else 0.0
    if aid == 8:
        return 2.0 if o.owns(seat, t.id) else 0.0
    if aid == 9:
        return 2.0 if t.trading else 0.0
    if aid == 10:
        return 4.0 * max(0, t.vp - o.top_vp(seat, RED)) if colour == RED else 0.0
    if aid == 11:
        return 3.0 * max(0, t.vp - o.top_vp(seat, BLUE)) if colour == BLUE else 0.0
    if aid == 13:
        return 2.0 if colour == "yellow" else 0.0
    if aid == 14:
        return 2.0 if colour == BLUE and not o.owns(seat, t.id) else 0.0
    if aid == 15:
        return 2.0 * t.vp if colour == BLUE and t.trading else 0.0
    return 0.0  # 3, 4 (market positions: market_eval values them), 6 (money), 12 (every card a little)
