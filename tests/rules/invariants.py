"""What holds at every step of every game, for every part of the game (X-10), and how
rubles and VP change by the events (the property tests of tests/rules/test_properties*.py)."""

from __future__ import annotations

from typing import Any

from rules import BUY, PLAY, PUB, GameState, Move
from rules.expansions.market import positions

from .helpers import MARKET_SCORE_EVENTS


def card_places(st: GameState) -> list[int]:
    """Every physical card where it lies, once per place it appears in."""
    places: list[int] = []
    for deck in st.decks.values():
        places += deck
    places += st.upper + st.lower + st.discard
    for h in st.hands:
        places += h
    for t in st.tableaux:
        places += t
    p = st.pending
    if p is not None and st.ruleset.hooks.decisions[p.kind].drawn and p.card >= 0 and p.card not in st.discard:
        places.append(p.card)  # drawn (Observatory), or picked from the discard pile (M2-04)
    if "market" in st.ext:
        places += st.ext["market"]["box"]
    if "banquet" in st.ext:  # played purple cards in the box, Jester and Banquet on their cards
        places += st.ext["banquet"]["box"] + [a for a, _, _ in st.ext["banquet"]["attached"]]
    cat = st.ruleset.catalogue
    places += [c for c, t in enumerate(cat.cards) if t.id in cat.removed]  # in the box from the start
    return places


def assert_invariants(st: GameState) -> None:
    """Cards conserved, money and VP consistent, and each part's own invariants."""
    places = card_places(st)
    assert sorted(places) == list(range(len(st.cards))), "a card is lost or in two places"
    assert all(r >= 0 for r in st.rubles), st.rubles
    for s in range(st.n):
        assert st.vp[s] == sum(st.vp_by_source[s].values()), (s, st.vp[s], st.vp_by_source[s])
    cat = st.ruleset.catalogue
    in_tableaux = {c for t in st.tableaux for c in t}
    assert not any(cat.cards[c].id in cat.removed for c in in_tableaux)  # IBG, SP+: cards out of the game
    # face down: a used Observatory (BG-08) or Debtor's Prison (M2-04), always in a tableau
    assert all(c in in_tableaux and cat.cards[c].ability in ("observatory", "debtors_prison") for c in st.face_down)
    # the first workers phase shows 2 per player (BG-01; P5-09: 10 of a display of 8); Module 4's
    # display: assert_module4_invariants
    if 4 not in st.ruleset.modules:
        assert len(st.upper) + len(st.lower) <= max(st.ruleset.display_size, st.ruleset.first_workers)
    assert sorted(st.tokens) == sorted(st.ruleset.tokens)
    assert all(0 <= s < st.n for s in st.tokens.values())
    assert 0 <= st.to_move < st.n
    if st.pending is not None:
        assert 0 <= st.pending.seat < st.n
    if "market" in st.ruleset.expansions:
        assert_market_invariants(st)
    if st.ruleset.modules:
        assert_module_invariants(st)
    if 1 in st.ruleset.modules:
        assert_banquet_invariants(st)
    if 4 in st.ruleset.modules:
        assert_module4_invariants(st)
    if 6 in st.ruleset.modules:
        assert_module6_invariants(st)


def fresh_positions(st: GameState, seat: int) -> dict[str, int]:
    """MK-21, independently of the engine: symbols per good on the seat's tableau."""
    cat = st.ruleset.catalogue
    out = dict.fromkeys(("chicken", "grain", "apple", "fish", "cabbage"), 0)
    for c in st.tableaux[seat]:
        roundel = cat.markets[c]
        if roundel == "?":
            owned = [g for g, card in st.ext["market"]["goods"].items() if card == c]
            for g in owned:
                out[g] += 1
        elif roundel is not None:
            out[roundel] += cat.cards[c].market_count
    return out


def assert_market_invariants(st: GameState) -> None:
    """X-10: positions equal a fresh count; each good token on at most one card, a "?" card in a
    tableau; crates never on the discard pile (AMB-03); the tile in range."""
    m = st.ext["market"]
    for s in range(st.n):
        assert positions(st, s) == fresh_positions(st, s)
    holders = list(m["goods"].values())
    assert len(holders) == len(set(holders)), m["goods"]
    in_tableaux = {c for t in st.tableaux for c in t}
    for c in holders:
        assert c in in_tableaux and st.ruleset.catalogue.markets[c] == "?", c
    assert not any(st.cards[c].ability == "crate" for c in st.discard)
    assert 0 <= m["tile"] < 6


