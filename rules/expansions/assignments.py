"""Module 5 of the 2nd edition: the Assignments ("Die Aufträge"; seed 001 module booklet p. 4-5,
M5-01 ... M5-19, P5-13/14, X-06 ... X-09).

Three assignments are dealt face down to each player at the start (from the seed, or given by the
record); they stay hidden until the end: they leave the core only through ``rules.view``, for their
owner (with what each would score now, UI-13), and ``Hooks.unseen`` re-deals others' assignments in
the computer players' determinizations. At the end each player chooses one (the pending decision
``assignment``, rules/expansions/assignment_decision.py), scored as final-scoring step 2 (X-06, M5-18).
Their data: data/expansions/module5.json.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from ..cards import BLUE, EXTRA_DIR, GREEN, RED
from ..hooks import Hooks, Shape
from ..state import GameState
from .common import MarketModule
from .market import YELLOW, positions

KEY: Final = "module5"
FIELD: Final = "assignments"  # the record field and the view field
MOST_RUBLES: Final = 6  # M5-08: scored before all other assignments
A5_CARDS = ("market", "customs_house", "firehouse")  # M5-07: Marktstand, Zollhaus, Feuerwache


@cache
def assignments_data() -> dict[str, Any]:
    with (EXTRA_DIR / "module5.json").open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def in_play(players: int) -> tuple[int, ...]:
    """M5-01, P5-13: all 15, less Assignments 2, 8 and 15 with two players."""
    return tuple(a["id"] for a in assignments_data()["assignments"] if players > 2 or not a["not_with_two"])


def assignment_name(aid: int, lang: str = "en") -> str:
    return f"Auftrag {aid}" if lang == "de" else f"Assignment {aid}"


def assignment_text(aid: int, lang: str = "en") -> str:
    for a in assignments_data()["assignments"]:
        if a["id"] == aid:
            text: str = a["text"].get(lang) or a["text"]["en"]
            return text
    raise KeyError(aid)


def assignment_short(aid: int, players: int, lang: str = "en") -> str:
    """A few words for the card (the hand image): Assignment 12 with this player count's figure."""
    for a in assignments_data()["assignments"]:
        if a["id"] == aid:
            text: str = a["short"].get(lang) or a["short"]["en"]
            return text.format(per=assignments_data()["per_cards_12"][str(players)])
    raise KeyError(aid)


def mstate(st: GameState) -> dict[str, Any]:
    """Module 5's part of the state: ``dealt`` (per seat its three ids) and ``chosen`` (per seat the
    id chosen at the final scoring, 0 while not chosen)."""
    m: dict[str, Any] = st.ext[KEY]
    return m


def dealt(st: GameState, seat: int) -> list[int]:
    ids: list[int] = mstate(st)["dealt"][seat]
    return ids


# --- what an assignment scores (M5-03 ... M5-17; AMB-26, AMB-34: the cards of the tableau) ----------
def value(st: GameState, seat: int, aid: int) -> int:
    """The VP assignment ``aid`` gives ``seat`` now. "Red/green/blue" include trading cards of that
    colour; "different" means distinct names; VP are printed VP (M5-17, AMB-18)."""
    cards = st.cards
    tableau = [cards[c] for c in st.tableaux[seat]]
    void = covered_card(st)

    def of(colour: str) -> list[Any]:
        return [t for t in tableau if t.colour == colour]

    def printed(colour: str, trading_only: bool = False) -> list[int]:
        """M5-17: the printed VP of the seat's cards of a colour; a covered card has none (BQ-12)."""
        return [0 if c == void else cards[c].vp for c in st.tableaux[seat]
                if cards[c].colour == colour and (cards[c].trading or not trading_only)]

    if aid == 1:
        return 2 * len(of(RED))
    if aid == 2:
        return 10 + len(of(GREEN))
    if aid in (3, 4):
        chips = sorted((p for p in positions(st, seat).values() if p > 0), reverse=True)  # AMB-05: in full
        if aid == 3:
            return 2 * len(chips) + (chips[0] if chips else 0)
        return sum(chips[:2])
    if aid == 5:
        return 3 * sum(1 for t in tableau if t.id in A5_CARDS)
    if aid == MOST_RUBLES:
        return 10 + (10 if has_most_rubles(st, seat) else 0)
    if aid == 7:
        return 3 * len({t.id for t in of(GREEN)})
    if aid == 8:
        return 2 * (len(tableau) - len({t.id for t in tableau}))
    if aid == 9:
        return 2 * sum(1 for t in tableau if t.trading)
    if aid == 10:
        return 4 * max(printed(RED), default=0)
    if aid == 11:
        return 3 * max(printed(BLUE), default=0)
    if aid == 12:
        return 5 + len(tableau) // int(assignments_data()["per_cards_12"][str(st.n)])
    if aid == 13:
        return 2 * len(of(YELLOW))
    if aid == 14:
        return 2 * len({t.id for t in of(BLUE)})
    if aid == 15:
        return 2 * sum(printed(BLUE, trading_only=True))
    raise KeyError(aid)


def covered_card(st: GameState) -> int:
    """The card under Module 1's Money Collector chip (-1: none, or no Module 1)."""
    from .banquet import KEY as BANQUET
    from .banquet import covered

    return covered(st) if BANQUET in st.ext else -1


def has_most_rubles(st: GameState, seat: int) -> bool:
    """M5-08 (AMB-26): a tie for the most rubles counts as the most."""
    return st.rubles[seat] == max(st.rubles)


