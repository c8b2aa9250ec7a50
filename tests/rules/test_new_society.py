"""In bester Gesellschaft / The New Society, 1st edition, and its SP+ variant (IBG-01
... IBG-22; X-02, X-05, X-06). Each test names the item it checks. The cards it shares with Module 2
are tested in both editions in test_module2.py; five players in test_five_players.py."""

from __future__ import annotations

from collections import Counter

import pytest

from rules import GameState, Ruleset, catalogue, legal_moves, new_game, price
from rules.actions import format_action
from rules.cards import CardType
from rules.expansions.society import NEW_SOCIETY_EXPANSION
from rules.hooks import Shape
from rules.ruleset import BASE_PHASES, BASE_TOKENS
from rules.scoring import final_scoring

from .helpers import end_phase, ibg, module2, play, society_game, sp_plus

REPLACED = ("czar_and_carpenter", "observatory", "academy", "mistress_of_ceremonies", "mariinsky_theater")


def texts(st: GameState) -> set[str]:
    return {format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st)}


def pending(st: GameState) -> tuple[str, int]:
    assert st.pending is not None
    return st.pending.kind, st.pending.seat


def named(rs: Ruleset, name: str) -> CardType:
    t = rs.catalogue.lookup(name)
    assert t is not None, name
    return t


def in_game(rs: Ruleset) -> Counter[str]:
    cat = rs.catalogue
    return Counter(cat.cards[c].id for d in rs.decks for c in cat.deck_cards(d))


def test_IBG_01_an_option_of_the_first_edition_with_35_cards() -> None:
    base = in_game(Ruleset(edition=1, players=4))
    ours = in_game(ibg(4))
    assert sum(base.values()) == 116
    assert sum(ours.values()) == 116 - 7 + 35


def test_IBG_02_seven_base_cards_replaced_by_the_expansions_versions() -> None:
    rs = ibg(3)
    ours = in_game(rs)
    assert all(ours[r] == 0 for r in REPLACED)
    assert ours["new_observatory"] == 2 and ours["new_mistress_of_ceremonies"] == 2
    assert ours["new_czar_and_carpenter"] == ours["new_academy"] == ours["new_mariinsky_theater"] == 1
    # a name finds the version in the game; the base card keeps its physical ids but is never dealt
    assert named(rs, "Observatory").id == "new_observatory"
    st = new_game(rs, list("ABC"), seed=3)
    dealt = {st.cards[c].id for d in st.decks.values() for c in d} | {st.cards[c].id for c in st.upper}
    assert not dealt & set(REPLACED)


def test_IBG_03_stack_sizes() -> None:
    st = new_game(ibg(4), list("ABCD"), seed=1)
    sizes = {d: len(v) for d, v in st.decks.items()}
    sizes["workers"] += len(st.upper)
    assert sizes == {"workers": 37, "buildings": 34, "aristocrats": 34, "trading": 39}


def _final_aristocrats(rs: Ruleset, names: list[str]) -> int:
    st = society_game(rs, {0: names}, phase="trading")
    final_scoring(st, [])
    assert st.final is not None
    return int(st.final[0]["aristocrats"])


REDS_1 = ["Author", "Administrator", "Warehouse Manager", "Secretary", "Controller", "Judge",
          "Mistress of Ceremonies", "Sycophant", "Pope", "Weapon Master", "Chamber Maid", "Builder"]


def test_IBG_04_ten_VP_more_per_distinct_aristocrat_beyond_the_tenth() -> None:
    assert _final_aristocrats(ibg(), REDS_1[:10]) == 55
    assert _final_aristocrats(ibg(), REDS_1[:11]) == 65
    assert _final_aristocrats(ibg(), REDS_1) == 75
    assert _final_aristocrats(ibg(), REDS_1 + ["Sycophant", "Author"]) == 75  # IBG-19: by name, once


def test_IBG_04_IBG_13_no_bonus_with_SP_plus() -> None:
    reds = [n for n in REDS_1 if n != "Sycophant"] + ["Senator"]
    assert _final_aristocrats(sp_plus(), reds) == 55


