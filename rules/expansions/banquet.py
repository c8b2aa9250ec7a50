"""The Banquet: Module 1 of the 2nd edition and the 1st-edition Banquet (seed 001 "Modul 1: Das
Bankett", seed 004; BQ-01 ... BQ-28, AMB-17 ... AMB-22, AMB-31, AMB-32).

The 3 normal cards are plain card data (the Czar-Superstar's discounts and its only target, the
villages' displace values). The purple cards are hand cards played as an action
(``Hooks.hand_plays``, rules/expansions/banquet_cards.py); the Pickpocket, the Double Turn, the Money
Collector and the Black Market open pending decisions (rules/expansions/banquet_decisions.py). This
file holds the Banquet's state, its scoring and flow hooks, and the view.

State (``st.ext["banquet"]``): ``box`` (played purple cards and used attachments, BQ-06),
``attached`` ([purple card, card, seat] for a Jester or Banquet on a card, BQ-16..18), ``chip``
([card, seat] under the Money Collector's chip, or None, BQ-11/12), ``double`` (sub-actions of a
Double Turn still to take) and ``double_seat``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from ..actions import Move
from ..cards import raw_extra
from ..hooks import Events, Expansion, Hooks, Shape
from ..moves import offers
from ..prices import seat_context
from ..state import LOWER, UPPER, GameState, Pending

KEY: Final = "banquet"  # the card file and the state's key; the registry key is "module1"
PURPLE: Final = "purple"
JESTER: Final = "jester"
BANQUET: Final = "banquet"
PICKPOCKET: Final = "pickpocket"


def bstate(st: GameState) -> dict[str, Any]:
    b: dict[str, Any] = st.ext[KEY]
    return b


def is_purple(st: GameState, card: int) -> bool:
    """BQ-03: the purple special cards (taken into hand and played, never laid out)."""
    return st.cards[card].colour == PURPLE


def covered(st: GameState) -> int:
    """BQ-11: the card under the Money Collector's chip (-1: none)."""
    chip = bstate(st)["chip"]
    return -1 if chip is None else int(chip[0])


def attachments_on(st: GameState, card: int) -> list[str]:
    """The abilities (jester, banquet) of the purple cards attached to ``card`` (BQ-16..18)."""
    cards = st.cards
    return [cards[a].ability or "" for a, c, _ in bstate(st)["attached"] if c == card]


def to_box(st: GameState, card: int) -> None:
    """BQ-06: a played purple card (or a used or orphaned attachment) goes to the box."""
    bstate(st)["box"].append(card)


# --- setup and the hooks of the flow ------------------------------------------------------------------
def setup(st: GameState, rng: random.Random, given: Mapping[str, Any]) -> None:
    st.ext[KEY] = {"box": [], "attached": [], "chip": None, "double": 0, "double_seat": -1}


def hand_exempt(st: GameState, card: int) -> bool:
    """BQ-05, X-06 (4): purple cards in hand give no -5 at the end."""
    return st.cards[card].colour == PURPLE


_LOCKED: dict[int, frozenset[int]] = {-1: frozenset()}


def locked(st: GameState) -> frozenset[int]:
    """BQ-11: the covered card can never be displaced."""
    chip = st.ext[KEY]["chip"]  # covered(st), inlined: asked at every seat_context
    c = -1 if chip is None else chip[0]
    found = _LOCKED.get(c)
    if found is None:
        found = _LOCKED[c] = frozenset((c,))
    return found


def no_vp(st: GameState) -> frozenset[int]:
    """AMB-17(e): the covered card is the source of no VP at all: a covered Pub or Trading House sells none, a
    covered Guild Hall gives its 4 as rubles (its rubles and other abilities stay, BQ-12)."""
    return locked(st)


def card_income(st: GameState, seat: int, card: int, rub: int, vp: int, events: Events) -> tuple[int, int]:
    """BQ-12: a covered card pays its rubles but never VP (printed and bonus, AMB-17). BQ-16..18,
    AMB-32: a Jester swaps, a Banquet doubles the card's rubles and VP at the next scoring of its
    colour (both together: the order does not matter); then they go to the box."""
    b = bstate(st)
    if card == covered(st):
        vp = 0
    if not b["attached"]:
        return rub, vp
    used = [entry for entry in b["attached"] if entry[1] == card]
    if not used:
        return rub, vp
    cards = st.cards
    for a, _, _ in used:
        if cards[a].ability == JESTER:
            rub, vp = vp, rub
    for a, _, _ in used:
        if cards[a].ability == BANQUET:
            rub, vp = 2 * rub, 2 * vp
    for entry in used:
        b["attached"].remove(entry)
        to_box(st, entry[0])
    if events is not None:
        events.append(
            {
                "type": "note",
                "key": "log.bq_attachment_used",
                "seat": seat,
                "cards": {"card": cards[card].id, "attachment": cards[used[0][0]].id}
                | ({"attachment2": cards[used[1][0]].id} if len(used) > 1 else {}),
                "params": {"rubles": rub, "vp": vp},
            }
        )
    return rub, vp


