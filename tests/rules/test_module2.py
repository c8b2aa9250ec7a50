"""Module 2 "In bester Gesellschaft" in the 2nd edition, with and without the Market
(M2-01 ... M2-13; X-04, X-05, X-07, X-08, X-09). Each test names the item it checks."""

from __future__ import annotations

from collections import Counter

import pytest

from rules import Action, GameState, RuleError, Ruleset, apply, catalogue, legal_moves, view
from rules.actions import format_action, parse_action
from rules.autopass import default_action
from rules.describe import describe
from rules.expansions.society import MODULE2_EXPANSION
from rules.hooks import Shape
from rules.record import parse_for
from rules.ruleset import BASE_PHASES, BASE_TOKENS

from .helpers import end_phase, module2, play, society_game

CARDS = ("trading_house", "coffee_house", "debtors_prison", "sycophant", "october_revolution", "textile_factory",
         "guild_hall", "university", "merchant", "lieutenant_kije", "mayor")


def texts(st: GameState) -> set[str]:
    return {format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st)}


def score_of(events: list[dict], seat: int) -> tuple[int, int]:
    e = next(e for e in events if e["type"] == "score" and e["seat"] == seat)
    return e["rubles"], e["vp"]


@pytest.mark.parametrize("market", [False, True])
def test_M2_01_twelve_cards_shuffled_in_by_their_backs(market: bool) -> None:
    rs = module2(3, market)
    cat = rs.catalogue
    base = Counter(cat.cards[c].id for d in rs.decks for c in cat.deck_cards(d))
    assert sum(base[t] for t in CARDS) == 12
    assert {cat.by_id[t].deck for t in CARDS} == {"buildings", "aristocrats", "trading"}
    assert base["new_farmer"] == base["kolchose"] == 0  # 1st edition only
    assert all(cat.markets[c] is None for c in range(len(cat.cards)) if cat.cards[c].id in CARDS)  # GAP-16


def test_M2_01_first_edition_refused() -> None:
    with pytest.raises(ValueError, match="with the 1st edition, play In bester Gesellschaft"):
        Ruleset(edition=1, players=3, modules=(2,))


def test_M2_02_coffee_house_counts_every_red_card() -> None:
    st = society_game(module2(), {0: ["Coffee House", "Sycophant", "Author", "Author", "Merchant"]})
    assert score_of(end_phase(st), 0) == (4, 0)


def test_M2_03_trading_house_after_building_scoring_default_no() -> None:
    st = society_game(module2(), {0: ["Trading House"]}, rubles=[3, 25])
    end_phase(st)
    assert st.pending is not None and st.pending.kind == "trading_house"
    assert default_action(st) == Action("trading_house", amount=0)
    play(st, "trading_house yes")
    assert (st.rubles[0], st.vp[0], st.vp_by_source[0]) == (0, 2, {"trading_house": 2})


def test_M2_04_debtors_prison_pick_buy_face_down_until_next_round() -> None:
    st = society_game(module2(), {0: ["Debtor's Prison", "Market"]}, discard=["Bank", "Lumberjack"],
                      hand=["Harbor"], rubles=30)
    assert "play Harbor over Debtor's Prison" in texts(st)
    assert "prison Bank" in texts(st) and "prison Lumberjack" in texts(st)
    play(st, "prison Bank")
    assert st.pending is not None and st.pending.kind == "prison"
    assert [st.cards[c].id for c in st.discard] == ["lumberjack"]
    assert view(st, 1)["pending"]["card"] == "bank"  # shown to all
    assert texts(st) == {"buy Bank over Market", "take Bank", "discard Bank"}
    play(st, "buy Bank over Market")  # 13 - 5: no lower-row discount
    assert st.rubles[0] == 30 - 8
    prison = st.tableaux[0][0]
    assert prison in st.face_down
    st.to_move = 0
    assert not any(m.action.target == "debtors_prison" for m in legal_moves(st))  # cannot be displaced
    assert not any(m.action.kind == "prison" for m in legal_moves(st))  # once
    events = end_phase(st)
    assert score_of(events, 0) == (5, 1)  # the Bank; no VP for the face-down Debtor's Prison
    assert prison in st.face_down and st.phase_key == "aristocrats"  # 2nd edition: face up next round


