"""Module 6, the Obstacles (M6-01 ... M6-21, X-04, X-06, X-07, X-09, AMB-25, UI-16,
UI-17, UI-24, UI-26). Each test names the item it checks."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules import Action, GameRecord, GameState, RuleError, Ruleset, apply, legal_moves, new_game, replay, view
from rules.actions import format_action
from rules.autopass import default_action
from rules.describe import describe_all
from rules.expansions.module6 import m6, status
from rules.record import parse_for
from rules.scoring import gain_vp

from .helpers import LAYOUT, mod_game, mod_rules, play


def gain(st: GameState, seat: int, vp: int, source: str = "test") -> tuple[int, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    credited = gain_vp(st, seat, vp, source, events)
    return credited, events


# --- setup ---------------------------------------------------------------------------------------------
def test_M6_01_two_real_at_20_and_35_three_bonus_at_10_50_70() -> None:
    seen: Counter[str] = Counter()
    for seed in range(40):
        st = new_game(mod_rules(), ["A", "B"], seed=seed)
        obs = {int(f): o for f, o in m6(st)["obstacles"].items()}
        assert sorted(obs) == [10, 20, 35, 50, 70]
        assert obs[20].startswith("real_") and obs[35].startswith("real_")
        assert all(obs[f].startswith("bonus_") for f in (10, 50, 70))
        assert len(set(obs.values())) == 5
        seen.update(obs.values())
    assert len(seen) == 10  # every obstacle turns up somewhere


def test_X_02_module_6_needs_the_market_and_the_2nd_edition() -> None:
    with pytest.raises(ValueError, match="needs the Market"):
        Ruleset(edition=2, modules=(6,))
    with pytest.raises(ValueError, match="2nd edition only"):
        Ruleset(edition=1, expansions=(), modules=(6,))
    for players in (2, 3, 4, 5):
        assert mod_rules((6,), players).players == players


def test_M6_02_X_09_UI_24_obstacles_given_in_the_record_any_mix_on_the_five_fields() -> None:
    layout = {"10": "real_trading", "20": "real_market", "35": "bonus_card", "50": "real_workers",
              "70": "real_buildings"}
    rec = GameRecord.from_json({"format": "petersburg-record/1", "ruleset": mod_rules().to_json(), "seats": ["A", "B"],
                                "seed": 3, "obstacles": layout, "actions": []})
    st = rec.start()
    assert m6(st)["obstacles"] == layout
    assert rec.to_json()["obstacles"] == {10: "real_trading", 20: "real_market", 35: "bonus_card",
                                          50: "real_workers", 70: "real_buildings"}
    for bad in ({"10": "real_trading"}, {**layout, "70": "real_trading"}, {**layout, "70": "nonsense"}, [1]):
        with pytest.raises(ValueError, match="obstacles"):
            GameRecord.from_json({"format": "petersburg-record/1", "ruleset": mod_rules().to_json(),
                                  "seats": ["A", "B"], "seed": 3, "obstacles": bad, "actions": []})


# --- bonus obstacles -------------------------------------------------------------------------------------
def test_M6_03_M6_04_a_bonus_pays_on_reaching_or_passing_its_field_once_per_player() -> None:
    st = mod_game(tableaux={0: ["Author", "Administrator", "Senator"]}, vp=[8, 0])
    credited, events = gain(st, 0, 3)
    assert credited == 3
    assert st.vp[0] == 11 + 3  # 1 VP per red card (Senator, a red trading card, counts: M6-04)
    assert events[0] == {"type": "obstacle_passed", "seat": 0, "field": 10, "obstacle": "bonus_aristocrats",
                         "rubles": 0, "vp": 3}
    st.vp[0] = 5  # dropping below (the hand penalty) and coming back: no second bonus (AMB-25b)
    gain(st, 0, 6)
    assert st.vp[0] == 11
    st2 = mod_game(tableaux={0: ["Author"]}, vp=[9, 0])
    gain(st2, 0, 1)  # reaching the field exactly
    assert st2.vp[0] == 11


def test_M6_05_bonus_buildings_one_ruble_per_blue_card() -> None:
    st = mod_game(tableaux={0: ["Library", "Market", "Bank", "Author"]}, vp=[9, 0],
                  obstacles={**LAYOUT, 10: "bonus_buildings", 50: "bonus_aristocrats"})
    gain(st, 0, 2)
    assert (st.vp[0], st.rubles[0]) == (11, 25 + 3)


def test_M6_07_bonus_trading_cards_one_ruble_and_one_vp_each() -> None:
    st = mod_game(tableaux={0: ["Wharf", "Bank", "Senator", "Author"]}, vp=[9, 0],
                  obstacles={**LAYOUT, 10: "bonus_trading", 70: "bonus_aristocrats"})
    gain(st, 0, 1)
    assert (st.vp[0], st.rubles[0]) == (13, 28)


def test_M6_06_X_07_bonus_marketplace_rubles_or_vp_per_chip_is_a_decision() -> None:
    st = mod_game(tableaux={0: ["Hen", "Fish", "Market"]}, vp=[9, 0],
                  obstacles={**LAYOUT, 10: "bonus_marketplace", 50: "bonus_aristocrats"})
    chips = 2  # chicken (Hen) and fish (Fish); the Market card's roundel is a third good
    market_good = st.ruleset.catalogue.markets[st.tableaux[0][2]]
    chips += market_good not in ("chicken", "fish")
    credited, events = gain(st, 0, 1)
    assert credited == 1 and m6(st)["queue"] == [[0, 10]]
    # the choice opens before the game waits for anyone (Hooks.interrupts): here after the next action
    play(st, "pass")
    assert st.pending is not None and st.pending.kind == "bonus" and st.pending.seat == 0
    moves = [format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st)]
    assert moves == ["bonus rubles", "bonus vp"]
    assert default_action(st) == Action("bonus", "vp")  # M6-18: the most VP
    ev = play(st, "bonus rubles")
    assert st.rubles[0] == 25 + chips and st.vp[0] == 10
    assert ev[0]["type"] == "bonus_chosen"
    assert st.pending is None and st.to_move == 1  # the game goes on where it was


def test_M6_08_bonus_card_rubles_or_vp_of_one_card_never_mixed() -> None:
    st = mod_game(tableaux={0: ["Mistress of Ceremonies", "Library"]}, vp=[9, 0],
                  obstacles={**LAYOUT, 10: "bonus_card", 50: "bonus_aristocrats"})
    gain(st, 0, 1)
    play(st, "pass")
    texts = sorted(format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st))
    assert texts == ["bonus rubles Mistress of Ceremonies", "bonus vp Library", "bonus vp Mistress of Ceremonies"]
    assert default_action(st) == parse_for(st, "bonus vp Library")  # 5 VP, the most
    play(st, "bonus rubles Mistress of Ceremonies")
    assert (st.rubles[0], st.vp[0]) == (31, 10)
    with pytest.raises(RuleError):  # nothing left to choose
        apply(st, parse_for(st, "bonus vp Library"), 0)


# --- real obstacles ------------------------------------------------------------------------------------
def test_M6_09_M6_11_not_met_the_marker_stops_before_it_and_the_rest_is_lost() -> None:
    st = mod_game(tableaux={0: ["Lumberjack", "Gold Miner"]}, vp=[17, 0])  # real_workers at 20 needs 4
    credited, events = gain(st, 0, 5)
    assert credited == 2 and st.vp[0] == 19
    assert events == [{"type": "obstacle_blocked", "seat": 0, "field": 20, "obstacle": "real_workers", "vp": 3}]
    assert st.stats[0]["vp_lost"] == 3 and m6(st)["lost"][0] == 3
    credited, _ = gain(st, 0, 4)  # still not met: everything is lost
    assert credited == 0 and st.vp[0] == 19 and m6(st)["lost"][0] == 7
    assert status(st, 0, 20, "real_workers") == "blocked"


def test_M6_09_the_check_happens_on_reaching_the_field_before_it() -> None:
    st = mod_game(tableaux={0: ["Lumberjack"]}, vp=[15, 0])
    credited, events = gain(st, 0, 4)  # exactly onto 19: checked, not met, nothing lost
    assert credited == 4 and events[0]["vp"] == 0
    assert describe_all(events, st.seats, 2) == ["P0 reaches the obstacle at 20 (Workers) without meeting it."]


def test_M6_10_M6_11_met_later_the_whole_next_gain_counts_from_the_field_before_it() -> None:
    st = mod_game(tableaux={0: ["Lumberjack", "Gold Miner", "Shepherd"]}, vp=[19, 0])
    gain(st, 0, 3)
    assert st.vp[0] == 19
    st.tableaux[0].append(st.decks["workers"].pop(next(i for i, c in enumerate(st.decks["workers"])
                                                       if st.cards[c].id == "fur_trapper")))
    assert status(st, 0, 20, "real_workers") == "blocked"  # reached; met now, passed at the next gain
    credited, events = gain(st, 0, 3)
    assert credited == 3 and st.vp[0] == 22
    assert events[0]["type"] == "obstacle_passed" and events[0]["vp"] == events[0]["rubles"] == 0  # M6-12: no bonus
    assert status(st, 0, 20, "real_workers") == "passed"


def test_M6_12_workers_count_different_green_cards() -> None:
    st = mod_game(tableaux={0: ["Lumberjack", "Lumberjack", "Gold Miner", "Wharf"]}, vp=[18, 0])
    gain(st, 0, 1)  # Lumberjack twice counts once; the Wharf is a different green card: 3 of 4
    assert st.vp[0] == 19 and status(st, 0, 20, "real_workers") == "blocked"
    v = view(st, 0)["module6"]["obstacles"][1]["players"][0]
    assert v["progress"] == [{"what": "distinct_green", "have": 3, "need": 4}] and v["text"] == "3/4"
    assert v["symbol"] == "∅"


def test_M6_13_market_chips_and_a_position_bonus_vp_per_chip_and_the_highest_position_in_rubles() -> None:
    layout = {**LAYOUT, 20: "real_market"}
    st = mod_game(tableaux={0: ["Hen", "Hen", "Fish"]}, vp=[18, 0], obstacles=layout)
    # chicken 2 + 2 = 4, fish 1: 2 chips, one at 4; at 20 he needs 3 chips, one at 4
    gain(st, 0, 2)
    assert st.vp[0] == 19
    st.tableaux[0] += [c for c in st.decks["market"] if st.cards[c].id == "field"][:1]
    st.decks["market"] = [c for c in st.decks["market"] if c not in st.tableaux[0]]
    gain(st, 0, 2)
    assert st.vp[0] == 21 + 3 and st.rubles[0] == 25 + 4


def test_M6_14_buildings_bonus_rubles_per_blue_card_and_the_vp_of_one_of_his_choice() -> None:
    st = mod_game(tableaux={0: ["Library", "Market", "Bank"]}, vp=[33, 0])  # real_buildings at 35 needs 3
    gain(st, 0, 2)
    assert st.vp[0] == 35 and st.rubles[0] == 28
    play(st, "pass")
    texts = sorted(format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st))
    assert texts == ["bonus vp Bank", "bonus vp Library", "bonus vp Market"]
    play(st, "bonus vp Library")
    assert st.vp[0] == 40


def test_M6_15_aristocrats_bonus_vp_per_red_card_and_the_rubles_of_one() -> None:
    layout = {**LAYOUT, 20: "real_aristocrats"}
    st = mod_game(tableaux={0: ["Author", "Judge"]}, vp=[18, 0], obstacles=layout)
    gain(st, 0, 1)
    assert st.vp[0] == 19 + 2
    play(st, "pass")
    assert default_action(st) == parse_for(st, "bonus rubles Judge")
    play(st, "bonus rubles Judge")
    assert st.rubles[0] == 30


@pytest.mark.parametrize(("field", "cards", "ok"), [
    (10, ["Wharf"], True), (20, ["Wharf"], False), (35, ["Wharf", "Bank", "Senator"], True),
    (50, ["Wharf", "Bank", "Fur Shop", "Gold Smelter"], False), (50, ["Wharf", "Bank", "Senator"], True),
    (70, ["Wharf", "Bank", "Senator"], False),
])
def test_M6_16_trading_cards_and_one_of_each_colour_at_50(field: int, cards: list[str], ok: bool) -> None:
    others = [o for o in ("bonus_aristocrats", "bonus_card", "bonus_trading", "real_workers") if o]
    layout = dict(zip([f for f in (10, 20, 35, 50, 70) if f != field], others, strict=True))
    layout[field] = "real_trading"
    st = mod_game(tableaux={0: cards}, vp=[field - 2, 0], obstacles=layout)
    gain(st, 0, 3)
    assert (status(st, 0, field, "real_trading") == "passed") == ok
    if ok:
        assert st.vp[0] >= field + 1 + 2 * len(cards)


def test_M6_17_a_passed_obstacle_no_longer_applies() -> None:
    st = mod_game(tableaux={0: ["Lumberjack", "Gold Miner", "Shepherd", "Fur Trapper"]}, vp=[18, 0])
    gain(st, 0, 3)
    assert status(st, 0, 20, "real_workers") == "passed"
    st.tableaux[0] = st.tableaux[0][:1]  # (displaced cards, a penalty) ... he drops below
    st.vp[0] = 14
    credited, _ = gain(st, 0, 10)
    assert credited == 10 and st.vp[0] == 24


# --- every VP gain, chains, final scoring ---------------------------------------------------------------
def test_M6_19_a_bonus_that_carries_past_another_obstacle_triggers_it_too() -> None:
    layout = {10: "bonus_trading", 20: "real_trading", 35: "real_buildings", 50: "bonus_card", 70: "bonus_aristocrats"}
    cards = ["Wharf", "Bank", "Senator", "Fur Shop", "Weaving Mill", "Gold Smelter", "Library"]
    st = mod_game(tableaux={0: cards}, vp=[9, 0], obstacles=layout)
    _, events = gain(st, 0, 1)  # 10: +6 VP (16), +6 rubles
    assert st.vp[0] == 16
    # 24 passes 19: real_trading met (6 >= 2): +12 VP -> 36 reaches 34, where 3 blue cards are needed
    _, events = gain(st, 0, 8)
    kinds = [(e["type"], e["field"], e["vp"]) for e in events]
    assert kinds == [("obstacle_passed", 20, 12), ("obstacle_blocked", 35, 2)]
    assert st.vp[0] == 34


def test_M6_19_the_pub_and_the_marketplace_pass_the_obstacles() -> None:
    st = mod_game(tableaux={0: ["Pub"]}, vp=[17, 0], phase="buildings", upper=("Author",))
    play(st, "pass", "pass")
    assert st.pending is not None and st.pending.kind == "pub"
    events = play(st, "pub 5")
    assert st.vp[0] == 19 and any(e["type"] == "obstacle_blocked" and e["vp"] == 3 for e in events)
    assert st.rubles[0] == 15  # the VP were bought and lost (AMB-25d)


def test_M6_20_one_scoring_is_one_move() -> None:
    st = mod_game(tableaux={0: ["Library", "Theater", "Hospital"]}, vp=[10, 0], phase="buildings",
                  obstacles={**LAYOUT, 20: "real_aristocrats", 35: "real_workers"})
    events = play(st, "pass", "pass")
    blocked = [e for e in events if e["type"] == "obstacle_blocked"]
    assert blocked == [{"type": "obstacle_blocked", "seat": 0, "field": 20, "obstacle": "real_aristocrats", "vp": 6}]


def test_M6_18_X_06_final_scoring_a_blocked_player_converts_no_rubles() -> None:
    st = mod_game(tableaux={0: ["Author"]}, vp=[19, 12], rubles=47, upper=("Author",))
    st.ending = True
    play(st, "pass", "pass")
    final = {f["seat"]: f for f in st.final or []}
    assert st.finished
    assert final[0]["rubles_vp"] == 0 and st.rubles[0] == 47 and st.vp[0] == 19  # aristocrat VP lost too
    assert final[0]["vp_lost"] == 1  # the aristocrat VP; the rubles are not converted, not lost
    assert final[1]["rubles_vp"] == 4 and st.rubles[1] == 7


def test_M6_18_converts_only_the_rubles_whose_vp_count() -> None:
    st = mod_game(tableaux={0: ["Lumberjack"]}, vp=[16, 12], rubles=50)
    st.ending = True
    play(st, "pass", "pass")
    final = {f["seat"]: f for f in st.final or []}
    assert final[0]["rubles_vp"] == 3 and st.rubles[0] == 20 and st.vp[0] == 19


def test_M6_18_UI_26_choices_in_the_final_scoring_take_the_best_rubles_when_blocked() -> None:
    layout = {10: "bonus_aristocrats", 20: "real_workers", 35: "real_buildings", 50: "bonus_card", 70: "bonus_trading"}
    st = mod_game(tableaux={0: ["Mistress of Ceremonies", "Library", "Lumberjack"]}, vp=[48, 12], rubles=5,
                  obstacles=layout)
    for f in (10, 20, 35):
        m6(st)["passed"][0].append(f)
    st.ending = True
    play(st, "pass", "pass")
    # aristocrats: 1 distinct -> 1 VP: 49. No. 48 + 1 = 49 < 50: the Card bonus is not reached ...
    assert st.finished and st.vp[0] == 49
    st = mod_game(tableaux={0: ["Mistress of Ceremonies", "Library", "Author"]}, vp=[48, 12], rubles=5,
                  obstacles=layout)
    for f in (10, 20, 35):
        m6(st)["passed"][0].append(f)
    st.ending = True
    events = play(st, "pass", "pass")
    chosen = [e for e in events if e["type"] == "bonus_chosen"]
    assert chosen == [{"type": "bonus_chosen", "seat": 0, "field": 50, "obstacle": "bonus_card", "rubles": 0,
                       "vp": 5, "card": "library"}]
    assert st.vp[0] == 48 + 3 + 5


def test_X_07_a_bonus_choice_interrupts_a_pending_decision_and_gives_it_back() -> None:
    st = mod_game(tableaux={0: ["Library", "Pub", "Author"], 1: ["Pub"]}, vp=[5, 0], phase="buildings",
                  obstacles={**LAYOUT, 10: "bonus_card", 50: "bonus_aristocrats"})
    play(st, "pass", "pass")
    assert st.pending is not None and st.pending.kind == "bonus"  # 5 + 5: the Card bonus
    assert {m.action for m in legal_moves(st)} == {parse_for(st, "bonus rubles Author"),
                                                   parse_for(st, "bonus vp Library")}
    play(st, "bonus vp Library")
    assert st.vp[0] == 15
    assert st.pending is not None and st.pending.kind == "pub" and st.pending.seat == 0


def test_M6_21_UI_16_UI_17_view_status_and_progress_per_player() -> None:
    st = mod_game(tableaux={0: ["Library", "Market"], 1: ["Lumberjack", "Gold Miner", "Shepherd", "Fur Trapper"]},
                  vp=[19, 5])
    v = view(st, None)["module6"]["obstacles"]
    assert [(o["field"], o["id"], o["real"]) for o in v] == [(f, o, o.startswith("real")) for f, o in LAYOUT.items()]
    workers = v[1]["players"]
    assert [p["status"] for p in workers] == ["blocked", "met"]
    assert [p["symbol"] for p in workers] == ["∅", ">"]
    assert workers[1]["text"] == "4/4"
    assert v[2]["players"][0]["text"] == "2/3" and v[2]["players"][0]["status"] == "open"
    assert v[0]["players"][0]["status"] == "passed" and v[0]["players"][1]["status"] == "open"
    gain(st, 1, 9)
    v = view(st, None)["module6"]["obstacles"]
    assert v[0]["players"][1]["status"] == "passed" and v[0]["players"][1]["received"] == {"rubles": 0, "vp": 0}
    assert v[1]["players"][1]["symbol"] == ">"  # met, not reached (14)
    gain(st, 1, 6)
    assert view(st, None)["module6"]["obstacles"][1]["players"][1]["symbol"] == "+"


def test_X_09_a_seeded_game_with_obstacles_replays_exactly_from_its_record() -> None:
    rs = mod_rules((6,), 3)
    for seed in range(20):  # the first seeded game with a bonus decision in it
        st = new_game(rs, ["A", "B", "C"], seed=seed)
        rng = random.Random(seed)
        rec = GameRecord(rs, ["A", "B", "C"], seed=seed)
        while not st.finished:
            a = rng.choice(legal_moves(st)).action
            rec.actions.append(format_action(a, rs.catalogue))
            apply(st, a)
        if any(t.startswith("bonus") for t in rec.actions):
            break
    assert any(t.startswith("bonus") for t in rec.actions)
    again = replay(GameRecord.loads(rec.dumps()))
    assert again.to_json() == st.to_json()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_obstacle_events_read_in_both_languages(lang: str) -> None:
    st = new_game(mod_rules((6,), 4), list("ABCD"), seed=2)
    rng = random.Random(2)
    seen = set()
    while not st.finished:
        events = apply(st, rng.choice(legal_moves(st)).action)
        for line in describe_all(events, st.seats, 2, lang):
            assert "{" not in line and "log." not in line and "obstacle." not in line, line
        seen |= {e["type"] for e in events}
    assert {"obstacle_passed", "obstacle_blocked"} <= seen


def test_X_09_a_game_with_obstacles_given_in_its_record_replays_exactly() -> None:
    layout = {10: "real_workers", 20: "bonus_card", 35: "real_trading", 50: "bonus_marketplace", 70: "real_market"}
    rs = mod_rules((4, 6), 2)
    rec = GameRecord(rs, ["A", "B"], seed=8, fields={"obstacles": layout})
    st = rec.start()
    rng = random.Random(8)
    while not st.finished:
        a = rng.choice(legal_moves(st)).action
        rec.actions.append(format_action(a, rs.catalogue))
        apply(st, a)
    text = rec.dumps()
    assert '"obstacles": {' in text and '"10": "real_workers"' in text
    again = replay(GameRecord.loads(text))
    assert m6(again)["obstacles"] == {str(f): o for f, o in layout.items()}
    assert again.to_json() == st.to_json()
