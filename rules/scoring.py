"""Scoring (BG-07, BG-10, BG-14): a colour's income after its phase, and the final scoring."""

from __future__ import annotations

from typing import Any, Final

from .hooks import Events, cards_of
from .state import GameState

HAND_PENALTY: Final = 5  # BG-14
CONVERSION: Final = "rubles"  # the source of the final scoring's VP for rubles: rubles not converted stay


def no_vp_cards(st: GameState) -> frozenset[int]:
    """Cards in tableaux that are the source of no VP at all (``Hooks.no_vp``; AMB-17(e): the card under the
    Money Collector's chip)."""
    return cards_of(st.ruleset.hooks.no_vp, st)


def vp_cards(st: GameState, seat: int, ability: str) -> int:
    """How many of ``seat``'s cards with ``ability`` may yield VP (AMB-17(e): a covered one yields none): the
    Pubs that sell VP, a Guild Hall that may split into VP, a Trading House that sells VP."""
    cards = st.cards
    void = no_vp_cards(st)
    n = 0
    for c in st.tableaux[seat]:
        if cards[c].ability == ability and c not in void:
            n += 1
    return n


def gain_vp(st: GameState, seat: int, vp: int, source: str, events: Events) -> int:
    """Every VP gain passes here (M6-19): the active parts' filters (``Hooks.vp_filters``) may hold
    some back, the rest moves the marker, then the parts react (``Hooks.vp_gained``); ``events``
    receives what they tell (required, so that no gain passes an obstacle untold). Returns the VP
    credited."""
    hooks = st.ruleset.hooks
    if hooks.vp_filters:
        for keep in hooks.vp_filters:
            vp = keep(st, seat, vp, source, events)
    vps = st.vp  # written out, not +=: compiled, a list item's += is a generic in-place addition
    vps[seat] = vps[seat] + vp
    d = st.vp_by_source[seat]
    d[source] = d.get(source, 0) + vp
    for react in hooks.vp_gained:
        react(st, seat, vp, source, events)
    return vp


def buy_vp(st: GameState, seat: int, vp: int, price: int, source: str, events: Events) -> None:
    """``seat`` pays ``price`` rubles for ``vp`` VP from ``source`` (the Pub, BG-09; the Trading House, IBG):
    the VP through ``gain_vp``, the rubles counted as spent."""
    rubles = st.rubles
    rubles[seat] = rubles[seat] - price
    gain_vp(st, seat, vp, source, events)
    st.stats[seat].paid(price)


def income(st: GameState, events: Events) -> bool:
    """Scoring step 'income' (BG-07, BG-10): every card of the phase's colour pays its rubles and
    VP (a face-down Observatory no VP), plus bonuses; from the phase's start player on."""
    phase = st.ruleset.phases[st.phase]
    if phase.scores is not None:
        score_colour(st, phase.scores, phase.key, events)
    return False


def score_colour(st: GameState, colour: str, key: str, events: Events) -> None:
    cards = st.cards
    start = st.tokens[st.ruleset.phases[st.phase].token]
    n = len(st.seats)
    adjust = st.ruleset.hooks.card_income
    fd = st.face_down
    for i in range(n):
        seat = start + i
        if seat >= n:
            seat -= n
        rub = vp = 0
        if adjust:  # per card, for the expansions' changes (attachments, covered cards)
            for c in st.tableaux[seat]:
                if cards[c].colour == colour:
                    r, v = card_value(st, seat, c)
                    for hook in adjust:
                        r, v = hook(st, seat, c, r, v, events)
                    rub += r
                    vp += v
        else:
            for c in st.tableaux[seat]:
                t = cards[c]
                if t.colour != colour:
                    continue
                rub += t.rubles
                if t.vp and c not in fd:  # a face-down Observatory yields no VP (BG-08)
                    vp += t.vp
                if t.bonus_per is not None:
                    k = bonus_count(st, seat, t.bonus_per)
                    rub += t.bonus_rubles * k
                    vp += t.bonus_vp * k
        rubles = st.rubles
        rubles[seat] = rubles[seat] + rub  # (not +=: see gain_vp)
        st.stats[seat].scored(key, rub, vp)
        if events is not None:
            # the totals after it, so a scoring reads as before + gained = after (UI-15); what an
            # obstacle holds back or adds follows in events of its own (M6-19)
            events.append({"type": "score", "phase": key, "seat": seat, "rubles": rub, "vp": vp,
                           "rubles_after": st.rubles[seat], "vp_after": st.vp[seat] + vp})
        if vp:
            gain_vp(st, seat, vp, key, events)


