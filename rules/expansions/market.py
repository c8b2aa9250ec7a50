"""The Market (2nd edition; seed 001 p. 15-19, seed 004; MK-01 ... MK-62, P5-01 ... P5-03).

Setup, the market phase and five players are data (``configure``); the marketplace is derived from
the tableaux (``positions``); the "?" good and the crate confirmations are pending decisions
(rules/expansions/market_decisions.py); the market scoring is the market phase's scoring steps.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from ..cards import EXTRA_DIR
from ..flow import resume_after
from ..hooks import Events, Expansion, Hooks, Phase, Shape
from ..scoring import gain_vp
from ..state import GameState, Pending

KEY: Final = "market"
YELLOW: Final = "yellow"  # MK-29: market cards are a fourth colour
CRATE: Final = "crate"  # the ability of the orange special cards (MK-32)
ANY: Final = "?"  # the roundel whose good is chosen with a good token (MK-25)


@cache
def market_data() -> dict[str, Any]:
    with (EXTRA_DIR / "market.json").open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


@cache
@cache
def goods() -> tuple[str, ...]:
    """MK-19: chicken, grain, apple, fish, cabbage (also X-07's order for an absent player's choice)."""
    return tuple(market_data()["goods"])


def tiles() -> list[tuple[int, int]]:
    """MK-07, MK-62 (AMB-01): the value tiles, lowest first, as (first place VP, second place VP)."""
    return list(_tiles())


@cache
def _tiles() -> tuple[tuple[int, int], ...]:
    return tuple((a, b) for a, b in market_data()["market_values"])


def mstate(st: GameState) -> dict[str, Any]:
    """The Market's part of the state: the current tile's index, the good tokens ("?" good -> card)
    and the box (crates, MK-35)."""
    m: dict[str, Any] = st.ext[KEY]
    return m


def tile(st: GameState) -> tuple[int, int]:
    """MK-18, MK-45: the current market value; round r uses tile min(r, 6)."""
    return _tiles()[mstate(st)["tile"]]


def token_goods(st: GameState) -> dict[int, str]:
    """Which "?" card holds which good token (MK-25): physical card -> good."""
    return {card: good for good, card in mstate(st)["goods"].items()}


def card_good(st: GameState, card: int) -> str | None:
    """The good a card counts for: its roundel, or for a "?" card its token's good (None: none)."""
    roundel = st.ruleset.catalogue.markets[card]
    if roundel == ANY:
        return token_goods(st).get(card)
    return roundel


_NO_SYMBOLS: Final[dict[str, int]] = {}  # every good at 0, in the order of ``goods`` (made on first use)


def positions(st: GameState, seat: int, held: dict[int, str] | None = None) -> dict[str, int]:
    """MK-21, MK-23 (AMB-05): per good, the symbols on the seat's tableau, counted in full (hand cards
    count for nothing; a "?" card counts 1 for its token's good: ``held``, ``token_goods`` if not given)."""
    cat = st.ruleset.catalogue
    markets, cards = cat.markets, cat.cards
    zero = _NO_SYMBOLS
    if not zero:
        zero.update({g: 0 for g in goods()})
    out = zero.copy()
    for c in st.tableaux[seat]:
        roundel = markets[c]
        if roundel is None:
            continue
        if roundel == ANY:
            if held is None:  # made only for a tableau with a "?" card
                held = token_goods(st)
            good = held.get(c)
            if good is not None:
                out[good] += 1
        else:
            out[roundel] += cards[c].market_count
    return out


def free_goods(st: GameState) -> list[str]:
    """MK-25: the good tokens still in the supply, in the order of ``goods``."""
    taken = mstate(st)["goods"]
    return [g for g in goods() if g not in taken]


