"""Module 5, the Assignments (M5-01 ... M5-19, P5-13/14; X-06 ... X-09; UI-13).
Each test names the item it checks. Hidden information and the computer players:
test_module5_hidden.py."""

from __future__ import annotations

from typing import Any

import pytest

from rules import Action, GameRecord, GameState, RuleError, Ruleset, apply, legal_moves, new_game, replay, view
from rules.__main__ import play_random
from rules.actions import format_action
from rules.autopass import default_action
from rules.describe import describe, headline
from rules.expansions.assignments import dealt, in_play, mstate, value
from rules.expansions.assistants import holders
from rules.expansions.market import positions
from rules.record import parse_for

from .helpers import module_game, module_rules, play, seats

BIG = [
    "Author", "Author", "Senator", "Judge",  # red: 4 (a red trading card among them)
    "Lumberjack", "Lumberjack", "Lumberjack", "Wharf",  # green: 4, 2 names
    "Customs House", "Firehouse", "Hermitage", "Bank", "Observatory",  # blue: 5 names, 2 trading
    "Chick", "Crate of Fish",  # yellow: 2
]  # fmt: skip


def ending_game(players: int = 4, given: dict[str, Any] | None = None, **kw: Any) -> GameState:
    """A game in its last trading phase with the end triggered: everyone passing ends it."""
    st = module_game(players, (5,), phase="trading", given=given, **kw)
    st.ending = True
    return st


def end(st: GameState) -> list[dict[str, Any]]:
    """Everyone passes: the round ends and the final scoring starts."""
    events: list[dict[str, Any]] = []
    for _ in range(st.n):
        events += apply(st, Action("pass"))
    return events


def choose(st: GameState, picks: dict[int, int]) -> list[dict[str, Any]]:
    """Each pending player chooses ``picks[seat]``, in the order the game asks them."""
    events: list[dict[str, Any]] = []
    while st.pending is not None and st.pending.kind == "assignment":
        events += play(st, f"assignment {picks[st.pending.seat]}")
    return events


def test_M5_01_three_each_dealt_face_down_from_the_seed() -> None:
    for players in (2, 3, 4, 5):
        for seed in range(10):
            st = new_game(module_rules(players, (5,)), seats(players), seed=seed)
            hands = mstate(st)["dealt"]
            flat = [a for h in hands for a in h]
            assert all(len(h) == 3 for h in hands) and len(set(flat)) == 3 * players
            assert set(flat) <= set(in_play(players))
            assert mstate(st)["chosen"] == [0] * players
    assert in_play(5) == tuple(range(1, 16))
    assert set(flat) == set(range(1, 16))  # P5-13: five players get all fifteen
    assert in_play(2) == (1, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14)  # without 2, 8 and 15
    rs = module_rules(3, (5,))
    assert new_game(rs, seats(3), seed=4).ext == new_game(rs, seats(3), seed=4).ext


def test_M5_01_X_02_module_5_needs_the_market() -> None:
    with pytest.raises(ValueError, match="needs the Market"):
        Ruleset(edition=2, players=3, modules=(5,))


def values(st: GameState, seat: int = 0) -> dict[int, int]:
    return {a: value(st, seat, a) for a in range(1, 16)}


def test_M5_03_to_M5_17_each_assignment_scores_the_tableau() -> None:
    st = module_game(4, (5,), tableaux={0: BIG, 1: ["Author"]}, rubles=20)
    st.rubles[0] = 30
    pos = positions(st, 0)
    chips = sorted((p for p in pos.values() if p), reverse=True)
    assert values(st) == {
        1: 2 * 4,  # M5-03: red cards, red trading cards included
        2: 10 + 4,  # M5-04
        3: 2 * len(chips) + chips[0],  # M5-05
        4: chips[0] + chips[1],  # M5-06
        5: 3 * 2,  # M5-07: Customs House, Firehouse (no Market)
        6: 20,  # M5-08: he has the most rubles
        7: 3 * 2,  # M5-09: Lumberjack, Wharf
        8: 2 * 3,  # M5-10: second Author, second and third Lumberjack
        9: 2 * 4,  # M5-11: Senator, Wharf, Hermitage, Bank
        10: 4 * 2,  # M5-12: Senator or Judge, 2 VP printed
        11: 3 * 4,  # M5-12: Hermitage
        12: 5 + 15 // 2,  # M5-13: 15 tableau cards, 4 players
        13: 2 * 2,  # M5-14: Chick and the crate (AMB-26)
        14: 2 * 5,  # M5-15: different blue cards (the Observatory among them)
        15: 2 * (4 + 1),  # M5-16: blue trading cards only: Hermitage, Bank
    }
    assert values(st, 1)[10] == 0 and values(st, 1)[11] == 0 and values(st, 1)[4] == 0 and values(st, 1)[3] == 0


