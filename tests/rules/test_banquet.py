"""The Banquet: Module 1 of the 2nd edition and the 1st-edition Banquet (BQ-01 ... BQ-13,
X-02, GAP-09, GAP-10; the rulings AMB-17, AMB-19, AMB-20, AMB-29, AMB-31). Plays of the other purple
cards, the Pickpocket and the decision points: test_banquet_plays.py.

The Debtor's Prison removal (BQ-23 with Module 2, BQ-28 with In bester Gesellschaft) belongs to the
configure of those parts (type id ``debtors_prison``, branch ``society``); Module 1 alone removes
only its own yellow cards without the Market (BQ-02), which is tested here.
"""

from __future__ import annotations

import pytest

from rules import LOWER, TAKE, UPPER, Action, RuleError, Ruleset, check, legal_moves, new_game
from rules.cards import raw_extra
from rules.scoring import final_scoring, score_colour

from .helpers import banquet_rules, bq_game, names, play, take_cards

BQ_IDS = {e["id"] for e in raw_extra("banquet")}
YELLOW = ("black_market_yellow", "money_collector", "moocher")


def module_cards(st_or_rs: Ruleset) -> list[str]:
    cat = st_or_rs.catalogue
    return [t.id for t in cat.cards if t.id in BQ_IDS and t.id not in cat.removed]


def dealt(st) -> list[str]:  # type: ignore[no-untyped-def]
    """The module's cards in the stacks and on the display of a new game."""
    cards = [c for deck in st.decks.values() for c in deck] + st.upper
    return sorted(st.cards[c].id for c in cards if st.cards[c].id in BQ_IDS)


def move_texts(st) -> set[str]:  # type: ignore[no-untyped-def]
    from rules.record import notation

    return {notation(st, m.action) for m in legal_moves(st)}


# --- setup: which cards (BQ-01, BQ-02, BQ-27, X-02, GAP-09, GAP-10) --------------------------------------
def test_BQ_01_module1_with_the_market_has_15_cards_shuffled_into_their_stacks() -> None:
    rs = banquet_rules(2, 3, market=True)
    assert len(module_cards(rs)) == 15 and rs.catalogue.removed == ()
    purple = [c for c in module_cards(rs) if rs.catalogue.by_id[c].colour == "purple"]
    assert len(purple) == 12
    st = new_game(rs, ["A", "B", "C"], seed=3)
    assert len(dealt(st)) == 15
    # GAP-09 (data, partly a guess): the yellow-background cards lie in the market stack
    assert sorted(st.cards[c].id for c in st.decks["market"] if st.cards[c].id in BQ_IDS) == sorted(YELLOW)


def test_BQ_02_AMB_20_without_the_market_the_three_yellow_cards_go_to_the_box() -> None:
    rs = banquet_rules(2, 2)
    assert rs.catalogue.removed == YELLOW
    st = new_game(rs, ["A", "B"], seed=4)
    ids = dealt(st)
    assert len(ids) == 12 and ids.count("black_market") == 2
    assert not set(YELLOW) & set(ids)


def test_BQ_27_AMB_31_first_edition_banquet_has_its_12_cards() -> None:
    rs = banquet_rules(1, 4)
    st = new_game(rs, list("ABCD"), seed=5)
    assert dealt(st) == sorted(
        ["czar_superstar", "potemkin_village_1_4", "potemkin_village_3_8", "away_with_it", "away_with_it",
         "black_market", "black_market", "banquet", "double_turn", "golden_donkey", "jester", "pickpocket"]
    )
    superstar = rs.catalogue.by_id["czar_superstar"]
    assert (superstar.cost, superstar.rubles) == (9, 3) and "guess" in superstar.source  # GAP-10


def test_GAP_09_stacks_are_data_away_with_it_in_buildings_and_aristocrats() -> None:
    cat = banquet_rules(1, 2).catalogue
    decks = sorted(cat.copy_decks[c] for c, t in enumerate(cat.cards) if t.id == "away_with_it")
    assert decks == ["aristocrats", "buildings"]
    assert all("guess" in t.source or "RG" in t.source for t in cat.types if t.colour == "purple")