def test_IBG_05_new_czar_and_carpenter_any_green_trading_card_displaces_it() -> None:
    t = ibg().catalogue.lookup("Czar and Carpenter")
    assert t is not None and (t.id, t.cost, t.rubles, t.vp) == ("new_czar_and_carpenter", 3, 2, 0)
    for card in ("Carpenter Workshop", "Obshchina Commune", "October Revolution", "Wharf"):
        st = society_game(ibg(), {0: ["Czar and Carpenter"]}, hand=[card], rubles=30)
        assert f"play {named(st.ruleset, card).name()} over Czar and Carpenter" in texts(st), card


def test_IBG_06_new_farmer_only_the_kolchose_and_the_any_worker_card_displace_it() -> None:
    t = ibg().catalogue.lookup("New Farmer")
    assert t is not None and (t.cost, t.rubles, t.vp, t.symbols, t.count) == (9, 3, 1, frozenset({"wheat"}), 6)
    for card, ok in (("Obshchina Commune", True), ("October Revolution", True), ("Weaving Mill", False),
                     ("Wharf", False)):
        st = society_game(ibg(), {0: ["New Farmer"]}, hand=[card], rubles=30)
        listed = any(m.action.target == "new_farmer" for m in legal_moves(st))
        assert listed == ok, card


def test_IBG_07_kolchose_makes_every_later_green_card_cheaper() -> None:
    rs = ibg()
    cat = rs.catalogue
    st = society_game(rs, {0: ["Kolchose"]})
    assert (cat.by_id["kolchose"].cost, cat.by_id["kolchose"].rubles, cat.by_id["kolchose"].vp) == (13, 3, 2)
    assert price(st, 0, cat.by_id["lumberjack"], False) == 2
    assert price(st, 0, cat.by_id["new_farmer"], False) == 8
    assert price(st, 0, cat.by_id["wharf"], False, cat.by_id["ship_builder"]) == 12 - 1 - 7
    assert price(st, 0, cat.by_id["author"], False) == 4  # not other colours


def test_IBG_08_any_worker_card_displaces_every_worker_and_counts_as_cloth() -> None:
    rs = ibg()
    t = rs.catalogue.by_id["october_revolution"]
    assert (t.cost, t.rubles, t.vp) == (15, 6, 2)
    for worker in ("Lumberjack", "Gold Miner", "Shepherd", "Fur Trapper", "Ship Builder", "New Farmer",
                   "Czar and Carpenter"):
        st = society_game(rs, {0: [worker]}, hand=["October Revolution"], rubles=30)
        assert any(m.action.kind == "play" and m.action.target for m in legal_moves(st)), worker
    # the Textile Factory counts it in the 1st edition (AMB-16)
    st = society_game(rs, {0: ["Textile Factory", "October Revolution", "Shepherd", "Lumberjack"]})
    end_phase(st)
    assert st.vp[0] == 4


def test_IBG_09_buildings_coffee_house_academy_observatory_and_extra_copies() -> None:
    rs = ibg()
    cat = rs.catalogue
    assert (cat.by_id["new_academy"].cost, cat.by_id["new_academy"].vp) == (25, 9)
    assert (cat.by_id["new_observatory"].cost, cat.by_id["new_observatory"].vp) == (8, 1)
    assert cat.by_id["trading_house"].name("de") == "Markthalle"
    ours = in_game(rs)
    assert (ours["firehouse"], ours["hospital"]) == (5, 4)
    # Coffee House: +1 ruble per red card, duplicates and red trading cards counted (AMB-14)
    st = society_game(rs, {0: ["Coffee House", "Author", "Author", "Merchant"]})
    events = end_phase(st)
    score = next(e for e in events if e["type"] == "score" and e["seat"] == 0)
    assert (score["rubles"], score["vp"]) == (3, 0)


def test_IBG_09_IBG_12_debtors_prison_face_up_next_phase_in_the_first_edition() -> None:
    st = society_game(ibg(), {0: ["Debtor's Prison"]}, discard=["Lumberjack", "Bank"])
    assert {"prison Bank", "prison Lumberjack"} <= texts(st)
    play(st, "prison Lumberjack")
    assert texts(st) == {"buy Lumberjack", "take Lumberjack", "discard Lumberjack"}
    play(st, "buy Lumberjack")
    prison = st.tableaux[0][0]
    assert prison in st.face_down and st.rubles[0] == 22
    events = end_phase(st)  # building scoring: no VP for the face-down Debtor's Prison
    assert next(e for e in events if e["type"] == "score" and e["seat"] == 0)["vp"] == 0
    assert st.phase_key == "aristocrats" and prison not in st.face_down  # face up again


