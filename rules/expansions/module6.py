"""Module 6: the Obstacles ("Die Hürden"; seed 001 module booklet, seed 004; M6-01 ...
M6-21, X-04, X-06, X-07, AMB-25).

Five obstacles lie on the VP track at fields 10, 20, 35, 50 and 70 (data/modules/module6.json). Every
VP gain passes ``keep_vp`` (``Hooks.vp_filters``): a real obstacle at F is checked when a marker
reaches F - 1 and holds back what goes beyond it until its condition is met; a bonus obstacle pays
once when a marker reaches its field (``pay_bonuses``, ``Hooks.vp_gained``). A bonus with a choice
waits as a ``bonus`` decision (rules/expansions/module6_decisions.py), opened before the game waits
for anyone else (``Hooks.interrupts``); in the final scoring it takes the best for the player (M6-18).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from ..cards import DATA_DIR, GREEN, RED
from ..hooks import Event, Events, Hooks
from ..scoring import CONVERSION, gain_vp
from ..state import GameState, Pending
from .common import MarketModule
from .market import positions

KEY: Final = "module6"
BLUE: Final = "blue"
BONUS: Final = "bonus"  # the decision kind and its action word


@cache
def data() -> dict[str, Any]:
    with (DATA_DIR / "modules" / "module6.json").open(encoding="utf-8") as f:
        d: dict[str, Any] = json.load(f)
    return d


@cache
def obstacle_info() -> dict[str, dict[str, Any]]:
    return {o["id"]: o for o in data()["obstacles"]}


def fields() -> tuple[int, ...]:
    """M6-01, UI-24: the five fields of the VP track that carry an obstacle."""
    return tuple(data()["fields"])


def is_real(obstacle: str) -> bool:
    return bool(obstacle_info()[obstacle]["real"])


def m6(st: GameState) -> dict[str, Any]:
    """Module 6's part of the state: the obstacles (field -> id), per seat the fields passed (a real
    obstacle met, a bonus paid), the VP lost, what each obstacle gave, the choices still to make and
    the decisions they interrupted."""
    m: dict[str, Any] = st.ext[KEY]
    return m


@cache
def track() -> tuple[tuple[int, str], ...]:
    """The obstacles' fields in the order of the track, each with its key in the state's ``obstacles``
    (setup and ``read_obstacles`` put one obstacle on each of ``fields``)."""
    return tuple((f, str(f)) for f in sorted(fields()))


def placed(st: GameState) -> list[tuple[int, str]]:
    """(field, obstacle) in the order of the track."""
    obstacles = m6(st)["obstacles"]
    return [(f, obstacles[key]) for f, key in track() if key in obstacles]


# --- setup ---------------------------------------------------------------------------------------
def read_obstacles(value: Any) -> dict[int, str]:
    """X-09: a record's ``obstacles``: each of the fields 10, 20, 35, 50, 70 -> a distinct obstacle id
    (any mix of real and bonus ones, the variant of M6-02)."""
    if not isinstance(value, dict):
        raise ValueError("'obstacles' maps each field 10, 20, 35, 50, 70 to an obstacle")
    out: dict[int, str] = {}
    for key, ob in value.items():
        try:
            f = int(key)
        except (TypeError, ValueError):
            raise ValueError(f"{key!r} is not a field") from None
        if ob not in obstacle_info():
            raise ValueError(f"no obstacle {ob!r} (known: {', '.join(obstacle_info())})")
        out[f] = ob
    if sorted(out) != list(fields()):
        raise ValueError(f"the obstacles lie on the fields {', '.join(map(str, fields()))}, one each")
    if len(set(out.values())) != len(out):
        raise ValueError("an obstacle is named twice")
    return out


def draw_obstacles(rng: random.Random) -> dict[int, str]:
    """M6-01: 2 real obstacles drawn at random go to fields 20 and 35, 3 bonus ones to 10, 50, 70."""
    d = data()
    real = rng.sample([o["id"] for o in d["obstacles"] if o["real"]], len(d["real_fields"]))
    bonus = rng.sample([o["id"] for o in d["obstacles"] if not o["real"]], len(d["bonus_fields"]))
    return dict(zip(d["real_fields"] + d["bonus_fields"], real + bonus, strict=True))


def setup(st: GameState, rng: random.Random, given: Mapping[str, Any]) -> None:
    chosen = given.get("obstacles") or draw_obstacles(rng)
    st.ext[KEY] = {
        "obstacles": {str(f): o for f, o in sorted(chosen.items())},
        "passed": [[] for _ in range(st.n)],
        "lost": [0] * st.n,
        "received": [{} for _ in range(st.n)],
        "to_pay": [],
        "queue": [],
        "suspended": [],
        "final": False,
    }


# --- what a player has -----------------------------------------------------------------------------
def counts(st: GameState, seat: int) -> dict[str, int]:
    """The tableau counts the obstacles read (AMB-34: tableau cards only; trading cards count for
    their colour)."""
    cards = st.cards
    green = blue = red = trading = green_trading = blue_trading = red_trading = 0
    distinct: set[str] = set()
    for c in st.tableaux[seat]:
        t = cards[c]
        colour = t.colour
        if colour == GREEN:
            green += 1
            green_trading += t.trading
            distinct.add(t.id)
        elif colour == BLUE:
            blue += 1
            blue_trading += t.trading
        elif colour == RED:
            red += 1
            red_trading += t.trading
        trading += t.trading
    chips = best = 0
    for p in positions(st, seat).values():
        if p > 0:
            chips += 1  # a chip: a good he has a marker for (MK-22)
        if p > best:
            best = p  # AMB-05: in full
    return {
        "green": green, "blue": blue, "red": red, "trading": trading, "green_trading": green_trading,
        "blue_trading": blue_trading, "red_trading": red_trading, "distinct_green": len(distinct), "chips": chips,
        "best_position": best,
    }


def progress(st: GameState, seat: int, obstacle: str, field: int) -> list[dict[str, Any]]:
    """UI-17: each requirement of a real obstacle as have / need (empty for a bonus obstacle)."""
    if not is_real(obstacle):
        return []
    c = counts(st, seat)
    need = obstacle_info()[obstacle]["need"][str(field)]
    if obstacle == "real_workers":
        return [{"what": "distinct_green", "have": c["distinct_green"], "need": need}]
    if obstacle == "real_market":
        return [{"what": "chips", "have": c["chips"], "need": need[0]},
                {"what": "position", "have": c["best_position"], "need": need[1]}]
    if obstacle == "real_buildings":
        return [{"what": "blue", "have": c["blue"], "need": need}]
    if obstacle == "real_aristocrats":
        return [{"what": "red", "have": c["red"], "need": need}]
    if isinstance(need, str):  # real_trading at 50: one of each colour (M6-16)
        return [{"what": f"{col}_trading", "have": c[f"{col}_trading"], "need": 1} for col in ("green", "red", "blue")]
    return [{"what": "trading", "have": c["trading"], "need": need}]


def met(st: GameState, seat: int, obstacle: str, field: int) -> bool:
    """M6-12 ... M6-16: the real obstacle's condition holds now."""
    return all(p["have"] >= p["need"] for p in progress(st, seat, obstacle, field))


