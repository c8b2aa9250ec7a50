"""Scoring (rules-notes 7, 10, 14): a colour's income after its phase, and the final scoring."""

from __future__ import annotations

from typing import Any

from .state import GameState

Event = dict[str, Any]

HAND_PENALTY = 5  # rules-notes 14


def gain_vp(st: GameState, seat: int, vp: int, source: str) -> None:
    st.vp[seat] += vp
    d = st.vp_by_source[seat]
    d[source] = d.get(source, 0) + vp


def income(st: GameState, events: list[Event]) -> bool:
    """Scoring step 'income' (rules-notes 7, 10): every card of the phase's colour pays its rubles and
    VP (a face-down Observatory no VP), plus bonuses; from the phase's start player on."""
    phase = st.ruleset.phases[st.phase]
    if phase.scores is not None:
        score_colour(st, phase.scores, phase.key, events)
    return False


def score_colour(st: GameState, colour: str, key: str, events: list[Event]) -> None:
    cards = st.cards
    start = st.tokens[st.ruleset.phases[st.phase].token]
    rubles_key, vp_key = f"{key}_rubles", f"{key}_vp"
    n = len(st.seats)
    for i in range(n):
        seat = (start + i) % n
        rub = vp = 0
        for c in st.tableaux[seat]:
            t = cards[c]
            if t.colour != colour:
                continue
            rub += t.rubles
            if c not in st.face_down:
                vp += t.vp
            if t.bonus_per is not None:
                k = sum(1 for x in st.tableaux[seat] if cards[x].colour == t.bonus_per)
                rub += t.bonus_rubles * k
                vp += t.bonus_vp * k
        st.rubles[seat] += rub
        if vp:
            gain_vp(st, seat, vp, key)
        s = st.stats[seat]
        s[rubles_key] = s.get(rubles_key, 0) + rub
        s[vp_key] = s.get(vp_key, 0) + vp
        # the totals after it, so a scoring reads as before + gained = after (UI-15)
        events.append({"type": "score", "phase": key, "seat": seat, "rubles": rub, "vp": vp,
                       "rubles_after": st.rubles[seat], "vp_after": st.vp[seat]})


def aristocrat_vp(st: GameState, seat: int) -> int:
    """Final VP for distinct aristocrats, red trading cards included, by name (rules-notes 14)."""
    cards = st.cards
    table = st.ruleset.catalogue.aristocrat_table
    distinct = {cards[c].id for c in st.tableaux[seat] if cards[c].colour == "red"}
    return table[min(len(distinct), len(table) - 1)]


def final_scoring(st: GameState, events: list[Event]) -> None:
    """Final scoring (rules-notes 14; X-06): (1) distinct aristocrats for every seat, (2) the
    expansions' final-scoring steps (``Hooks.final_steps``, e.g. Module 5's assignment, M5-18), which
    may wait on pending decisions, then ``finish_final``. ``st.final`` holds each seat's entry as it
    grows; the game is finished only when all steps are done."""
    final: list[dict[str, int]] = []
    for seat in range(st.n):
        ar = aristocrat_vp(st, seat)
        gain_vp(st, seat, ar, "aristocrat_bonus")
        final.append({"seat": seat, "aristocrats": ar})
    st.final = final
    run_final_steps(st, 0, events)


def run_final_steps(st: GameState, start: int, events: list[Event]) -> None:
    """Run the final-scoring steps from index ``start``; one that opens a decision suspends them (the
    decision calls ``resume_final`` when done); after the last one, ``finish_final``."""
    steps = list(st.ruleset.hooks.final_steps.values())
    for i in range(start, len(steps)):
        if steps[i](st, events):
            return
    finish_final(st, events)


def resume_final(st: GameState, step: str, events: list[Event]) -> None:
    """Continue the final scoring after step ``step``, whose decisions are all taken."""
    st.pending = None
    run_final_steps(st, list(st.ruleset.hooks.final_steps).index(step) + 1, events)


def finish_final(st: GameState, events: list[Event]) -> None:
    """X-06 (3) 1 VP per 10 rubles, (4) -5 per hand card, then the expansions' per-seat additions
    (``Hooks.final``); the winners: most VP, ties by rubles left (rules-notes 14)."""
    final = st.final if st.final is not None else [{"seat": s} for s in range(st.n)]
    extra = st.ruleset.hooks.final
    for seat in range(st.n):
        money_vp = st.rubles[seat] // 10
        penalty = HAND_PENALTY * len(st.hands[seat])
        gain_vp(st, seat, money_vp, "rubles")
        gain_vp(st, seat, -penalty, "hand_penalty")
        st.rubles[seat] -= 10 * money_vp
        entry: dict[str, Any] = final[seat]
        entry["rubles_vp"] = money_vp
        entry["hand_penalty"] = -penalty
        for step in extra:
            step(st, seat, entry)
        entry["vp"] = st.vp[seat]
        entry["rubles_left"] = st.rubles[seat]
    best = max((st.vp[s], st.rubles[s]) for s in range(st.n))
    st.winners = [s for s in range(st.n) if (st.vp[s], st.rubles[s]) == best]
    st.final = final
    st.finished = True
    st.pending = None
    events.append({"type": "game_end", "final": [dict(f) for f in final], "winners": list(st.winners)})