# --- setup, placing, end of round ------------------------------------------------------------------
def setup(st: GameState, rng: random.Random, given: Mapping[str, Any]) -> None:
    """MK-04 ... MK-08: the value tiles lowest on top (MK-06), all good tokens in the supply, an empty
    box; the market stack and the Sack come with the ruleset's stacks and tokens."""
    st.ext[KEY] = {"tile": 0, "goods": {}, "box": []}


def on_place(st: GameState, seat: int, card: int, target: int, events: Events) -> None:
    """MK-26: a displaced "?" card returns its good token; MK-25: a "?" card entering the tableau asks
    its owner for a good still in the supply (nothing to ask when none is left)."""
    m = mstate(st)
    if target >= 0:
        for good, holder in list(m["goods"].items()):
            if holder == target:
                del m["goods"][good]
                if events is not None:
                    events.append({"type": "good_returned", "seat": seat, "good": good})
    if st.ruleset.catalogue.markets[card] == ANY and free_goods(st):
        st.pending = Pending("good", seat, card)


def boxed(st: GameState, card: int) -> bool:
    """MK-35, MK-47 (AMB-03): a crate leaving play goes to the box, never to the discard pile."""
    if st.cards[card].ability == CRATE:
        mstate(st)["box"].append(card)
        return True
    return False


def round_end(st: GameState, events: Events) -> None:
    """MK-17: crates left in the lower row go to the box (a); the top value tile goes to the box
    unless it is the last one (d, MK-18)."""
    crates = [c for c in st.lower if st.cards[c].ability == CRATE]
    for c in crates:
        st.lower.remove(c)
        mstate(st)["box"].append(c)
    m = mstate(st)
    if m["tile"] + 1 < len(tiles()):
        m["tile"] += 1
        if events is not None:
            events.append({"type": "market_value", "tile": list(tile(st))})


def tile_turned(before: GameState, after: GameState, events: Events) -> bool:
    """``Hooks.reveals``: MK-06, MK-18: the top value tile went to the box and the next one lies open now."""
    return bool(mstate(before)["tile"] != mstate(after)["tile"])


# --- the market scoring (MK-38): income is the base step 'income' for yellow cards ---------------
def crates_step(st: GameState, events: Events) -> bool:
    """MK-33 ... MK-36: each crate in a tableau is confirmed or released, one at a time, owners
    clockwise from the Sack holder."""
    start = st.tokens[st.ruleset.phases[st.phase].token]
    queue: list[int] = []
    for i in range(st.n):
        seat = (start + i) % st.n
        queue.extend(c for c in st.tableaux[seat] if st.cards[c].ability == CRATE)
    return next_crate(st, queue, events)


def owner_of(st: GameState, card: int) -> int:
    """The seat whose tableau holds ``card`` (-1: none)."""
    return next((s for s in range(st.n) if card in st.tableaux[s]), -1)


def next_crate(st: GameState, queue: list[int], events: Events) -> bool:
    """Open the next crate decision; a crate its owner cannot pay for is released at once (MK-36)."""
    cost = tile(st)[0]
    while queue:
        card = queue.pop(0)
        owner = owner_of(st, card)
        if st.rubles[owner] >= cost:
            st.pending = Pending("crate", owner, card, queue=queue)
            return True
        release(st, owner, card, events)
    return False


def release(st: GameState, seat: int, card: int, events: Events) -> None:
    """MK-35: an unconfirmed crate leaves the tableau for the box before the marketplace is scored."""
    st.tableaux[seat].remove(card)
    mstate(st)["box"].append(card)
    if events is not None:
        events.append({"type": "crate_released", "seat": seat, "card": st.cards[card].id})


def continue_crates(st: GameState, queue: list[int], events: Events) -> None:
    st.pending = None
    if not next_crate(st, queue, events):
        resume_after(st, "crates", events)