def test_IBG_12_removed_with_the_banquet() -> None:
    shape = Shape(edition=1, players=3, catalogue=catalogue(1), phases=list(BASE_PHASES), decks=[],
                  tokens=list(BASE_TOKENS), display_size=8, active=frozenset({"new_society", "module1"}))
    NEW_SOCIETY_EXPANSION.configure(shape)
    assert "debtors_prison" in shape.removed
    shape = Shape(edition=1, players=3, catalogue=catalogue(1), phases=list(BASE_PHASES), decks=[],
                  tokens=list(BASE_TOKENS), display_size=8, active=frozenset({"new_society"}))
    NEW_SOCIETY_EXPANSION.configure(shape)
    assert "debtors_prison" not in shape.removed


def test_IBG_10_aristocrats_mistress_sycophant_and_extra_copies() -> None:
    rs = ibg()
    m = rs.catalogue.by_id["new_mistress_of_ceremonies"]
    assert (m.cost, m.rubles, m.vp) == (18, 3, 4)
    ours = in_game(rs)
    assert [ours[x] for x in ("administrator", "warehouse_manager", "secretary", "controller", "judge")] == [
        6, 6, 5, 4, 3]
    assert ours["sycophant"] == 2 and rs.catalogue.by_id["sycophant"].cost == 1


def test_IBG_11_trading_cards() -> None:
    rs = ibg()
    cat = rs.catalogue
    values = {t: (cat.by_id[t].cost, cat.by_id[t].rubles, cat.by_id[t].vp) for t in (
        "new_mariinsky_theater", "textile_factory", "guild_hall", "university", "merchant", "lieutenant_kije",
        "mayor")}
    assert values == {"new_mariinsky_theater": (20, 0, 0), "textile_factory": (16, 0, 0), "guild_hall": (13, 0, 0),
                      "university": (18, 0, 6), "merchant": (6, 3, 0), "lieutenant_kije": (12, 0, 3),
                      "mayor": (13, 0, 0)}
    assert in_game(rs)["wharf"] == 4
    # the new Mariinskij: +1 VP (not a ruble) per red card at building scoring
    st = society_game(rs, {0: ["Mariinskij-Theater", "Author", "Merchant"]})
    events = end_phase(st)
    assert next(e for e in events if e["type"] == "score" and e["seat"] == 0)["vp"] == 2
    assert st.rubles[0] == 25


def test_IBG_13_SP_plus_only_the_replacement_cards() -> None:
    ours = in_game(sp_plus(4))
    assert sum(ours.values()) == 116
    assert not ours.keys() & {"sycophant", "new_farmer", "guild_hall", "debtors_prison"}
    assert all(ours[r] == 0 for r in REPLACED) and ours["new_observatory"] == 2
    with pytest.raises(ValueError, match="cannot be played together"):
        Ruleset(edition=1, players=3, expansions=("new_society", "new_society_replacements_only"))
    with pytest.raises(ValueError, match="2 to 4 players"):
        sp_plus(5)
    with pytest.raises(ValueError, match="1st edition"):
        Ruleset(edition=2, players=3, expansions=("new_society_replacements_only",))


def test_IBG_14_second_edition_with_new_society_is_refused() -> None:
    with pytest.raises(ValueError, match="with the 2nd edition, play Module 2"):
        Ruleset(edition=2, players=3, expansions=("new_society",))
    with pytest.raises(ValueError, match="with the 2nd edition, play Module 2"):
        Ruleset(edition=2, players=3, expansions=("new_society",), modules=(2,))


def test_IBG_15_new_observatory_works_as_the_first_editions() -> None:
    st = society_game(ibg(), {0: ["Observatory"]})
    assert "observe trading" in texts(st)
    play(st, "observe trading")
    play(st, parse_for_first(st))
    assert st.tableaux[0][0] in st.face_down
    end_phase(st)
    assert not st.face_down  # face up at the start of the next phase (BG-08)


def parse_for_first(st: GameState) -> str:
    return format_action(legal_moves(st)[-1].action, st.ruleset.catalogue)