def assert_module_invariants(st: GameState) -> None:
    """M3-03: one assistant per seat, those of the player count; M5-01: three different assignments
    per seat, none twice, all in play; one chosen only at the end, from the seat's three."""
    from rules.expansions import assignments, assistants

    if "module3" in st.ext:
        held = assistants.holders(st)
        assert set(held) == set(assistants.in_play(st.n)) and sorted(held.values()) == list(range(st.n))
    if "module5" in st.ext:
        m = assignments.mstate(st)
        flat = [a for ids in m["dealt"] for a in ids]
        assert len(flat) == len(set(flat)) == 3 * st.n and set(flat) <= set(assignments.in_play(st.n))
        for seat, chosen in enumerate(m["chosen"]):
            choosing = st.pending is not None and st.pending.kind == "assignment"
            assert chosen == 0 or (chosen in m["dealt"][seat] and (choosing or st.finished))


def assert_banquet_invariants(st: GameState) -> None:
    """BQ-03, BQ-06, BQ-16..18, BQ-11: purple cards are never laid out; the box holds only purple
    cards; attachments are a Jester or a Banquet; the chip lies on a card of its seat's tableau (or
    has just lost it to a released crate); a Double Turn in progress has a decision open."""
    b = st.ext["banquet"]
    cards = st.cards
    assert all(cards[c].colour != "purple" for t in st.tableaux for c in t), "a purple card was laid out"
    assert all(cards[c].colour == "purple" for c in b["box"])
    for a, c, seat in b["attached"]:
        assert cards[a].ability in ("jester", "banquet")
        assert cards[c].colour != "purple" and 0 <= seat < st.n
    if b["chip"] is not None:
        assert cards[b["chip"][0]].colour != "purple"
    assert b["double"] >= 0
    if b["double"]:
        assert st.pending is not None


def assert_module4_invariants(st: GameState) -> None:
    """M4-02, P5-13: every event free or used, one a player, none in the first round; the display's
    slots hold its cards once each; at most a Twin's second card beyond the display."""
    from rules.expansions.module4 import event_ids, m4, slots

    m = m4(st)
    assert sorted(m["free"] + list(m["used"])) == sorted(event_ids())
    assert len(set(m["used"].values())) == len(m["used"]) <= st.n
    for key, row in (("upper_slots", st.upper), ("lower_slots", st.lower)):
        held = [c for c in slots(st, key) if c >= 0]
        assert len(held) == len(set(held)) and set(held) <= set(row)
    assert len(st.upper) <= st.ruleset.display_size + 1
    if st.round == 1:
        assert not m["used"]


def assert_module6_invariants(st: GameState) -> None:
    """M6-11: a marker stays before a real obstacle it has not passed; nothing left to pay; choices
    still to make wait behind an open one (X-07)."""
    from rules.expansions.module6 import is_real, m6, placed

    m = m6(st)
    for s in range(st.n):
        for f, ob in placed(st):
            if is_real(ob) and f not in m["passed"][s]:
                assert st.vp[s] <= f - 1, (s, f, st.vp[s])
    assert not m["to_pay"]
    if m["queue"]:
        assert st.pending is not None and st.pending.kind == "bonus", m["queue"]


def expected_change(events: list[dict[str, Any]], move: Move, n: int) -> tuple[list[int], list[int]]:
    """The change of each seat's rubles and VP that ``events`` (of applying ``move``) tell of; checks
    the prices they name against the listed one."""
    dr, dv = [0] * n, [0] * n
    for ev in events:
        t = ev["type"]
        s = ev.get("seat", 0)
        if t in (BUY, PLAY, "grab"):
            if t != "grab":
                assert ev["price"] == move.price, (ev, move)
            dr[s] -= ev["price"]
        elif t == PUB:
            assert ev["rubles"] == move.price == 2 * ev["vp"], (ev, move)
            dr[s] -= ev["rubles"]
            dv[s] += ev["vp"]
        elif t in ("score", "guild_hall", "obstacle_passed", "bonus_chosen"):  # M2-09; M6
            dr[s] += ev["rubles"]
            dv[s] += ev["vp"]
        elif t == "sack":  # P5-08
            dr[s] += ev.get("rubles", 0)
            dv[s] += ev["vp"]
        elif t in ("trading_house", "sycophant"):  # M2-03: 3 rubles for 2 VP; M2-05: 1 ruble each kept
            dr[s] -= ev["rubles"]
            dv[s] += ev.get("vp", 0)
        elif t == "note":  # an expansion's log line, with what it gives (BQ-15, BQ-19)
            dr[s] += ev.get("gain_rubles", 0)
            dv[s] += ev.get("gain_vp", 0)
        elif t in MARKET_SCORE_EVENTS:
            dr[s] -= ev.get("rubles", 0)
            dv[s] += ev.get("vp", 0)
        elif t == "obstacle_blocked":  # M6-11
            dv[s] -= ev["vp"]
        elif t == "event" and ev["event"] == "sponsor":  # M4: 6 rubles to the seat, 2 to each other
            for x in range(n):
                dr[x] += 6 if x == s else 2
        elif t == "game_end":
            for f in ev["final"]:
                dv[f["seat"]] += f["aristocrats"] + f["rubles_vp"] + f["hand_penalty"] + f.get("assignment_vp", 0)
                dr[f["seat"]] -= 10 * f["rubles_vp"]
    return dr, dv
