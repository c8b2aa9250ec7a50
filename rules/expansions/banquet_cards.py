"""The Banquet's purple cards played from the hand as the player's action (BQ-03, BQ-04, BQ-11 ...
BQ-21), each offered only where its effect can be used, and their notation (BQ-26, X-09)::

    play Golden Donkey                       play Double Turn
    play Jester on Bank                      play Banquet on Harbor
    play Away With It! on Lumberjack         play Black Market       (then: buy/take/discard a card)
    play Moocher on Bank of Anna for rubles  play Money Collector    (then: buy/play a card at half price)
    play Moocher on Senator of seat 2 for vp (a player without a name: "seat N", counted from 1)

The Pickpocket is never played this way: it has its own decision at a phase's start (BQ-21).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ..actions import PLAY, Action, Move
from ..cards import CardType, Catalogue
from ..checks import card_params, find
from ..errors import RuleError
from ..flow import discard
from ..hooks import Checked, Event, HandPlay, PlayNotation
from ..scoring import card_value, gain_vp
from ..state import HAND, GameState
from .banquet import BANQUET, JESTER, PICKPOCKET, PURPLE, attachments_on, bstate, covered, is_purple, to_box

RUBLES: Final = "rubles"
VP: Final = "vp"


def _note(key: str, seat: int, cards: dict[str, str], gain: dict[str, int] | None = None, **params: object) -> Event:
    """A log line (rules/describe.py); ``gain``: the rubles and VP it gives its player."""
    gains = {f"gain_{k}": v for k, v in (gain or {}).items()}
    return {"type": "note", "key": key, "seat": seat, "cards": cards, "params": dict(params)} | gains


class PurplePlay(HandPlay):
    """A purple card played from the hand: it leaves the hand for the box (BQ-06), then acts.
    ``check`` accepts exactly what ``moves`` lists (BQ-04)."""

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        raise NotImplementedError

    def moves(self, st: GameState, seat: int, card: int, out: list[Move]) -> None:
        out.extend(Move(a, 0) for a in self.options(st, seat, card))

    def check(self, st: GameState, seat: int, action: Action) -> Checked:
        card = find(st, st.hands[seat], action.card) if action.row == HAND else -1
        if card < 0:
            raise RuleError("no_such_card", **card_params(st, action.card))
        if action not in self.options(st, seat, card):
            raise RuleError("cannot_play", **card_params(st, action.card))
        return card, -1, 0

    def apply(self, st: GameState, seat: int, action: Action, checked: Checked) -> list[Event]:
        card = checked[0]
        st.hands[seat].remove(card)
        to_box(st, card)
        stats = st.stats[seat]
        stats["purple_played"] = stats.get("purple_played", 0) + 1
        return self.act(st, seat, action, card)

    def act(self, st: GameState, seat: int, action: Action, card: int) -> list[Event]:
        raise NotImplementedError


class GoldenDonkey(PurplePlay):
    """BQ-19: +5 rubles from the bank."""

    ability = "golden_donkey"

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        return [Action(PLAY, st.cards[card].id, HAND)]

    def act(self, st: GameState, seat: int, action: Action, card: int) -> list[Event]:
        st.rubles[seat] += 5
        return [_note("log.bq_golden_donkey", seat, {"card": action.card}, {"rubles": 5}, rubles=5)]


class AwayWithIt(PurplePlay):
    """BQ-20, BQ-05: put one other, non-purple hand card on the discard pile (only if there is one)."""

    ability = "away_with_it"

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        me = st.cards[card].id
        out: list[Action] = []
        for c in st.hands[seat]:
            t = st.cards[c]
            a = Action(PLAY, me, HAND, t.id)
            if t.colour != PURPLE and a not in out:
                out.append(a)
        return out

    def act(self, st: GameState, seat: int, action: Action, card: int) -> list[Event]:
        gone = next(c for c in st.hands[seat] if st.cards[c].id == action.target)
        st.hands[seat].remove(gone)
        discard(st, gone)
        return [_note("log.bq_away_with_it", seat, {"card": action.card, "target": action.target})]


def eligible(st: GameState, seat: int, kind: str) -> list[int]:
    """BQ-16..18, AMB-18: own cards with a printed ruble and VP value (both > 0), not covered by the
    chip, not already carrying an attachment of this kind."""
    cards = st.cards
    cov = covered(st)
    return [
        c
        for c in st.tableaux[seat]
        if cards[c].rubles > 0 and cards[c].vp > 0 and c != cov and kind not in attachments_on(st, c)
    ]


class Attach(PurplePlay):
    """BQ-16 (Jester: swap) and BQ-17 (Banquet: double), at the card's next scoring (BQ-18)."""

    def __init__(self, ability: str) -> None:
        self.ability = ability

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        me = st.cards[card].id
        out: list[Action] = []
        for c in eligible(st, seat, self.ability):
            a = Action(PLAY, me, HAND, st.cards[c].id)
            if a not in out:
                out.append(a)
        return out

    def act(self, st: GameState, seat: int, action: Action, card: int) -> list[Event]:
        target = next(c for c in eligible(st, seat, self.ability) if st.cards[c].id == action.target)
        bstate(st)["box"].remove(card)  # not boxed yet: it lies on the card until its scoring
        bstate(st)["attached"].append([card, target, seat])
        return [_note("log.bq_attach", seat, {"card": action.card, "target": action.target})]