def bonus_count(st: GameState, seat: int, per: str) -> int:
    """What a bonus card counts in the tableau at the moment of scoring (IBG-18): the cards of a
    colour ("red"), or the cards showing a worker symbol ("symbol:cloth", the Textile Factory, M2-08)."""
    cards = st.cards
    if per.startswith("symbol:"):
        sym = per[7:]
        return sum(1 for x in st.tableaux[seat] if sym in cards[x].symbols)
    return sum(1 for x in st.tableaux[seat] if cards[x].colour == per)


def card_value(st: GameState, seat: int, c: int) -> tuple[int, int]:
    """What card ``c`` in ``seat``'s tableau yields at its scoring: (rubles, VP), bonuses counted on
    that tableau, a face-down card no printed VP (BG-07, BG-10)."""
    cards = st.cards
    t = cards[c]
    rub = t.rubles
    vp = t.vp if c not in st.face_down else 0
    if t.bonus_per is not None:
        k = bonus_count(st, seat, t.bonus_per)
        rub += t.bonus_rubles * k
        vp += t.bonus_vp * k
    return rub, vp


def aristocrat_vp(st: GameState, seat: int) -> int:
    """Final VP for distinct aristocrats, red trading cards included, by name (BG-14)."""
    cards = st.cards
    table = st.ruleset.catalogue.aristocrat_table
    distinct = {cards[c].id for c in st.tableaux[seat] if cards[c].colour == "red"}
    return table[min(len(distinct), len(table) - 1)]


def end_game(st: GameState, events: Events) -> None:
    """The game has ended (BG-13): the expansions' steps before the final scoring
    (``Hooks.before_final``, e.g. each player choosing one of his Module-5 assignments, M5-02), which
    may wait on pending decisions; then ``final_scoring``."""
    run_before_final(st, 0, events)


def run_before_final(st: GameState, start: int, events: Events) -> None:
    """Run the steps before the final scoring from index ``start``; one that opens a decision suspends
    them (the decision calls ``resume_final`` when done); after the last one, ``final_scoring``."""
    steps = list(st.ruleset.hooks.before_final.values())
    for i in range(start, len(steps)):
        if steps[i](st, events):
            return
    final_scoring(st, events)


def resume_final(st: GameState, step: str, events: Events) -> None:
    """Continue after the step ``step`` before the final scoring, whose decisions are all taken."""
    st.pending = None
    run_before_final(st, list(st.ruleset.hooks.before_final).index(step) + 1, events)


def final_scoring(st: GameState, events: Events) -> None:
    """Final scoring (BG-14; X-06): (1) distinct aristocrats, (2) the expansions' final
    steps for all seats at once (``Hooks.final_steps``, e.g. Module 5's assignments, A6 first, M5-18),
    (3) 1 VP per 10 rubles, converted only for the VP credited (M6-18: none while an obstacle blocks
    the player), (4) -5 per hand card (``Hooks.hand_exempt`` excepted), then the expansions' per-seat
    additions (``Hooks.final``); the winners: most VP, ties by rubles left."""
    hooks = st.ruleset.hooks
    final: list[dict[str, Any]] = []
    for seat in range(st.n):
        ar = aristocrat_vp(st, seat)
        gain_vp(st, seat, ar, "aristocrat_bonus", events)
        final.append({"seat": seat, "aristocrats": ar})
    for step in hooks.final_steps:
        step(st, final, events)
    extra = hooks.final
    exempt = hooks.hand_exempt
    for seat in range(st.n):
        counted = [c for c in st.hands[seat] if not any(free(st, c) for free in exempt)]
        penalty = HAND_PENALTY * len(counted)
        money_vp = gain_vp(st, seat, st.rubles[seat] // 10, CONVERSION, events)
        gain_vp(st, seat, -penalty, "hand_penalty", events)
        st.rubles[seat] -= 10 * money_vp
        entry = final[seat]
        entry["rubles_vp"] = money_vp
        entry["hand_penalty"] = -penalty
        for add in extra:
            add(st, seat, entry, events)
        entry["vp"] = st.vp[seat]
        entry["rubles_left"] = st.rubles[seat]
    best = max((st.vp[s], st.rubles[s]) for s in range(st.n))
    st.winners = [s for s in range(st.n) if (st.vp[s], st.rubles[s]) == best]
    st.final = final
    st.finished = True
    st.pending = None
    if events is not None:
        events.append({"type": "game_end", "final": final, "winners": list(st.winners)})