def marketplace_step(st: GameState, events: Events) -> bool:
    """MK-40 ... MK-43 (AMB-06, AMB-07): each good scored on its own with the current tile: the highest
    position(s) get the higher value; with one clear first, the next highest get the lower value;
    position 0 is not ranked. VP paid in seat order from the Sack holder."""
    high, low = tile(st)
    n = st.n
    pos = [positions(st, s) for s in range(n)]
    gained = [0] * n
    for good in goods():
        at = [pos[s][good] for s in range(n)]
        best = firsts = 0
        for p in at:
            if p > best:
                best, firsts = p, 1
            elif p == best and p > 0:
                firsts += 1
        if not best:
            continue  # nobody ranked for this good
        second = 0  # with one clear first, the highest position below it (0: none ranked)
        if firsts == 1:
            for p in at:
                if second < p < best:
                    second = p
        for s in range(n):
            if at[s] == best:
                gained[s] += high
            elif second and at[s] == second:
                gained[s] += low
    start = st.tokens[st.ruleset.phases[st.phase].token]
    for i in range(n):
        seat = (start + i) % n
        if events is not None:
            events.append({"type": "marketplace", "seat": seat, "vp": gained[seat], "positions": pos[seat]})
        if gained[seat]:
            gain_vp(st, seat, gained[seat], KEY, events)
        stats = st.stats[seat]
        stats["marketplace_vp"] = stats.get("marketplace_vp", 0) + gained[seat]
    return False


# --- view ----------------------------------------------------------------------------------------------
def view_fields(st: GameState, seat: int | None, out: dict[str, Any]) -> None:
    """MK-57, X-08: the marketplace is public: positions (field and 10-markers, MK-23), good tokens,
    the current and remaining tiles, the Sack holder and the box."""
    m = mstate(st)
    cards = st.cards
    market: dict[str, Any] = {
        "goods": list(goods()),
        "positions": [positions(st, s) for s in range(st.n)],
        "tokens": {g: {"card": cards[c].id, "seat": owner_of(st, c)} for g, c in m["goods"].items()},
        "tile": list(tile(st)),
        "tiles_left": [list(t) for t in tiles()[m["tile"] :]],
        "sack": st.tokens.get("sack"),
        "box": [cards[c].id for c in m["box"]],
    }
    market["fields"] = [{g: (p - 1) % 10 + 1 if p else 0 for g, p in ps.items()} for ps in market["positions"]]
    market["tens"] = [{g: (p - 1) // 10 if p else 0 for g, p in ps.items()} for ps in market["positions"]]
    out[KEY] = market
    p = st.pending
    if p is not None and p.kind in ("good", "crate") and out.get("pending") is not None:
        out["pending"]["card"] = cards[p.card].id  # the "?" card to assign, or the crate to confirm
        if p.kind == "crate":
            out["pending"]["cost"] = tile(st)[0]


# --- the expansion -------------------------------------------------------------------------------------
class Market(Expansion):
    """MK-01 (2nd edition only), MK-02 / P5-01 / P5-02 (2 to 5 players), MK-04 (the market stack
    between workers and buildings, the Sack), MK-09 (the market phase), MK-12 (display of 10)."""

    key = KEY
    editions: tuple[int, ...] = (2,)

    def configure(self, shape: Shape) -> None:
        shape.extras.append(KEY)
        shape.decks.insert(shape.decks.index("workers") + 1, KEY)
        shape.phases.insert(1, Phase(KEY, KEY, YELLOW, "sack", ("income", "crates", "marketplace")))
        shape.tokens.insert(1, "sack")
        shape.display_size = 10
        shape.max_players = 5
        shape.roundels = True  # MK-49: which Ship Builder or Market matters

    def hooks(self) -> Hooks:
        from .market_decisions import CrateDecision, GoodDecision, notation

        return Hooks(
            decisions={"good": GoodDecision(), "crate": CrateDecision()},
            steps={"crates": crates_step, "marketplace": marketplace_step},
            setups=[setup],
            on_place=[on_place],
            boxed=[boxed],
            round_end=[round_end],
            view=[view_fields],
            reveals=[tile_turned],
            **notation(),
        )


MARKET = Market()