def status(st: GameState, seat: int, field: int, obstacle: str) -> str:
    """UI-16, M6-21: passed (met and reached, or a bonus paid), blocked (reached, not met), met (not
    reached) or open (neither)."""
    if field in m6(st)["passed"][seat]:
        return "passed"
    if not is_real(obstacle):
        return "open"
    if st.vp[seat] >= field - 1:
        return "blocked"
    return "met" if met(st, seat, obstacle, field) else "open"


def blocked(st: GameState, seat: int) -> bool:
    """The player's marker stands before a real obstacle he does not meet: VP would not count now."""
    return any(status(st, seat, f, o) == "blocked" and not met(st, seat, o, f) for f, o in placed(st))


# --- the VP track ----------------------------------------------------------------------------------
def keep_vp(st: GameState, seat: int, vp: int, source: str, events: Events) -> int:
    """M6-03, M6-09 ... M6-11, M6-17 (AMB-25): the part of a VP gain that moves the marker. A real
    obstacle at F is checked when the marker would reach F - 1: met, it is passed (its bonus follows);
    not met, the marker stops at F - 1 and the rest is lost. A bonus obstacle reached or passed pays
    once. Losses (negative gains) pass freely, and a passed obstacle never applies again."""
    if vp <= 0:
        return vp
    m = m6(st)
    v = st.vp[seat]
    target = v + vp
    done = m["passed"][seat]
    obstacles = m["obstacles"]
    for f, key in track():
        if target < f - 1:
            break  # no obstacle reached from here on (a real one is checked at F - 1, a bonus one at F)
        if f in done:
            continue
        ob = obstacles[key]
        real = is_real(ob)
        if target < (f - 1 if real else f):
            break
        if real and not met(st, seat, ob, f):
            # rubles held back from the final conversion are not lost: they stay (M6-18, X-06)
            lost = target - (f - 1) if source != CONVERSION else 0
            target = f - 1
            m["lost"][seat] += lost
            stats = st.stats[seat]
            stats["vp_lost"] = stats.get("vp_lost", 0) + lost
            if events is not None:
                events.append({"type": "obstacle_blocked", "seat": seat, "field": f, "obstacle": ob, "vp": lost})
            break
        done.append(f)
        m["to_pay"].append([seat, f])
    return target - v