def test_M2_04_put_back_on_top_take_into_hand_and_when_not_offered() -> None:
    st = society_game(module2(), {0: ["Debtor's Prison"]}, discard=["Bank", "Lumberjack"])
    play(st, "prison Bank")
    assert default_action(st) == parse_for(st, "discard Bank")  # put it back
    events = play(st, "discard Bank")
    assert st.cards[st.discard[-1]].id == "bank"  # on top
    assert describe(events[0], st.seats, 2, "en") == "P0 put Bank back on the discard pile."
    assert describe(events[0], st.seats, 2, "de") == "P0 legt Bank auf den Ablagestapel zurück."
    st = society_game(module2(), {0: ["Debtor's Prison"]}, discard=["Bank"])
    play(st, "prison Bank", "take Bank")
    assert [st.cards[c].id for c in st.hands[0]] == ["bank"]
    assert not any(m.action.kind == "prison" for m in legal_moves(society_game(module2(), {0: ["Debtor's Prison"]})))
    st = society_game(module2(), {0: ["Debtor's Prison"]}, discard=["Bank"], phase="aristocrats")
    assert not any(m.action.kind == "prison" for m in legal_moves(st))  # building phase only
    with pytest.raises(RuleError) as e:
        apply(st, Action("prison", "bank"))
    assert e.value.code == "prison_unavailable"
    st = society_game(module2(), {0: ["Debtor's Prison"]}, discard=["Bank"])
    with pytest.raises(RuleError) as e:
        apply(st, Action("prison", "harbor"))
    assert e.value.code == "not_in_discard"


def test_M2_04_face_up_at_the_start_of_the_next_round() -> None:
    st = society_game(module2(), {0: ["Debtor's Prison"]}, discard=["Bank"])
    play(st, "prison Bank", "discard Bank")
    prison = st.tableaux[0][0]
    end_phase(st)
    end_phase(st)
    assert st.phase_key == "trading" and prison in st.face_down
    end_phase(st)
    assert st.phase_key == "workers" and prison not in st.face_down


def test_M2_04_with_the_market_a_question_mark_card_asks_for_its_good() -> None:
    st = society_game(module2(2, market=True), {0: ["Debtor's Prison"]}, discard=["Czar & Carpenter"])
    play(st, "prison Czar & Carpenter", "buy Czar & Carpenter")
    assert st.pending is not None and st.pending.kind == "good"


def test_M2_05_sycophants_pay_after_the_income_or_discard() -> None:
    # 0 rubles before the scoring: the Author's ruble pays for one Sycophant
    st = society_game(module2(), {0: ["Sycophant", "Sycophant", "Author"]}, phase="aristocrats", rubles=[0, 5])
    events = end_phase(st)
    assert score_of(events, 0) == (1, 0)
    assert st.pending is not None and st.pending.kind == "sycophant"
    assert texts(st) == {"sycophant keep 1", "sycophant keep 0"}
    assert default_action(st) == Action("sycophant", amount=1)  # keep if affordable
    events = play(st, "sycophant keep 1")
    assert st.rubles[0] == 0
    assert [st.cards[c].id for c in st.tableaux[0]].count("sycophant") == 1
    assert st.cards[st.discard[-1]].id == "sycophant"
    assert describe(events[0], st.seats, 2, "en") == "P0 keeps 1 Sycophant(s) for 1 ruble and discards 1."
    assert describe(events[0], st.seats, 2, "de") == "P0 behält 1 Hochstapler für 1 Rubel und wirft 1 ab."


def test_M2_05_who_cannot_pay_discards_at_once_from_the_bust_holder() -> None:
    st = society_game(module2(), {0: ["Sycophant"], 1: ["Sycophant"]}, phase="aristocrats", rubles=[0, 3],
                      start=1)
    events = end_phase(st)
    assert st.pending is not None and (st.pending.kind, st.pending.seat) == ("sycophant", 1)
    play(st, "sycophant keep 1")
    assert [e for e in events if e["type"] == "sycophant"] == []  # seat 0 comes after the Bust holder
    assert not any(st.cards[c].id == "sycophant" for c in st.tableaux[0])
    assert st.rubles == [0, 2] and st.phase_key == "trading"


def test_M2_06_sycophant_counts_as_aristocrat_and_may_be_displaced() -> None:
    st = society_game(module2(), {0: ["Mariinsky Theater", "Sycophant", "Author"]})
    assert score_of(end_phase(st), 0) == (0, 2)
    st = society_game(module2(), {0: ["Sycophant"]}, hand=["Merchant"], phase="aristocrats")
    assert "play Merchant over Sycophant" in texts(st)
    assert next(m.price for m in legal_moves(st) if m.action.target == "sycophant") == 5