def test_M5_05_M5_06_chips_and_positions_in_full() -> None:
    """AMB-05: a position above 10 counts in full; with one chip A4 is that chip."""
    fish = ["Crate of Fish", "Fish Basket", "Fish Basket", "Caviar", "Fish", "Fish", "Fish"]
    st = module_game(3, (5,), tableaux={0: fish, 2: [*["Chick"] * 2, "Bank"]})
    assert positions(st, 0)["fish"] == 14
    assert value(st, 0, 3) == 2 * 1 + 14 and value(st, 0, 4) == 14
    assert value(st, 2, 3) == 2 * 2 + 2 and value(st, 2, 4) == 2 + 1
    assert value(st, 1, 3) == 0 and value(st, 1, 4) == 0


def test_M5_05_market_card_counts_for_A5() -> None:
    st = module_game(3, (5,), tableaux={0: ["Market", "Market", "Customs House", "Theater"]})
    assert value(st, 0, 5) == 9


def test_M5_08_A6_tie_counts_as_most_and_rubles_are_kept() -> None:
    st = ending_game(3, given={"assignments": [[6, 1, 2], [3, 4, 5], [7, 9, 10]]}, rubles=17,
                     tokens={"hammer": 0, "sack": 1, "cathedral": 2, "bust": 0, "hand": 1})
    st.rubles = [17, 17, 12]
    assert value(st, 0, 6) == 20 and value(st, 2, 6) == 10
    end(st)
    choose(st, {0: 6, 1: 3, 2: 7})
    assert st.finished and st.final is not None
    assert st.final[0]["assignment_vp"] == 20 and st.final[0]["rubles_vp"] == 1  # the rubles kept for step 3


def test_M5_08_M5_18_A6_first_then_the_others_before_rubles_and_hand() -> None:
    st = ending_game(4, given={"assignments": [[1, 2, 3], [4, 5, 9], [10, 11, 12], [6, 7, 8]]},
                     tableaux={0: ["Author"], 2: ["Judge"]}, hand=["Lumberjack"], rubles=23,
                     tokens={"hammer": 1, "sack": 0, "cathedral": 2, "bust": 3, "hand": 0})
    end(st)
    # the tokens passed at the end of the round: the Hammer holder of the next round asks first
    assert st.tokens["hammer"] == 2
    assert st.pending is not None and st.pending.kind == "assignment" and st.pending.seat == 2
    assert st.final is None and not st.finished  # chosen at the end, before the final scoring
    vp_before = list(st.vp)
    events = choose(st, {0: 1, 1: 9, 2: 12, 3: 6})
    scored = [e["seat"] for e in events if e["type"] == "assignment_scored"]
    assert scored == [3, 2, 0, 1]  # A6 first, then from the Hammer holder on
    assert st.finished and st.final is not None
    assert [f["aristocrats"] for f in st.final] == [1, 0, 1, 0]
    assert [st.vp[s] - vp_before[s] for s in range(4)] == [f["aristocrats"] + f["assignment_vp"] + f["rubles_vp"]
                                                          + f["hand_penalty"] for f in st.final]
    final_events = [e["type"] for e in events if e["type"] != "assignment_chosen"]
    assert final_events == ["assignment_scored"] * 4 + ["game_end"]
    f0 = st.final[0]
    assert list(f0) == ["seat", "aristocrats", "assignment", "assignment_vp", "rubles_vp", "hand_penalty", "vp",
                        "rubles_left"]
    assert f0["assignment"] == 1 and f0["assignment_vp"] == 2 and f0["hand_penalty"] == -5
    assert st.vp_by_source[0]["assignment"] == 2 and st.vp[0] == sum(st.vp_by_source[0].values())
    assert st.final[3]["assignment_vp"] == 20 and st.stats[3]["assignment_vp"] == 20