def pay_bonuses(st: GameState, seat: int, vp: int, source: str, events: Events) -> None:
    """M6-10, M6-19: the bonuses of the obstacles this gain passed, in track order; bonus rubles at
    once, bonus VP as a gain of their own (which may pass the next obstacle: a chain)."""
    m = m6(st)
    due = [f for s, f in m["to_pay"] if s == seat]
    if not due:
        return
    m["to_pay"] = [x for x in m["to_pay"] if x[0] != seat]
    for f in due:
        pay_bonus(st, seat, f, events)


def bonus_parts(st: GameState, seat: int, obstacle: str) -> tuple[int, int, list[tuple[str, str, int]]]:
    """An obstacle's bonus for ``seat`` now: fixed rubles, fixed VP, and the options of its choice
    (side "rubles" or "vp", the card type chosen or "", amount), printed values (AMB-18)."""
    c = counts(st, seat)
    cards = st.cards
    if obstacle == "bonus_aristocrats":
        return 0, c["red"], []
    if obstacle == "bonus_buildings":
        return c["blue"], 0, []
    if obstacle == "bonus_trading":
        return c["trading"], c["trading"], []
    if obstacle == "bonus_marketplace":
        chips = c["chips"]
        return 0, 0, [("rubles", "", chips), ("vp", "", chips)] if chips else []
    if obstacle == "real_market":
        return c["best_position"], c["chips"], []
    if obstacle == "real_trading":
        return 0, 2 * c["trading"], []
    opts: dict[tuple[str, str], int] = {}
    for x in st.tableaux[seat]:
        t = cards[x]
        if obstacle == "bonus_card":
            if t.rubles > 0:
                opts["rubles", t.id] = t.rubles
            if t.vp > 0:
                opts["vp", t.id] = t.vp
        elif obstacle == "real_buildings" and t.colour == BLUE:
            opts["vp", t.id] = t.vp
        elif obstacle == "real_aristocrats" and t.colour == RED:
            opts["rubles", t.id] = max(t.rubles, 0)  # 004: a Sycophant gives 0, not -1
    options = [(side, cid, amount) for (side, cid), amount in opts.items()]
    if obstacle == "real_buildings":
        return c["blue"], 0, options
    if obstacle == "real_aristocrats":
        return 0, c["red"], options
    return 0, 0, options


def best_option(st: GameState, seat: int, options: list[tuple[str, str, int]]) -> tuple[str, str, int]:
    """M6-18, UI-26: the option worth most to him: the most VP, or the most rubles while an obstacle
    blocks him (VP would be lost); the first such option in the order listed."""
    if blocked(st, seat):
        return max(options, key=lambda o: (o[0] == "rubles", o[2]))
    return max(options, key=lambda o: (o[0] == "vp", o[2]))