def test_M2_07_october_revolution_any_worker_6_rubles_3_VP_no_symbol() -> None:
    cat = module2().catalogue
    t = cat.by_id["october_revolution"]
    assert (t.cost, t.rubles, t.vp, t.symbols) == (15, 6, 3, frozenset())
    st = society_game(module2(), {0: ["Ship Builder"]}, hand=["October Revolution"], phase="workers")
    assert "play October Revolution over Ship Builder" in texts(st)
    st = society_game(module2(), {0: ["Textile Factory", "October Revolution", "Shepherd"]})
    assert score_of(end_phase(st), 0) == (0, 2)  # only the Shepherd (AMB-16)


def test_M2_08_textile_factory_counts_cloth_cards() -> None:
    st = society_game(module2(), {0: ["Textile Factory", "Shepherd", "Weaving Mill", "Czar & Carpenter",
                                      "Lumberjack"]})
    assert score_of(end_phase(st), 0) == (0, 6)


def test_M2_09_guild_hall_split_and_default_4_VP() -> None:
    st = society_game(module2(), {0: ["Guild Hall"]})
    end_phase(st)
    assert st.pending is not None and st.pending.kind == "guild_hall"
    assert default_action(st) == Action("guild_hall", amount=4)
    with pytest.raises(RuleError) as e:
        apply(st, Action("guild_hall", amount=5))
    assert e.value.code == "guild_hall_split"
    play(st, "guild_hall 1 VP")
    assert (st.rubles[0], st.vp[0]) == (28, 1)


def test_M2_10_M2_11_university_merchant_kije_mayor() -> None:
    st = society_game(module2(), {0: ["University"]})
    assert score_of(end_phase(st), 0) == (0, 6)
    st = society_game(module2(), {0: ["Merchant", "Lieutenant Kijé", "Mayor", "Market", "Bank", "Pub"]},
                      phase="aristocrats")
    assert score_of(end_phase(st), 0) == (3 + 3, 3)


def test_M2_12_debtors_prison_removed_with_module_1() -> None:
    shape = Shape(edition=2, players=3, catalogue=catalogue(2), phases=list(BASE_PHASES), decks=[],
                  tokens=list(BASE_TOKENS), display_size=8, active=frozenset({"module1", "module2"}))
    MODULE2_EXPANSION.configure(shape)
    assert "debtors_prison" in shape.removed


@pytest.mark.parametrize(
    "text",
    ["guild_hall 3 VP", "guild_hall 0 VP", "trading_house yes", "trading_house no", "sycophant keep 2",
     "sycophant keep 0", "prison Bank", "prison Ship Builder [fish]"],
)
def test_X_09_notation_round_trips(text: str) -> None:
    cat = module2(2, market=True).catalogue
    assert format_action(parse_action(text, cat), cat) == text


def test_X_09_notation_reads_short_and_german_forms() -> None:
    cat = module2().catalogue
    assert parse_action("guild_hall 2", cat) == Action("guild_hall", amount=2)
    assert parse_action("trading_house ja", cat) == Action("trading_house", amount=1)
    assert parse_action("sycophant 1", cat) == Action("sycophant", amount=1)
    assert parse_action("prison Bank", cat) == Action("prison", "bank")


def test_X_07_a_decision_answered_when_none_is_open_is_refused_by_name() -> None:
    st = society_game(module2(), {0: ["Guild Hall"]})
    for text in ("guild_hall 4 VP", "trading_house yes", "sycophant keep 1"):
        with pytest.raises(RuleError) as e:
            apply(st, parse_for(st, text))
        assert e.value.code == "not_pending" and e.value.params["kind"] == text.split()[0]


def test_M2_04_a_wrong_answer_names_the_debtors_prison_decision() -> None:
    st = society_game(module2(), {0: ["Debtor's Prison"]}, discard=["Bank", "Lumberjack"])
    play(st, "prison Bank")
    with pytest.raises(RuleError) as e:
        apply(st, parse_for(st, "take Lumberjack"))
    assert e.value.code == "wrong_decision"
    assert "put back Bank from the Debtor's Prison" in e.value.message
