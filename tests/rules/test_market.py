"""The Market and five players (MK, P5-01 ... P5-03): setup, flow, cards and notation.
Each test names the item it checks. Scoring, crates and "?" goods: test_market_scoring.py."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules import Action, GameRecord, RuleError, Ruleset, apply, catalogue, legal_moves, new_game, price, replay, view
from rules.actions import format_action
from rules.expansions.market import tile, tiles
from rules.record import parse_for

from .helpers import market_game, market_rules, play, pos, take_roundel


def test_MK_01_second_edition_only_and_base_game_untouched() -> None:
    with pytest.raises(ValueError, match="2nd edition only"):
        Ruleset(edition=1, expansions=("market",))
    assert len(catalogue(2).cards) == 116  # the base catalogue has no market cards
    assert "market" not in new_game(Ruleset(), list("ABCD"), seed=1).decks


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_MK_02_two_to_five_players(players: int) -> None:
    st = new_game(market_rules(players), [f"P{i}" for i in range(players)], seed=players)
    assert st.n == players


def test_MK_02_P5_02_five_players_need_the_market_and_six_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        Ruleset(edition=2, players=5)
    with pytest.raises(ValueError, match="2 to 5 players"):
        Ruleset(edition=2, players=6, expansions=("market",))


@pytest.mark.parametrize("module", [3, 5])
def test_MK_03_modules_3_and_5_need_the_market(module: int) -> None:
    with pytest.raises(ValueError, match="needs the Market"):
        Ruleset(edition=2, modules=(module,))
    with pytest.raises(ValueError, match="2nd edition only"):
        Ruleset(edition=1, modules=(module,))
    assert Ruleset(edition=2, expansions=("market",), modules=(module,)).modules == (module,)


def test_MK_04_MK_05_setup_stacks_tokens_rubles() -> None:
    st = new_game(market_rules(4), list("ABCD"), seed=7)
    assert list(st.decks) == ["workers", "market", "buildings", "aristocrats", "trading"]
    assert len(st.decks["market"]) == 35
    assert len(st.decks["workers"]) + len(st.upper) == 31
    assert sorted(st.tokens) == sorted(["hammer", "sack", "cathedral", "bust", "hand"])
    assert st.rubles == [25] * 4
    assert st.ext["market"] == {"tile": 0, "goods": {}, "box": []}


def test_MK_06_MK_07_MK_62_value_tiles_lowest_first() -> None:
    assert tiles() == [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)]
    st = new_game(market_rules(2), list("AB"), seed=1)
    assert tile(st) == (1, 0)


@pytest.mark.parametrize(("players", "shape"), [(5, [1, 1, 1, 1, 1]), (4, [1, 1, 1, 2]), (3, [1, 2, 2]), (2, [2, 3])])
def test_MK_08_MK_58_token_distribution(players: int, shape: list[int]) -> None:
    for seed in range(40):
        st = new_game(market_rules(players), [f"P{i}" for i in range(players)], seed=seed)
        counts = Counter(st.tokens.values())
        assert sorted(counts[s] for s in range(players)) == shape  # AMB-02: 2-2-1 with three


def test_MK_09_MK_10_market_phase_after_workers_with_the_sack() -> None:
    rs = market_rules(3)
    assert [(p.key, p.deck, p.token) for p in rs.phases][:3] == [
        ("workers", "workers", "hammer"),
        ("market", "market", "sack"),
        ("buildings", "buildings", "cathedral"),
    ]
    st = new_game(rs, list("ABC"), seed=3)
    while st.phase == 0:
        apply(st, legal_moves(st)[0].action)
    assert rs.phases[st.phase].key == "market"
    assert st.to_move == st.tokens["sack"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_MK_11_MK_12_MK_13_MK_58_first_workers_then_display_of_ten(players: int) -> None:
    st = new_game(market_rules(players), [f"P{i}" for i in range(players)], seed=11)
    assert len(st.upper) == 2 * players
    while st.phase == 0:  # all workers bought (mandatory first workers, MK-53)
        buys = [m for m in legal_moves(st) if m.action.kind == "buy"]
        apply(st, (buys or legal_moves(st))[0].action)
    assert len(st.upper) + len(st.lower) == 10
    assert {st.cards[c].deck for c in st.upper} <= {"market", "workers"}


def test_MK_14_market_cards_bought_in_any_phase() -> None:
    st = market_game(phase="aristocrats", upper=["Chick"])
    play(st, "buy Chick")
    assert pos(st, 0, "chicken") == 1


def test_MK_15_market_phase_ends_when_all_pass_then_scoring() -> None:
    st = market_game(players=3, tableaux={0: ["Chick"]})
    events = play(st, "pass", "pass", "pass")
    assert any(e["type"] == "marketplace" for e in events)
    assert st.ruleset.phases[st.phase].key == "buildings"


def test_MK_16_no_observatory_in_the_market_phase() -> None:
    st = market_game(tableaux={0: ["Observatory"]}, upper=["Chick"])
    assert not any(m.action.kind == "observe" for m in legal_moves(st))
    st = market_game(tableaux={0: ["Observatory"]}, upper=["Chick"], phase="buildings")
    assert Action("observe", "market") in [m.action for m in legal_moves(st)]


def test_MK_17_MK_55_end_of_round_crates_boxed_cards_discarded_tile_rises() -> None:
    st = market_game(phase="trading", lower=["Crate of Fish", "Chick"], upper=["Hen"])
    tokens = dict(st.tokens)
    play(st, "pass", "pass")
    box = st.ext["market"]["box"]
    assert [st.cards[c].id for c in box] == ["crate_fish"]
    assert [st.cards[c].id for c in st.discard] == ["chick"]
    assert {k: (v + 1) % 2 for k, v in tokens.items()} == st.tokens
    assert tile(st) == (3, 1)  # round 2's tile was 2/1


def test_MK_18_last_tile_stays() -> None:
    st = market_game(phase="trading", round_=6)
    assert tile(st) == (6, 3)
    play(st, "pass", "pass")
    assert tile(st) == (6, 3)


def test_MK_21_MK_23_positions_derived_and_counted_in_full() -> None:
    names = ["Chicken Coop", "Hen", "Hen", "Chick", "Chick", "Chick"]  # 3 + 2 + 2 + 1 + 1 + 1 = 10
    st = market_game(tableaux={0: names}, hand=["Crate of Chickens"], upper=["Fish"])
    assert pos(st, 0, "chicken") == 10  # the hand counts for nothing
    play(st, "play Crate of Chickens")
    assert pos(st, 0, "chicken") == 14
    market = view(st, 1)["market"]
    assert market["positions"][0]["chicken"] == 14
    assert (market["fields"][0]["chicken"], market["tens"][0]["chicken"]) == (4, 1)


def test_MK_22_position_zero_has_no_marker() -> None:
    st = market_game()
    assert view(st, 0)["market"]["fields"][0] == dict.fromkeys(["chicken", "grain", "apple", "fish", "cabbage"], 0)


def test_MK_24_MK_49_trading_card_over_a_card_with_symbols() -> None:
    st = market_game(hand=["Wharf"], upper=["St Isaac's Cathedral"], rubles=40, phase="trading")
    fish, grain = take_roundel(st, "Ship Builder", "fish"), take_roundel(st, "Ship Builder", "grain")
    st.tableaux[0] = [fish, grain, take_roundel(st, "Market", "apple")]
    assert (pos(st, 0, "fish"), pos(st, 0, "grain"), pos(st, 0, "apple")) == (1, 1, 1)
    listed = {format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st)}
    assert {"play Wharf over Ship Builder [fish]", "play Wharf over Ship Builder [grain]"} <= listed
    with pytest.raises(RuleError):  # MK-49: which Ship Builder must be said
        play(st, "play Wharf over Ship Builder")
    play(st, "play Wharf over Ship Builder [fish]")
    assert (pos(st, 0, "fish"), pos(st, 0, "grain")) == (0, 1) and fish in st.discard
    play(st, "pass", "buy St Isaac's Cathedral over Market [apple]")
    assert pos(st, 0, "apple") == 1


def test_MK_49_MK_61_copies_with_different_roundels_are_different_choices() -> None:
    st = market_game(phase="buildings")
    st.upper = [take_roundel(st, "Market", "fish"), take_roundel(st, "Market", "apple")]
    moves = [m.action for m in legal_moves(st) if m.action.kind == "buy"]
    assert moves == [Action("buy", "market", 0, good="fish"), Action("buy", "market", 0, good="apple")]
    assert parse_for(st, "buy Market [apple]") == moves[1]
    play(st, "buy Market [apple]")
    assert (pos(st, 0, "apple"), pos(st, 0, "fish")) == (1, 0)
    base = new_game(Ruleset(), list("ABCD"), seed=1)  # without the Market roundels are ignored (MK-01)
    assert not any(m.action.good for m in legal_moves(base))


def test_MK_29_MK_60_market_cards() -> None:
    cat = market_rules().catalogue
    market = [t for t in cat.types if t.deck == "market"]
    assert sum(t.count for t in market) == 35
    assert all(t.colour == "yellow" and t.vp == 0 for t in market)
    shapes = Counter((t.count, t.cost, t.rubles, t.market_count) for t in market)
    assert shapes == {(3, 5, 2, 1): 5, (2, 4, 1, 2): 5, (1, 3, 0, 3): 5, (1, 1, 0, 4): 5}
    per_good = Counter(g for t in market for g in t.market)
    assert set(per_good.values()) == {7} and len(per_good) == 5


def test_MK_30_MK_56_prices_of_market_cards() -> None:
    st = market_game(tableaux={0: ["Chick", "Carpenter Workshop"]}, upper=["Chick"], lower=["Crate of Fish", "Hen"])
    cat = st.ruleset.catalogue
    assert price(st, 0, cat.by_id["chick"], False) == 4  # one of the same name owned
    assert price(st, 0, cat.by_id["hen"], True) == 3  # lower row; no colour discount for yellow
    assert price(st, 0, cat.by_id["crate_fish"], True) == 1  # never below 1
    trading = [t for t in cat.types if t.trading]
    assert not any(m.action.target in ("chick",) for m in legal_moves(st))
    assert all(t.colour != "yellow" for t in trading)


def test_MK_32_crate_costs_one_and_moves_four() -> None:
    st = market_game(upper=["Crate of Fish"], phase="workers")
    events = play(st, "buy Crate of Fish")
    assert events[0]["price"] == 1 and pos(st, 0, "fish") == 4


def test_MK_47_MK_48_observatory_draws_from_the_market_stack_crate_discarded_to_box() -> None:
    st = market_game(tableaux={0: ["Observatory"]}, upper=["Hospital"], phase="buildings")
    crate = take_roundel(st, "Crate of Apples", "apple")
    st.decks["market"].append(crate)
    assert parse_for(st, "observe market") == Action("observe", "market")
    play(st, "observe market")
    assert [m.action.kind for m in legal_moves(st)] == ["buy", "take", "discard"]
    play(st, "discard Crate of Apples")
    assert st.ext["market"]["box"] == [crate] and crate not in st.discard


def test_MK_51_hand_limit_counts_market_cards() -> None:
    st = market_game(hand=["Chick", "Hen", "Crate of Fish"], upper=["Fish"])
    assert not any(m.action.kind == "take" for m in legal_moves(st))
    with pytest.raises(RuleError) as e:
        play(st, "take Fish")
    assert e.value.code == "hand_full"


def test_MK_52_no_pub_in_the_market_scoring() -> None:
    st = market_game(tableaux={0: ["Pub", "Chick"]})
    play(st, "pass", "pass")
    assert st.pending is None and st.ruleset.phases[st.phase].key == "buildings"


def test_MK_54_market_stack_running_out_ends_the_game_without_market_final_scoring() -> None:
    st = market_game(phase="workers", upper=["Lumberjack"])
    st.decks["market"] = st.decks["market"][-3:]
    events = play(st, "pass", "pass")
    assert {"type": "end_triggered", "deck": "market"} in events and st.ending
    while not st.finished:
        apply(st, legal_moves(st)[-1].action)
    assert st.final is not None and set(st.final[0]) == {
        "seat",
        "aristocrats",
        "rubles_vp",
        "hand_penalty",
        "vp",
        "rubles_left",
    }


def test_MK_57_view_shows_the_marketplace_to_everyone() -> None:
    st = market_game(players=3, tableaux={1: ["Fish Basket"]})
    for seat in (None, 0, 2):
        market = view(st, seat)["market"]
        assert market["positions"][1]["fish"] == 2
        assert market["tile"] == [2, 1] and market["tiles_left"][0] == [2, 1]
        assert market["sack"] == st.tokens["sack"]


def test_MK_59_two_players_one_holds_three_tokens() -> None:
    st = new_game(market_rules(2), list("AB"), seed=5)
    assert sorted(Counter(st.tokens.values()).values()) == [2, 3]


def test_P5_01_five_players_25_rubles_no_sack_bonus_and_ten_workers() -> None:
    st = new_game(market_rules(5), list("ABCDE"), seed=2)
    assert st.rubles == [25] * 5 and st.vp == [0] * 5 and len(st.upper) == 10


def test_market_game_records_replay_and_notation_round_trips() -> None:
    rs = market_rules(5)
    st = new_game(rs, list("ABCDE"), seed=9)
    rng = random.Random(9)
    texts = []
    while not st.finished:
        a = rng.choice(legal_moves(st)).action
        texts.append(format_action(a, rs.catalogue))
        assert parse_for(st, texts[-1]) == a
        apply(st, a)
    rec = GameRecord(rs, list("ABCDE"), seed=9, actions=texts)
    again = replay(GameRecord.loads(rec.dumps()))
    assert again.to_json() == st.to_json()


@pytest.mark.parametrize("players", [2, 5])
def test_X_11_computer_player_finishes_market_games(players: int) -> None:
    from players.ai import choose

    st = new_game(market_rules(players), [f"P{i}" for i in range(players)], seed=players)
    while not st.finished:
        apply(st, choose(st))
    assert st.winners


def test_MK_46_log_words_the_market_events() -> None:
    from rules.describe import describe_all

    st = market_game(players=2, round_=3, tableaux={0: ["Crate of Fish", "Chick"], 1: []})
    events = play(st, "pass", "pass", "confirm Crate of Fish")
    lines = describe_all(events, ["Ann", "Bob"], 2, "en")
    assert "Ann confirmed Crate of Fish for 3 rubles." in lines
    assert "Marketplace: Ann +6 VP." in lines
    assert any(line.startswith("Markt") for line in describe_all(events, ["Ann", "Bob"], 2, "de"))


def test_MK_19_MK_20_goods_and_the_cards_that_carry_roundels() -> None:
    from rules.expansions.market import goods

    assert goods() == ("chicken", "grain", "apple", "fish", "cabbage")
    cat = market_rules().catalogue
    roundels = {t.id: sorted(t.market) for t in cat.types if t.market and t.deck != "market"}
    assert roundels == {
        "ship_builder": sorted(["grain", "chicken", "apple", "fish", "cabbage", "?"]),
        "czar_and_carpenter": ["?"],
        "market": sorted(goods()),
        "bank": ["grain"],
        "peterhof": ["chicken"],
        "st_isaacs_cathedral": ["apple"],
        "church_of_the_resurrection": ["cabbage"],
        "harbor": ["fish"],
    }


def test_MK_31_markets_of_different_goods_share_the_name_discount() -> None:
    st = market_game(phase="buildings")
    st.tableaux[0] = [take_roundel(st, "Market", "fish")]
    st.upper = [take_roundel(st, "Market", "apple")]
    (move,) = [m for m in legal_moves(st) if m.action.kind == "buy"]
    assert move.price == 4  # 5 minus 1 for the Market already owned, whatever its good


def test_MK_53_mandatory_first_workers_unchanged() -> None:
    st = new_game(market_rules(3), list("ABC"), seed=4)
    assert {m.action.kind for m in legal_moves(st)} == {"buy"}
    with pytest.raises(RuleError) as e:
        apply(st, Action("pass"))
    assert e.value.code == "must_buy_worker"


def test_X_09_stacks_name_a_copy_by_its_roundel() -> None:
    """X-09: a record's stacks can name a copy with a market roundel; a copy that is not in the deck
    (or a roundel the card never carries) is refused instead of silently dealing another copy."""
    rs = market_rules(2)
    cat = rs.catalogue
    wanted = ["Ship Builder [fish]", "Ship Builder [?]", "Ship Builder [grain]"]
    st = new_game(rs, ["A", "B"], seed=3, stacks={"workers": wanted})
    top = st.upper[:3]  # the first workers phase laid them out, top card first
    assert [cat.cards[c].name() for c in top] == ["Ship Builder"] * 3
    assert [cat.copy_goods[c] for c in top] == ["fish", "?", "grain"]
    with pytest.raises(ValueError, match="no \\(more\\) card"):
        new_game(rs, ["A", "B"], seed=3, stacks={"workers": ["Ship Builder [fish]", "Ship Builder [fish]"]})
    with pytest.raises(ValueError, match="no \\(more\\) card"):
        new_game(rs, ["A", "B"], seed=3, stacks={"workers": ["Shepherd [fish]"]})