def pay_bonus(st: GameState, seat: int, field: int, events: Events) -> None:
    m = m6(st)
    ob = m["obstacles"][str(field)]
    rubles, vp, options = bonus_parts(st, seat, ob)
    choice = None
    if options:
        outcomes = {(side, amount) for side, _, amount in options}
        if len(outcomes) == 1 or m["final"]:  # nothing to choose; or the final scoring (M6-18)
            choice = best_option(st, seat, options)
        else:
            m["queue"].append([seat, field])
    credit(st, seat, field, rubles, vp, events, "obstacle_passed")
    if choice is not None:
        take_option(st, seat, field, choice, events)


def take_option(st: GameState, seat: int, field: int, option: tuple[str, str, int], events: Events) -> None:
    side, cid, amount = option
    rubles, vp = (amount, 0) if side == "rubles" else (0, amount)
    credit(st, seat, field, rubles, vp, events, "bonus_chosen", cid)


def credit(
    st: GameState, seat: int, field: int, rubles: int, vp: int, events: Events, kind: str, card: str = ""
) -> None:
    """Pay part of an obstacle's bonus: the event first, then the rubles, then the VP as a gain."""
    m = m6(st)
    ob = m["obstacles"][str(field)]
    got = m["received"][seat].setdefault(str(field), {"rubles": 0, "vp": 0})
    got["rubles"] += rubles
    got["vp"] += vp
    if card:
        got["card"] = card
    stats = st.stats[seat]
    stats["obstacle_rubles"] = stats.get("obstacle_rubles", 0) + rubles
    stats["obstacle_vp"] = stats.get("obstacle_vp", 0) + vp
    if events is not None:
        ev: Event = {"type": kind, "seat": seat, "field": field, "obstacle": ob, "rubles": rubles, "vp": vp}
        if card:
            ev["card"] = card
        events.append(ev)
    st.rubles[seat] += rubles
    if vp:
        gain_vp(st, seat, vp, "obstacles", events)


# --- choices: opened before the game waits; taken at once in the final scoring ---------------------
def open_choice(st: GameState, events: Events) -> bool:
    """X-07: a queued bonus choice interrupts whatever the game waits for (restored afterwards)."""
    m = m6(st)
    if not m["queue"] or (st.pending is not None and st.pending.kind == BONUS):
        return False
    p = st.pending
    m["suspended"].append(None if p is None else [p.kind, p.seat, p.card, p.source, list(p.queue)])
    seat, field = m["queue"].pop(0)
    st.pending = Pending(BONUS, seat, field)
    return True


def after_choice(st: GameState) -> None:
    """The next queued choice, else what the first one interrupted."""
    m = m6(st)
    if m["queue"]:
        seat, field = m["queue"].pop(0)
        st.pending = Pending(BONUS, seat, field)
        return
    old = m["suspended"].pop()
    st.pending = None if old is None else Pending(old[0], old[1], old[2], old[3], list(old[4]))


def final_mode(st: GameState, events: Events) -> None:
    """M6-18, UI-26: before the final scoring, choices still open take the best for the player, and
    so does every choice met during it."""
    if not st.ending:
        return
    m = m6(st)
    m["final"] = True
    while m["queue"]:
        seat, field = m["queue"].pop(0)
        _, _, options = bonus_parts(st, seat, m["obstacles"][str(field)])
        if options:
            take_option(st, seat, field, best_option(st, seat, options), events)


def final_entry(st: GameState, seat: int, entry: dict[str, Any], events: Events) -> None:
    """X-06: the final-scoring table notes the VP an obstacle held back over the game."""
    entry["vp_lost"] = m6(st)["lost"][seat]


# --- the module ------------------------------------------------------------------------------------
class Obstacles(MarketModule):
    """M6-01 (2nd edition, with the Market: X-02)."""

    key = KEY

    def hooks(self) -> Hooks:
        from .module6_decisions import BonusDecision, notation
        from .module6_view import view_fields

        return Hooks(
            decisions={BONUS: BonusDecision()},
            setups=[setup],
            record_fields={"obstacles": read_obstacles},
            vp_filters=[keep_vp],
            vp_gained=[pay_bonuses],
            interrupts=[open_choice],
            round_end=[final_mode],
            final=[final_entry],
            view=[view_fields],
            **notation(),
        )


OBSTACLES = Obstacles()
