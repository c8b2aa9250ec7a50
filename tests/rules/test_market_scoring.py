"""The Market's scoring, crates and "?" goods (MK-25 ... MK-46, X-07), with the
rulebook's marketplace examples (seed 001 p. 17-18). Each test names the item it checks."""

from __future__ import annotations

import pytest

from rules import Action, RuleError, legal_moves, view
from rules.autopass import default_action
from rules.expansions.market import marketplace_step
from rules.record import parse_for

from .helpers import market_game, play, pos, take_roundel

GOODS = ["chicken", "grain", "apple", "fish", "cabbage"]


def market_vp(st_vp_by_source: list[dict[str, int]]) -> list[int]:
    return [d.get("market", 0) for d in st_vp_by_source]


def test_MK_44_rulebook_example_tile_3_1() -> None:
    """seed 001 p. 18 / 004: Yellow (Holger) 3 chickens, Blue (Chiye) and Red 2 each; Red alone in
    grain; Green (Giuliano) apple; Black fish; cabbage Blue 1st, Black 2nd, Red 3rd."""
    yellow, red, blue, green, black = range(5)
    st = market_game(
        players=5,
        round_=3,
        tableaux={
            yellow: ["Chicken Coop"],
            red: ["Hen", "Ear of Wheat", "Cabbage"],
            blue: ["Hen", "Vegetable Garden"],
            green: ["Apple"],
            black: ["Fish", "Vegetable Basket"],
        },
    )
    play(st, *["pass"] * 5)
    assert market_vp(st.vp_by_source) == [3, 4, 4, 3, 4]  # "Rot, Blau und Schwarz 4 ... Gelb und Grün 3"
    assert st.rubles[red] == 25 + 1 + 2 + 2  # MK-38 step 1: the market cards' income


def test_MK_27_MK_28_marketplace_pays_only_at_scoring_and_markers_stay() -> None:
    st = market_game(players=2, upper=["Grain Sack"], phase="workers")
    play(st, "buy Grain Sack")  # seed 001: "kauft zum Beispiel den Getreidesack für 4 Rubel"
    assert pos(st, 0, "grain") == 2 and st.vp[0] == 0
    play(st, "pass", "pass")  # workers scored; market phase begins
    play(st, "pass", "pass")
    assert market_vp(st.vp_by_source)[0] == 2  # round 2 tile 2/1, alone: first
    assert pos(st, 0, "grain") == 2


def test_MK_40_MK_43_alone_is_first_and_there_is_no_second() -> None:
    st = market_game(players=3, round_=1, tableaux={0: ["Fish"], 1: [], 2: []})
    marketplace_step(st, [])
    assert st.vp == [1, 0, 0]


def test_MK_41_AMB_07_three_tied_for_first_all_high_no_second() -> None:
    st = market_game(players=4, round_=4, tableaux={0: ["Fish"], 1: ["Fish"], 2: ["Fish"], 3: ["Apple"]})
    marketplace_step(st, [])
    assert st.vp == [4, 4, 4, 4]
    st = market_game(players=4, round_=4, tableaux={0: ["Fish Basket"], 1: ["Fish Basket"], 2: ["Fish"]})
    marketplace_step(st, [])
    assert st.vp == [4, 4, 0, 0]  # no second place after a tie for first


def test_MK_42_tie_for_second_all_low() -> None:
    st = market_game(players=4, round_=5, tableaux={0: ["Caviar"], 1: ["Cabbage"], 2: ["Apple", "Fish"], 3: ["Fish"]})
    marketplace_step(st, [])
    assert st.vp == [5 + 0, 5, 5 + 2, 2]


def test_MK_45_first_round_uses_the_lowest_tile() -> None:
    st = market_game(players=2, round_=1, tableaux={0: ["Hen"], 1: ["Chick"]})
    marketplace_step(st, [])
    assert st.vp == [1, 0]


def test_MK_25_question_mark_good_chosen_when_placed_exclusive() -> None:
    st = market_game(players=2, phase="workers", rubles=30)
    czar = take_roundel(st, "Czar and Carpenter", "?")
    ship = take_roundel(st, "Ship Builder", "?")
    st.upper = [czar, ship]
    play(st, "buy Czar and Carpenter")
    assert st.pending is not None and st.pending.kind == "good" and st.decider == 0
    assert [m.action for m in legal_moves(st)] == [Action("as", g) for g in GOODS]
    play(st, "as fish")
    assert pos(st, 0, "fish") == 1 and st.to_move == 1
    play(st, "buy Ship Builder [?]")
    assert Action("as", "fish") not in [m.action for m in legal_moves(st)]
    with pytest.raises(RuleError) as e:
        play(st, "as fish")
    assert e.value.code == "good_taken"
    play(st, "as apple")
    assert view(st, 0)["market"]["tokens"] == {
        "fish": {"card": "czar_and_carpenter", "seat": 0},
        "apple": {"card": "ship_builder", "seat": 1},
    }