def test_X_02_module1_in_both_editions_and_the_combinations_refused() -> None:
    assert Ruleset(edition=1, players=4, modules=(1,)).modules == (1,)
    assert Ruleset(edition=2, players=5, expansions=("market",), modules=(1,)).players == 5
    with pytest.raises(ValueError, match="2nd edition only"):
        Ruleset(edition=1, expansions=("market",), modules=(1,))
    with pytest.raises(ValueError, match="2 to 4 players"):
        Ruleset(edition=2, players=5, modules=(1,))


# --- purple cards: into hand only, played only when usable, never discarded (BQ-03 ... BQ-08) --------------
def test_BQ_03_purple_cards_are_free_taken_into_hand_never_bought() -> None:
    st = bq_game(upper=("Jester", "Author"), tableaux={0: ["Harbor"]})
    actions = {m.action for m in legal_moves(st)}
    assert Action(TAKE, "jester", UPPER) in actions
    assert not any(a.card == "jester" and a.kind != TAKE for a in actions)
    with pytest.raises(RuleError) as e:
        check(st, Action("buy", "jester", UPPER))
    assert e.value.code == "not_placeable"
    play(st, "take Jester")
    assert names(st, st.hands[0]) == ["jester"] and st.rubles[0] == 25


def test_BQ_04_a_purple_card_is_offered_only_when_its_effect_can_be_used() -> None:
    st = bq_game(hands={0: ["Jester"]}, tableaux={0: ["Lumberjack"]})  # no card with rubles and VP
    assert not any(m.action.card == "jester" for m in legal_moves(st))
    with pytest.raises(RuleError) as e:
        check(st, Action("play", "jester", 2, "lumberjack"))
    assert e.value.code == "cannot_play"
    st = bq_game(hands={0: ["Jester"]}, tableaux={0: ["Lumberjack", "Harbor"]})
    assert "play Jester on Harbor" in move_texts(st)


def test_BQ_05_X_06_purple_hand_cards_give_no_minus_five_and_cannot_be_discarded() -> None:
    st = bq_game(hands={0: ["Jester", "Lumberjack", "Away With It!"], 1: ["Golden Donkey"]})
    events: list[dict] = []
    final_scoring(st, events)
    assert st.final is not None
    assert [f["hand_penalty"] for f in st.final] == [-5, 0]  # only the Lumberjack counts
    st = bq_game(hands={0: ["Away With It!", "Jester", "Golden Donkey"]})
    assert not any(m.action.card == "away_with_it" for m in legal_moves(st))  # BQ-20: no other normal card


def test_BQ_06_BQ_19_a_played_purple_card_goes_to_the_box() -> None:
    st = bq_game(hands={0: ["Golden Donkey"]})
    events = play(st, "play Golden Donkey")
    assert st.rubles[0] == 30 and not st.hands[0]
    assert names(st, st.ext["banquet"]["box"]) == ["golden_donkey"] and not st.discard
    assert events[0]["gain_rubles"] == 5 and st.to_move == 1 and st.passes == 0


def test_BQ_07_AMB_19_purple_cards_cleared_from_the_display_are_discarded_but_never_chosen() -> None:
    st = bq_game(phase="trading", upper=("Author",), lower=("Jester",))
    play(st, "pass", "pass")  # end of the round: the lower row is discarded
    assert "jester" in names(st, st.discard)
    st.hands[0] = take_cards(st, ["Black Market"])
    st.pending, st.to_move, st.phase = None, 0, 1
    assert not any(m.action.card == "black_market" for m in legal_moves(st))  # only a purple card there
    st.discard += take_cards(st, ["Author"])
    play(st, "play Black Market")
    assert {m.action.card for m in legal_moves(st)} == {"author"}


def test_BQ_08_AMB_29_observatory_draws_a_purple_card_take_or_discard_never_buy() -> None:
    st = bq_game(tableaux={0: ["Observatory"]})
    st.decks["buildings"] += take_cards(st, ["Jester"])  # on top
    play(st, "observe buildings")
    kinds = {m.action.kind for m in legal_moves(st)}
    assert kinds == {"take", "discard"}
    with pytest.raises(RuleError):
        check(st, Action("buy", "jester", 3))
    play(st, "take Jester")
    assert names(st, st.hands[0]) == ["jester"]