GUILD_HALL: Final = "guild_hall"  # Module 2's Guild Hall: 4 split between rubles and VP at each building scoring


def mooch_value(st: GameState, owner: int, c: int) -> tuple[int, int]:
    """BQ-15, AMB-18: what a card yields on its owner's tableau (its bonuses counted there), without
    attachments; a face-down or covered card has 0 VP; the Guild Hall counts as 4 rubles or 4 VP."""
    rub, vp = (4, 4) if st.cards[c].ability == GUILD_HALL else card_value(st, owner, c)
    return rub, 0 if c == covered(st) or c in st.face_down else vp


class Moocher(PurplePlay):
    """BQ-15: take the rubles or the VP of one card in an opponent's tableau, never both. Offered per
    opponent, card type and choice with something to take (the best copy of the type)."""

    ability = "moocher"

    def values(self, st: GameState, seat: int) -> dict[tuple[int, str], tuple[int, int]]:
        best: dict[tuple[int, str], tuple[int, int]] = {}
        for owner in range(st.n):
            if owner == seat:
                continue
            for c in st.tableaux[owner]:
                rub, vp = mooch_value(st, owner, c)
                key = (owner, st.cards[c].id)
                old = best.get(key, (0, 0))
                best[key] = (max(old[0], rub), max(old[1], vp))
        return best

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        me = st.cards[card].id
        out: list[Action] = []
        for (owner, tid), (rub, vp) in self.values(st, seat).items():
            if rub > 0:
                out.append(Action(PLAY, me, HAND, tid, owner, RUBLES))
            if vp > 0:
                out.append(Action(PLAY, me, HAND, tid, owner, VP))
        return out

    def act(self, st: GameState, seat: int, action: Action, card: int) -> list[Event]:
        rub, vp = self.values(st, seat)[action.amount, action.target]
        got = rub if action.good == RUBLES else vp
        events = [
            _note(
                f"log.bq_moocher_{action.good}",
                seat,
                {"card": action.card, "target": action.target},
                {action.good: got},
                owner=action.amount,
                amount=got,
            )
        ]
        if action.good == RUBLES:
            st.rubles[seat] += rub
        else:
            gain_vp(st, seat, vp, "moocher", events)  # M6-19: through the obstacles, which tell
        return events


class DoubleTurn(PurplePlay):
    """BQ-14, AMB-22: two actions in a row at once (decision ``double_turn``, opened by the turn-end
    hook); the turn is never a pass."""

    ability = "double_turn"

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        return [Action(PLAY, st.cards[card].id, HAND)]

    def act(self, st: GameState, seat: int, action: Action, card: int) -> list[Event]:
        b = bstate(st)
        b["double"] = 2
        b["double_seat"] = seat
        return [_note("log.bq_double_turn", seat, {"card": action.card})]


class BlackMarket(PurplePlay):
    """BQ-13, AMB-19: choose a non-purple card of the discard pile (decision ``black_market``);
    not on a pile without one."""

    ability = "black_market"

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        if not any(not is_purple(st, c) for c in st.discard):
            return []
        return [Action(PLAY, st.cards[card].id, HAND)]

    def act(self, st: GameState, seat: int, action: Action, card: int) -> list[Event]:
        from ..state import Pending

        st.pending = Pending("black_market", seat)
        return [_note("log.bq_black_market", seat, {"card": action.card})]