def test_IBG_16_tax_man_counts_new_farmers_and_mayor_counts_every_blue_card() -> None:
    st = society_game(ibg(), {0: ["Tax Man", "New Farmer", "Lumberjack"], 1: ["Mayor", "Trading House",
                      "Coffee House", "Guild Hall"]}, phase="aristocrats")
    events = end_phase(st)
    scores = {e["seat"]: e["rubles"] for e in events if e["type"] == "score"}
    assert scores == {0: 2, 1: 3}


def test_IBG_17_X_05_guild_hall_then_pub_then_trading_house_per_player() -> None:
    st = society_game(ibg(), {0: ["Guild Hall", "Pub", "Trading House"], 1: ["Pub"]}, rubles=[0, 10])
    end_phase(st)
    assert pending(st) == ("guild_hall", 0)
    assert texts(st) == {f"guild_hall {k} VP" for k in range(5)}
    play(st, "guild_hall 0 VP")  # 4 rubles, which may pay the Pub and the Trading House
    assert pending(st) == ("pub", 0) and st.rubles[0] == 4
    play(st, "pub 0")
    assert pending(st) == ("trading_house", 0)
    assert texts(st) == {"trading_house yes", "trading_house no"}
    play(st, "trading_house yes")
    assert (st.rubles[0], st.vp[0]) == (1, 2)
    assert pending(st) == ("pub", 1)
    play(st, "pub 2")
    assert st.pending is None and st.phase_key == "aristocrats"


def test_IBG_17_trading_house_not_offered_without_3_rubles() -> None:
    st = society_game(ibg(), {0: ["Guild Hall", "Pub", "Trading House"]}, rubles=[0, 0])
    end_phase(st)
    play(st, "guild_hall 0 VP", "pub 1")  # 2 rubles left: no Trading House decision
    assert st.pending is None and st.rubles[0] == 2


def test_IBG_19_sycophant_is_an_aristocrat_counted_once() -> None:
    assert _final_aristocrats(ibg(), ["Sycophant", "Sycophant", "Author"]) == 3


def test_IBG_20_start_money_25_with_two_to_four_players() -> None:
    for n in (2, 3, 4):
        st = new_game(ibg(n), [f"P{i}" for i in range(n)], seed=n)
        assert st.rubles == [25] * n and "sack" not in st.tokens


def test_IBG_21_english_and_german_names() -> None:
    cat = ibg().catalogue
    for name, tid in (("Kolchose", "kolchose"), ("Schuldturm", "debtors_prison"), ("Markthalle", "trading_house"),
                      ("Hochstapler", "sycophant"), ("Oktoberrevolution", "october_revolution"),
                      ("Handelsgilde", "guild_hall"), ("Bürgermeister", "mayor"), ("Kaffeehaus", "coffee_house")):
        assert named(ibg(), name).id == tid
    assert cat.by_id["new_farmer"].de_guess  # GAP-05: the German name is unknown


def test_IBG_22_five_players_add_the_sack_symbol_card() -> None:
    rs = ibg(5)
    assert "sack" in rs.tokens and len(rs.tokens) == 5


def test_M2_13_no_bonus_with_module_2() -> None:
    reds = ["Author", "Administrator", "Warehouse Manager", "Secretary", "Controller", "Judge",
            "Mistress of Ceremonies", "Sycophant", "Abbot", "Weapon Master", "Chamber Maid", "Builder"]
    assert _final_aristocrats(module2(), reds) == 55


def test_IBG_18_bonuses_count_the_owners_tableau_at_scoring_duplicates_and_trading_cards() -> None:
    """IBG-18: the new Mariinsky Theater (+1 VP) and the Coffee House (+1 ruble) count every red card of
    their owner's tableau at the moment of the building scoring: a second Author counts again, the Mayor
    (a red trading card) counts too, and the other player's aristocrats count for nothing."""

    def building_score(reds: list[str]) -> tuple[int, int]:
        st = society_game(ibg(), {0: ["Mariinskij-Theater", "Coffee House", *reds], 1: ["Author", "Author"]})
        events = end_phase(st)
        return next((e["rubles"], e["vp"]) for e in events if e["type"] == "score" and e["seat"] == 0)

    rub1, vp1 = building_score(["Author"])
    assert building_score(["Author", "Author"]) == (rub1 + 1, vp1 + 1)
    assert building_score(["Author", "Author", "Mayor"]) == (rub1 + 2, vp1 + 2)
    assert building_score([]) == (rub1 - 1, vp1 - 1)