# --- the normal cards (BQ-09, BQ-10) ----------------------------------------------------------------------
@pytest.mark.parametrize("edition", [1, 2])
def test_BQ_09_czar_superstar_displaces_only_czar_and_carpenter_then_discounts_red_and_blue(edition: int) -> None:
    st = bq_game(edition=edition, phase="trading", upper=("Czar - Superstar", "Author"),
                 tableaux={0: ["Czar and Carpenter", "Lumberjack"]})
    offered = [m for m in legal_moves(st) if m.action.card == "czar_superstar" and m.action.kind == "buy"]
    assert [(m.action.target, m.price) for m in offered] == [("czar_and_carpenter", 1)]  # max(1, 9 - 8)
    with pytest.raises(RuleError):
        check(st, Action("buy", "czar_superstar", UPPER, "lumberjack"))
    author_before = next(m.price for m in legal_moves(st) if m.action.card == "author" and m.action.kind == "buy")
    play(st, "buy Czar - Superstar over Czar and Carpenter")
    st.to_move = 0
    author_after = next(m.price for m in legal_moves(st) if m.action.card == "author" and m.action.kind == "buy")
    assert (author_before, author_after) == (4, 3)
    from rules import price

    assert price(st, 0, st.ruleset.catalogue.by_id["harbor"], False) == 15  # blue trading cards too
    events: list[dict] = []
    rubles = st.rubles[0]
    score_colour(st, "green", "workers", events)
    assert st.rubles[0] - rubles == 3 + 3  # its 3 rubles and the Lumberjack's


@pytest.mark.parametrize("market", [False, True])
@pytest.mark.parametrize(("village", "price"), [("Potemkin Village 1/4", 13 - 4), ("Potemkin Village 3/8", 13 - 8)])
def test_BQ_10_potemkin_villages_count_4_and_8_when_displaced(village: str, price: int, market: bool) -> None:
    st = bq_game(market=market, phase="trading", upper=("Bank",), tableaux={0: [village]})
    bank = [m for m in legal_moves(st) if m.action.card == "bank" and m.action.kind == "buy"]
    assert [m.price for m in bank] == [price]
    # check() agrees: it once refused a trading card over a card of an expansion's file (the file's
    # card types were other objects in each combination of files)
    play(st, f"buy Bank over {village}")
    assert st.rubles[0] == 25 - price


# --- Money Collector (BQ-11, BQ-12, BQ-25; AMB-17) ------------------------------------------------------------
def collector_prices(st) -> dict[tuple[str, str, int], int]:  # type: ignore[no-untyped-def]
    return {(m.action.kind, m.action.card, m.action.row): m.price for m in legal_moves(st)}


def test_BQ_11_AMB_17_money_collector_halves_the_price_at_least_1() -> None:
    st = bq_game(market=True, hands={0: ["Money Collector", "Bank"]},
                 tableaux={0: ["Warehouse", "Lumberjack", "Lumberjack"]}, upper=("Library", "Lumberjack"),
                 lower=("Theater",))
    play(st, "play Money Collector")
    assert st.pending is not None and st.pending.kind == "money_collector"
    prices = collector_prices(st)
    assert prices[("buy", "library", UPPER)] == 17 // 2
    assert prices[("buy", "theater", LOWER)] == (20 - 1) // 2
    assert prices[("buy", "lumberjack", UPPER)] == 1  # 3 - 2 (two owned) = 1, halved 0: at least 1
    assert prices[("play", "bank", 2)] == (13 - 2) // 2  # from the hand, over the Warehouse (AMB-17 d)
    assert not any(m.action.kind == "take" for m in legal_moves(st))
    play(st, "buy Library")
    assert st.rubles[0] == 25 - 8 and names(st, st.tableaux[0])[-1] == "library"
    assert st.ext["banquet"]["chip"] == [st.tableaux[0][-1], 0]
    assert names(st, st.ext["banquet"]["box"]) == ["money_collector"] and st.to_move == 1


def test_BQ_11_money_collector_not_offered_when_nothing_is_affordable() -> None:
    st = bq_game(market=True, hands={0: ["Money Collector"]}, upper=("Library",), rubles=0)
    assert not any(m.action.card == "money_collector" for m in legal_moves(st))


def test_BQ_25_discounts_first_then_halved() -> None:
    st = bq_game(market=True, phase="trading", hands={0: ["Money Collector"]},
                 tableaux={0: ["Carpenter Workshop", "Library"]}, lower=("Library",))
    play(st, "play Money Collector")
    assert collector_prices(st)[("buy", "library", LOWER)] == (17 - 1 - 1 - 1) // 2