def sweep(st: GameState, events: Events = None) -> None:
    """BQ-12, BQ-18, AMB-32: an attachment whose card left its tableau goes to the box unused; the
    chip goes back when its card leaves (a released crate, a discarded Sycophant)."""
    b = bstate(st)
    for entry in list(b["attached"]):
        a, c, seat = entry
        if c not in st.tableaux[seat]:
            b["attached"].remove(entry)
            to_box(st, a)
            if events is not None:
                events.append({"type": "note", "key": "log.bq_attachment_lost", "seat": seat,
                               "cards": {"card": st.cards[c].id, "attachment": st.cards[a].id}})
    chip = b["chip"]
    if chip is not None and chip[0] not in st.tableaux[chip[1]]:
        b["chip"] = None


def on_place(st: GameState, seat: int, card: int, target: int, events: Events) -> None:
    """AMB-32: a displaced card's Jester or Banquet goes to the box unused (the card itself to the
    discard pile, as any displaced card)."""
    if target >= 0 and bstate(st)["attached"]:
        sweep(st, events)


def round_end(st: GameState, events: Events) -> None:
    sweep(st, events)


def pickpocket_moves(st: GameState, seat: int) -> list[Move]:
    """BQ-21, AMB-21: what the Pickpocket's holder may do before the start player: buy or take one
    card of the display (the Pickpocket leaves the hand first, so a take needs no other free slot)."""
    ctx = seat_context(st, seat)
    take = len(st.hands[seat]) - 1 < ctx.hand_limit
    out: list[Move] = []
    offers(ctx, st, ((UPPER, st.upper), (LOWER, st.lower)), st.rubles[seat], take, out)
    return out


def pickpocket_holder(st: GameState) -> int:
    cards = st.cards
    for s in range(st.n):
        if any(cards[c].ability == PICKPOCKET for c in st.hands[s]):
            return s
    return -1


def phase_start(st: GameState, events: Events) -> None:
    """BQ-21/22, X-03: right after the display is refilled, the Pickpocket's holder may play it if
    he can buy or take a card (decision ``pickpocket``, default decline)."""
    seat = pickpocket_holder(st)
    if seat >= 0 and pickpocket_moves(st, seat):
        st.pending = Pending(PICKPOCKET, seat)


def turn_end(st: GameState, events: Events) -> bool:
    """BQ-14: after the Double Turn is played, and after its first sub-action, the same player takes
    the next sub-action (decision ``double_turn``)."""
    b = bstate(st)
    if b["double"] > 0:
        st.pending = Pending("double_turn", b["double_seat"], source=b["double"])
        return True
    return False


# --- view -------------------------------------------------------------------------------------------------
def view_fields(st: GameState, seat: int | None, out: dict[str, Any]) -> None:
    """X-08: the attachments (card, its place in the tableau, Jester or Banquet), the chip, the box;
    a purple hand card has no price and shows whether it can be played now (BQ-04)."""
    b = bstate(st)
    cards = st.cards

    def where(card: int, s: int) -> dict[str, Any]:
        tab = st.tableaux[s]
        return {"seat": s, "card": cards[card].id, "index": tab.index(card) if card in tab else -1}

    chip = b["chip"]
    out[KEY] = {
        "attachments": [
            where(c, s) | {"attachment": cards[a].id, "kind": cards[a].ability} for a, c, s in b["attached"]
        ],
        "chip": None if chip is None else where(chip[0], chip[1]),
        "box": [cards[c].id for c in b["box"]],
        "double_turn_left": b["double"],
    }
    for entry in out.get("hand_prices", []):
        ct = st.ruleset.catalogue.by_id.get(entry["card"])
        if ct is not None and ct.colour == PURPLE:
            entry["price"] = None
            entry["purple"] = True
    p = st.pending
    if p is not None and p.kind == "double_turn" and out.get("pending") is not None:
        out["pending"]["left"] = p.source


# --- the module ---------------------------------------------------------------------------------------------
class Banquet(Expansion):
    """BQ-01 (15 cards with the Market), BQ-02 / AMB-20 (12 without: the 3 yellow-background cards
    go to the box), BQ-27 / AMB-31 (1st edition: the Banquet's 12 cards). The Debtor's Prison removal
    with Module 2 or In bester Gesellschaft (BQ-23, BQ-28) is done by that part's configure."""

    key = "module1"
    editions: tuple[int, ...] = (1, 2)

    def configure(self, shape: Shape) -> None:
        shape.extras.append(KEY)
        for entry in raw_extra(KEY):
            needs = entry.get("needs")
            if needs and needs not in shape.active and shape.edition in entry.get("editions", [1, 2]):
                shape.removed.append(entry["id"])

    def hooks(self) -> Hooks:
        from .banquet_cards import hand_plays, play_notation
        from .banquet_decisions import decisions, notation

        return Hooks(
            decisions=decisions(),
            setups=[setup],
            on_place=[on_place],
            round_end=[round_end],
            view=[view_fields],
            **notation(),
            hand_plays=hand_plays(),
            **play_notation(),
            hand_exempt=[hand_exempt],
            card_income=[card_income],
            locked=[locked],
            no_vp=[no_vp],
            phase_start=[phase_start],
            turn_end=[turn_end],
        )


BANQUET_MODULE = Banquet()