def best(st: GameState, seat: int) -> int:
    """X-07: the highest-scoring of the seat's assignments (the first dealt on a tie)."""
    ids = dealt(st, seat)
    return max(ids, key=lambda a: (value(st, seat, a), -ids.index(a)))


# --- setup ---------------------------------------------------------------------------------------
def deal(n: int, rng: random.Random) -> list[list[int]]:
    """M5-01: shuffled, three to each seat; the rest stay in the box unseen."""
    pool = list(in_play(n))
    rng.shuffle(pool)
    return [sorted(pool[3 * s : 3 * s + 3]) for s in range(n)]


def validate(n: int, given: list[list[int]]) -> None:
    """Assignments given explicitly (X-09): three for each seat, all different, all in play."""
    if len(given) != n or any(len(ids) != 3 for ids in given):
        raise ValueError(f"'assignments' gives each of the {n} seats three assignments")
    flat = [a for ids in given for a in ids]
    if len(set(flat)) != len(flat):
        raise ValueError("an assignment is dealt twice (there is one of each)")
    allowed = in_play(n)
    wrong = sorted(set(flat) - set(allowed))
    if wrong:
        raise ValueError(f"assignments {wrong} are not in a {n}-player game (in play: 1-15, less 2, 8, 15 with two)")


def read_field(value_: Any) -> list[list[int]]:
    """X-09: ``"assignments": {"0": [1, 6, 12], "1": [...]}`` (seat -> 3 ids) or a list by seat."""
    if isinstance(value_, dict):
        try:
            seats = sorted((int(k), v) for k, v in value_.items())
        except ValueError:
            raise ValueError("'assignments' maps seats (0, 1, ...) to three assignment ids") from None
        if [s for s, _ in seats] != list(range(len(seats))):
            raise ValueError("'assignments' names every seat from 0 on")
        value_ = [v for _, v in seats]
    if not isinstance(value_, list) or not all(
        isinstance(ids, list) and all(type(a) is int for a in ids) for ids in value_
    ):
        raise ValueError("'assignments' maps seats to three assignment ids, e.g. {\"0\": [1, 6, 12]}")
    return [list(ids) for ids in value_]


def setup(st: GameState, rng: random.Random, given: Mapping[str, Any]) -> None:
    """M5-01: dealt from the seed, or as the record gives them (X-09; dealt either way, so that a
    field given explicitly changes no other draw)."""
    hands = deal(st.n, rng)
    if FIELD in given:
        hands = [sorted(ids) for ids in read_field(given[FIELD])]
        validate(st.n, hands)
    st.ext[KEY] = {"dealt": hands, "chosen": [0] * st.n}


# --- hidden information --------------------------------------------------------------------------
def visible(st: GameState, seat: int | None, owner: int) -> bool:
    """M5-19, X-08: a player's assignments are seen by that player only, by all once the game is over."""
    return st.finished or seat == owner


def view_fields(st: GameState, seat: int | None, out: dict[str, Any]) -> None:
    """M5-19, UI-13: each player sees what each of his own assignments would score now; others'
    are hidden until the end (only that each holds three). With hidden money, Assignment 6's second
    10 VP depends on others' money: shown as ``more`` (10 if he has the most rubles), never decided."""
    m = mstate(st)
    for p in out["players"]:
        s = p["seat"]
        p["assignment_count"] = len(m["dealt"][s])
        if not visible(st, seat, s):
            p[FIELD] = None
            p["assignment_chosen"] = None
            continue
        entries = []
        for aid in m["dealt"][s]:
            entry: dict[str, Any] = {"id": aid, "vp": value(st, s, aid)}
            if aid == MOST_RUBLES and not (st.ruleset.open_money or st.finished):
                entry["vp"], entry["more"] = 10, 10
            entries.append(entry)
        p[FIELD] = entries
        p["assignment_chosen"] = m["chosen"][s] or None


def turned_up(before: GameState, after: GameState, events: list[Any]) -> bool:
    """``Hooks.reveals``: M5-19: every player's assignments are turned up when the game is over."""
    return any(not visible(before, None, s) and visible(after, None, s) for s in range(after.n))


def redeal(d: GameState, seat: int, rng: random.Random) -> None:
    """``Hooks.unseen``: on a determinization, the assignments ``seat`` cannot see (the others' and the
    box's) are pooled, sorted, shuffled and dealt three to each other seat; one already chosen (hidden
    until the end) becomes the best of the new three."""
    if d.finished:
        return
    m = mstate(d)
    own = set(m["dealt"][seat])
    pool = sorted(a for a in in_play(d.n) if a not in own)
    rng.shuffle(pool)
    for s in range(d.n):
        if s == seat:
            continue
        m["dealt"][s] = sorted(pool[:3])
        del pool[:3]
        if m["chosen"][s]:
            m["chosen"][s] = best(d, s)


class Assignments(MarketModule):
    """M5-01: Module 5, 2nd edition, with the Market only (X-02)."""

    key = KEY

    def configure(self, shape: Shape) -> None:
        """Nothing to change: the assignments are no playing cards."""

    def hooks(self) -> Hooks:
        from .assignment_decision import AssignmentDecision, choices_step, notation, score_step

        return Hooks(
            decisions={"assignment": AssignmentDecision()},
            before_final={"assignment": choices_step},
            final_steps=[score_step],
            setups=[setup],
            view=[view_fields],
            unseen=[redeal],
            reveals=[turned_up],
            **notation(),
            record_fields={FIELD: read_field},
        )


ASSIGNMENTS = Assignments()