def test_BQ_12_AMB_17_covered_card_pays_rubles_never_vp_cannot_be_displaced_still_counts() -> None:
    st = bq_game(market=True, phase="aristocrats", hands={0: ["Money Collector", "Jester"]},
                 upper=("Judge", "Senator"))
    play(st, "play Money Collector", "buy Judge")
    st.to_move = 0
    texts = move_texts(st)
    assert "buy Senator over Judge" not in texts  # BQ-11: never displaced
    assert not any(t.startswith("play Jester") for t in texts)  # BQ-18: a covered card does not qualify
    events: list[dict] = []
    rubles, vp = st.rubles[0], st.vp[0]
    score_colour(st, "red", "aristocrats", events)
    assert (st.rubles[0] - rubles, st.vp[0] - vp) == (5, 0)
    from rules import aristocrat_vp

    assert aristocrat_vp(st, 0) == st.ruleset.catalogue.aristocrat_table[1]  # it counts as an aristocrat


def test_BQ_12_the_chip_goes_back_when_its_crate_is_released() -> None:
    from rules.expansions.banquet import sweep
    from rules.expansions.market import release

    st = bq_game(market=True, phase="market", hands={0: ["Money Collector"]}, upper=("Crate of Fish",))
    play(st, "play Money Collector", "buy Crate of Fish")
    crate = st.ext["banquet"]["chip"][0]
    release(st, 0, crate, [])
    sweep(st)
    assert st.ext["banquet"]["chip"] is None


# --- Black Market (BQ-13) -------------------------------------------------------------------------------------
def test_BQ_13_black_market_buy_take_or_put_back_a_card_of_the_discard_pile() -> None:
    st = bq_game(hands={0: ["Black Market"]}, tableaux={0: ["Warehouse"]}, discard=("Harbor", "Author"))
    play(st, "play Black Market")
    assert st.pending is not None and st.pending.kind == "black_market"
    moves = {(m.action.kind, m.action.card, m.action.target): m.price for m in legal_moves(st)}
    assert moves == {
        ("buy", "author", ""): 4,  # the normal price: no lower-row discount
        ("take", "author", ""): 0,
        ("discard", "author", ""): 0,
        ("buy", "harbor", "warehouse"): 16 - 2,
        ("take", "harbor", ""): 0,
        ("discard", "harbor", ""): 0,
    }
    play(st, "discard Harbor")  # put back on top
    assert names(st, st.discard) == ["author", "harbor"] and st.to_move == 1


def test_BQ_13_black_market_buys_at_once() -> None:
    st = bq_game(hands={0: ["Black Market"]}, discard=("Harbor", "Author"))
    play(st, "play Black Market", "buy Author")
    assert names(st, st.tableaux[0]) == ["author"] and st.rubles[0] == 21 and names(st, st.discard) == ["harbor"]


def test_BQ_13_black_market_not_on_an_empty_pile() -> None:
    st = bq_game(hands={0: ["Black Market"]})
    assert not any(m.action.card == "black_market" for m in legal_moves(st))
    with pytest.raises(RuleError):
        check(st, Action("play", "black_market", 2))


def test_BQ_09_czar_superstar_over_in_bester_gesellschafts_czar_and_carpenter() -> None:
    """1st edition with In bester Gesellschaft, whose Czar and Carpenter (cost 3) replaces the base
    card: 9 - 3 = 6 (GAP-10: the 2nd-edition cost)."""
    from rules import new_game as start

    rs = Ruleset(edition=1, players=2, expansions=("new_society",), modules=(1,))
    st = start(rs, ["A", "B"], seed=2)
    st.decks["workers"].extend(st.upper)
    st.upper = take_cards(st, ["Czar - Superstar"])
    st.tableaux[0] = take_cards(st, ["Czar and Carpenter"])
    assert st.cards[st.tableaux[0][0]].id == "new_czar_and_carpenter"
    st.round, st.phase, st.to_move = 2, 3, 0
    offered = [(m.action.target, m.price) for m in legal_moves(st) if m.action.card == "czar_superstar"
               and m.action.kind == "buy"]
    assert offered == [("new_czar_and_carpenter", 6)]