def test_MK_26_displaced_question_mark_card_returns_its_token() -> None:
    st = market_game(players=2, phase="trading", hand=["Wharf"], rubles=40)
    ship = take_roundel(st, "Ship Builder", "?")
    st.tableaux[0] = [ship]
    st.ext["market"]["goods"] = {"cabbage": ship}
    assert pos(st, 0, "cabbage") == 1
    events = play(st, "play Wharf over Ship Builder [?]")
    assert st.ext["market"]["goods"] == {} and pos(st, 0, "cabbage") == 0
    assert {"type": "good_returned", "seat": 0, "good": "cabbage"} in events


def test_MK_33_MK_34_crates_confirmed_from_the_sack_holder_after_income() -> None:
    st = market_game(players=3, round_=3, tableaux={0: ["Crate of Fish"], 1: ["Crate of Apples", "Chick"], 2: []})
    st.tokens["sack"] = 1
    events = play(st, "pass", "pass", "pass")
    assert [e["type"] for e in events if e["type"] == "score"] == ["score"] * 3  # income first
    assert st.rubles[1] == 27 and st.pending is not None and st.pending.kind == "crate" and st.decider == 1
    assert [(m.action, m.price) for m in legal_moves(st)] == [
        (Action("confirm", "crate_apple"), 3),
        (Action("release", "crate_apple"), 0),
    ]
    play(st, "confirm Crate of Apples")
    assert st.rubles[1] == 24 and st.stats[1]["crates_paid"] == 3
    assert st.decider == 0
    play(st, "confirm Crate of Fish")
    assert market_vp(st.vp_by_source) == [3, 6, 0]  # seat 1: apple and chicken
    assert pos(st, 0, "fish") == 4  # MK-34: it stays


def test_MK_35_released_crate_goes_to_the_box_before_the_marketplace() -> None:
    st = market_game(players=2, round_=3, tableaux={0: ["Crate of Fish"], 1: ["Fish Basket"]})
    play(st, "pass", "pass", "release Crate of Fish")
    crate = st.ext["market"]["box"][0]
    assert st.cards[crate].id == "crate_fish" and crate not in st.discard
    assert pos(st, 0, "fish") == 0
    assert market_vp(st.vp_by_source) == [0, 3]


def test_MK_36_crate_released_without_asking_when_unaffordable() -> None:
    st = market_game(players=2, round_=6, rubles=5, tableaux={0: ["Crate of Fish"], 1: []})
    events = play(st, "pass", "pass")
    assert st.pending is None and {"type": "crate_released", "seat": 0, "card": "crate_fish"} in events


def test_MK_37_crate_in_hand_needs_no_confirmation() -> None:
    st = market_game(players=2, hand=["Crate of Fish"])
    play(st, "pass", "pass")
    assert st.pending is None and st.ext["market"]["box"] == []


def test_MK_38_MK_39_income_only_from_yellow_cards() -> None:
    st = market_game(players=2, tableaux={0: ["Chick", "Hen", "Field", "Ship Builder", "Market"]})
    events = play(st, "pass", "pass")
    income = [e for e in events if e["type"] == "score"]
    assert income[0]["phase"] == "market" and {e["seat"]: e["rubles"] for e in income}[0] == 3
    assert st.stats[0]["market_rubles"] == 3


def test_MK_46_statistics_and_vp_source() -> None:
    st = market_game(players=2, round_=2, tableaux={0: ["Chick"], 1: []})
    play(st, "pass", "pass")
    assert st.vp_by_source[0]["market"] == 2 and st.stats[0]["marketplace_vp"] == 2


def test_MK_50_X_07_notation_and_defaults_of_the_new_decisions() -> None:
    st = market_game(players=2, phase="workers")
    st.upper = [take_roundel(st, "Ship Builder", "?")]
    play(st, "buy Ship Builder [?]")
    assert parse_for(st, "as Fish") == Action("as", "fish")
    assert default_action(st) == Action("as", "chicken")  # the first free good
    st.ext["market"]["goods"] = {"chicken": -5}
    assert default_action(st) == Action("as", "grain")
    st = market_game(players=2, tableaux={0: ["Crate of Cabbages"]})
    play(st, "pass", "pass")
    assert parse_for(st, "release crate of cabbages") == Action("release", "crate_cabbage")
    assert default_action(st) == Action("release", "crate_cabbage")


def test_X_08_view_names_the_card_of_a_market_decision() -> None:
    st = market_game(players=2, round_=4, tableaux={0: ["Crate of Grain"], 1: []})
    play(st, "pass", "pass")
    for seat in (None, 0, 1):
        assert view(st, seat)["pending"] == {"kind": "crate", "seat": 0, "card": "crate_grain", "cost": 4}
    assert [m["text"] for m in view(st, 0)["moves"]] == ["confirm Crate of Grain", "release Crate of Grain"]