def test_M5_02_X_07_one_of_his_three_and_the_default_is_the_best() -> None:
    st = ending_game(3, given={"assignments": [[1, 2, 12], [3, 4, 5], [7, 9, 10]]}, tableaux={0: BIG[:8]})
    end(st)
    assert st.pending is not None and st.pending.seat == st.tokens["hammer"]
    while st.pending.seat != 0:
        apply(st, default_action(st))
    assert [m.action for m in legal_moves(st)] == [Action("assignment", amount=a) for a in (1, 2, 12)]
    assert all(m.price == 0 for m in legal_moves(st))
    assert {a: value(st, 0, a) for a in (1, 2, 12)} == {1: 8, 2: 14, 12: 5 + 8 // 3}
    assert default_action(st) == Action("assignment", amount=2)
    for bad, code in [(Action("assignment", amount=3), "not_your_assignment"), (Action("pass"), "wrong_decision"),
                      (Action("assignment", "author", amount=1), "wrong_decision")]:
        with pytest.raises(RuleError) as err:
            apply(st, bad)
        assert err.value.code == code
    apply(st, Action("assignment", amount=12))
    while not st.finished:
        apply(st, default_action(st))
    assert st.final is not None and st.final[0]["assignment"] == 12 and st.final[0]["assignment_vp"] == 7


def test_M5_13_P5_14_assignment_12_by_player_count() -> None:
    for players, per in ((2, 4), (3, 3), (4, 2), (5, 2)):
        st = module_game(players, (5,), tableaux={0: BIG})
        assert value(st, 0, 12) == 5 + 15 // per, players


def test_M5_17_printed_vp_not_variable_vp() -> None:
    """AMB-18: A11 takes printed VP; the Mariinsky Theater's VP per red card are no printed VP."""
    st = module_game(3, (5,), tableaux={0: ["Mariinsky Theater", "Market", "Author", "Author"]})
    assert value(st, 0, 11) == 3 * 1 and value(st, 0, 15) == 0


def test_X_09_assignments_notation_and_log() -> None:
    st = ending_game(2, given={"assignments": {"0": [1, 3, 4], "1": [5, 6, 7]}})
    end(st)
    assert st.pending is not None
    seat = st.pending.seat
    text = format_action(legal_moves(st)[0].action, st.ruleset.catalogue)
    assert text == f"assignment {dealt(st, seat)[0]}"
    assert parse_for(st, text) == legal_moves(st)[0].action
    assert parse_for(st, "assignment A5") == Action("assignment", amount=5)
    with pytest.raises(RuleError, match="assignment 6"):
        parse_for(st, "assignment five")
    events = apply(st, legal_moves(st)[0].action)
    assert events == [{"type": "assignment_chosen", "seat": seat}]  # which one: not before the end (M5-19)
    assert headline(events, st.seats, 2) == f"P{seat} has chosen an assignment."
    assert describe(events[0], st.seats, 2, "de") == f"P{seat} hat einen Auftrag gewählt."
    events = apply(st, legal_moves(st)[-1].action)
    lines = [describe(e, st.seats, 2) or "" for e in events if e["type"] == "assignment_scored"]
    assert len(lines) == 2 and all("scores Assignment" in line for line in lines)
    de = [describe(e, st.seats, 2, "de") or "" for e in events if e["type"] == "assignment_scored"]
    assert all("erhält für Auftrag" in line for line in de)


def test_X_09_assignments_from_the_record_and_replayed() -> None:
    rs = module_rules(3, (3, 5))
    given = {"0": [1, 2, 3], "1": [4, 5, 6], "2": [13, 14, 15]}
    rec = GameRecord(rs, seats(3), seed=5, fields={"assignments": given})
    st = rec.start()
    assert mstate(st)["dealt"] == [[1, 2, 3], [4, 5, 6], [13, 14, 15]]
    back = GameRecord.loads(rec.dumps())
    assert back.to_json()["assignments"] == [[1, 2, 3], [4, 5, 6], [13, 14, 15]]
    assert back.start().to_json() == st.to_json()
    for bad, message in [
        ({"0": [1, 2, 3], "1": [4, 5, 6]}, "three assignments"),
        ({"0": [1, 2, 3], "1": [3, 5, 6], "2": [7, 8, 9]}, "dealt twice"),
        ({"0": [1, 2], "1": [4, 5, 6], "2": [7, 8, 9]}, "three assignments"),
    ]:
        with pytest.raises(ValueError, match=message):
            GameRecord(rs, seats(3), seed=5, fields={"assignments": bad}).start()
    with pytest.raises(ValueError, match="not in a 2-player game"):
        GameRecord(module_rules(2, (5,)), seats(2), seed=5, fields={"assignments": [[1, 2, 3], [4, 5, 6]]}).start()
    for bad_json in ({"x": [1, 2, 3]}, [[1, "2", 3]], {"1": [1, 2, 3]}):
        with pytest.raises(ValueError, match="assignments"):
            GameRecord.from_json({**rec.to_json(), "assignments": bad_json})
    assert replay(back).to_json() == st.to_json()


def test_UI_13_M5_19_the_owner_sees_what_each_would_score_now() -> None:
    st = module_game(3, (5,), tableaux={0: BIG}, given={"assignments": [[1, 6, 12], [2, 3, 4], [5, 7, 8]]})
    mine = view(st, 0)["players"][0]
    assert mine["assignments"] == [{"id": 1, "vp": 8}, {"id": 6, "vp": 20}, {"id": 12, "vp": 10}]
    assert mine["assignment_count"] == 3 and mine["assignment_chosen"] is None
    for seat in (1, 2, None):
        other = view(st, seat)["players"][0]
        assert other["assignments"] is None and other["assignment_count"] == 3
    hidden = module_game(3, (5,), tableaux={0: BIG}, open_money=False,
                         given={"assignments": [[1, 6, 12], [2, 3, 4], [5, 7, 8]]})
    # with hidden money the second 10 VP of A6 would tell who has the most: left open
    assert view(hidden, 0)["players"][0]["assignments"][1] == {"id": 6, "vp": 10, "more": 10}


@pytest.mark.parametrize("players", [2, 5])
def test_X_09_a_seeded_game_with_modules_3_and_5_replays_exactly(players: int) -> None:
    """A whole seeded game with the Market and Modules 3 and 5 (random legal moves, the final choices
    included) replays from its record to the same state; so does the record that gives the seed's
    assistants and assignments explicitly (M3-09, X-09), and its JSON text."""
    rs = module_rules(players, (3, 5))
    rec, st = play_random(rs, seed=31 + players)
    assert st.finished and any(a.startswith("assignment ") for a in rec.actions)
    assert replay(rec).to_json() == st.to_json()
    explicit = GameRecord(rs, rec.seats, seed=rec.seed, actions=rec.actions, fields={
        "assistants": holders(new_game(rs, rec.seats, seed=rec.seed)),
        "assignments": {str(s): ids for s, ids in enumerate(st.ext["module5"]["dealt"])},
    })
    assert replay(GameRecord.loads(explicit.dumps())).to_json() == st.to_json()


def test_M5_17_a_card_covered_by_the_Money_Collector_has_no_printed_VP() -> None:
    """AMB-18, BQ-12: with Module 1, the covered card counts as a card (A1, A12) but gives A10, A11
    and A15 no VP."""
    st = module_game(3, (1, 5), tableaux={0: ["Judge", "Author", "Hermitage", "Library"]})
    before = values(st)
    assert (before[10], before[11], before[15]) == (8, 15, 8)
    for name, gone in (("Judge", {10: 0}), ("Hermitage", {11: 15, 15: 0}), ("Library", {11: 12})):
        st.ext["banquet"]["chip"] = [next(c for c in st.tableaux[0] if st.cards[c].name_en == name), 0]
        now = values(st)
        assert {a: now[a] for a in gone} == gone, name
        assert now[1] == before[1] and now[12] == before[12]