class MoneyCollector(PurplePlay):
    """BQ-11/12, BQ-25, AMB-17: place one card (display or hand) at half its price after all
    discounts, at least 1 (decision ``money_collector``); only if some card is affordable so."""

    ability = "money_collector"

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        from .banquet_decisions import collector_moves

        if not collector_moves(st, seat, without=card):
            return []
        return [Action(PLAY, st.cards[card].id, HAND)]

    def act(self, st: GameState, seat: int, action: Action, card: int) -> list[Event]:
        from ..state import Pending

        st.pending = Pending("money_collector", seat)
        return [_note("log.bq_money_collector", seat, {"card": action.card})]


class Pickpocket(PurplePlay):
    """BQ-21: played only at a phase's start (decision ``pickpocket``), never as a turn's action."""

    ability = PICKPOCKET

    def options(self, st: GameState, seat: int, card: int) -> list[Action]:
        return []


def hand_plays() -> dict[str, HandPlay]:
    plays: list[HandPlay] = [
        GoldenDonkey(),
        AwayWithIt(),
        Attach(JESTER),
        Attach(BANQUET),
        Moocher(),
        DoubleTurn(),
        BlackMarket(),
        MoneyCollector(),
        Pickpocket(),
    ]
    return {p.ability: p for p in plays}


# --- notation ------------------------------------------------------------------------------------------
def _purple(cat: Catalogue, name: str) -> CardType | None:
    t = cat.lookup(name)
    return t if t is not None and t.colour == PURPLE else None


def seat_name(seats: Sequence[str], seat: int) -> str:
    return seats[seat] if 0 <= seat < len(seats) else f"seat {seat + 1}"


def read_seat(seats: Sequence[str], text: str) -> int | None:
    text = text.strip()
    for i, name in enumerate(seats):
        if name.casefold() == text.casefold():
            return i
    m = re.fullmatch(r"seat\s+(\d+)", text, flags=re.I)
    return int(m.group(1)) - 1 if m else None


def parse_play(text: str, rest: str, cat: Catalogue, seats: tuple[str, ...]) -> Action | None:
    """``play <purple card> [on <card> [of <player> for rubles|vp]]``; None if not a purple card."""
    from ..errors import NotationError

    parts = re.split(r"\s+on\s+", rest, maxsplit=1, flags=re.I)
    t = _purple(cat, parts[0])
    if t is None:
        return None
    if len(parts) == 1:
        return Action(PLAY, t.id, HAND)
    target = parts[1].strip()
    if t.ability != "moocher":
        tt = cat.lookup(target)
        if tt is None:
            raise NotationError(text, f"no card called {target!r}")
        return Action(PLAY, t.id, HAND, tt.id)
    m = re.fullmatch(r"(.+?)\s+for\s+(rubles|vp)", target, flags=re.I | re.S)
    if m is None:
        raise NotationError(text, "the Moocher needs 'on <card> of <player> for rubles' (or 'for vp')")
    body, what = m.group(1), m.group(2).casefold()
    for split in re.finditer(r"\s+of\s+", body, flags=re.I):
        tt = cat.lookup(body[: split.start()])
        owner = read_seat(seats, body[split.end() :])
        if tt is not None and owner is not None:
            return Action(PLAY, t.id, HAND, tt.id, owner, what)
    raise NotationError(text, f"cannot read {body!r} as '<card> of <player>'")


def format_play(a: Action, cat: Catalogue, lang: str, seats: tuple[str, ...]) -> str:
    text = f"play {cat.by_id[a.card].name(lang)}"
    if a.target:
        text += f" on {cat.by_id[a.target].name(lang)}"
    if a.good:
        text += f" of {seat_name(seats, a.amount)} for {a.good}"
    return text


def play_notation() -> PlayNotation:
    abilities = ("golden_donkey", "away_with_it", JESTER, BANQUET, "moocher", "double_turn", "black_market",
                 "money_collector", PICKPOCKET)
    return PlayNotation(play_parsers=[parse_play], play_formatters={ab: format_play for ab in abilities})
