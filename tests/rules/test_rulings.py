"""One or more tests for each base-game rule BG-01 … BG-16 (docs/reference.md), in their order."""

from __future__ import annotations

import random

import pytest

from rules import (
    Action,
    RuleError,
    Ruleset,
    apply,
    check,
    hand_limit,
    legal_moves,
    new_game,
    parse_for,
    view,
)
from rules.state import DRAWN
from tests.rules.helpers import play, position, take_cards


def texts(st) -> set[str]:  # type: ignore[no-untyped-def]
    from rules import format_action

    return {format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st)}


def rejects(st, text: str, code: str) -> None:  # type: ignore[no-untyped-def]
    before = st.to_json()
    with pytest.raises(RuleError) as e:
        apply(st, parse_for(st, text))
    assert e.value.code == code, e.value.message
    assert st.to_json() == before


# BG-01 Setup ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "dealt", "per_seat"), [(2, 4, [2, 2]), (3, 6, None), (4, 8, [1, 1, 1, 1])])
def test_setup(players: int, dealt: int, per_seat: list[int] | None) -> None:
    for seed in range(10):
        st = new_game(Ruleset(players=players), [str(i) for i in range(players)], seed=seed)
        assert st.rubles == [25] * players
        assert len(st.upper) == dealt and not st.lower
        counts = sorted(list(st.tokens.values()).count(s) for s in range(players))
        if per_seat is not None:
            assert counts == per_seat
        else:
            assert counts == [1, 1, 2]
        assert all(st.ruleset.catalogue.cards[c].deck == "workers" for c in st.upper)


# BG-02 First worker phase ------------------------------------------------------------------------
def test_first_worker_phase_forces_buys_until_two_each() -> None:
    st = new_game(Ruleset(players=2), ["a", "b"], seed=5)
    rejects(st, "pass", "must_buy_worker")
    card = st.ruleset.catalogue.cards[st.upper[0]]
    rejects(st, f"take {card.name_en}", "must_buy_worker")
    for _ in range(4):
        apply(st, legal_moves(st)[0].action)
    assert [len(t) for t in st.tableaux] == [2, 2]
    assert st.phase_key == "buildings"


# BG-03 A turn, passing and the end of the actions --------------------------------------------------
def test_pass_counts_for_one_turn_and_display_empty_ends_phase() -> None:
    st = position(players=2, upper=["Market"], lower=[])
    play(st, "pass")
    assert st.to_move == 1
    play(st, "buy Market")  # the last card: the display is empty, the actions end
    assert st.phase_key == "aristocrats"


def test_first_edition_actions_go_on_after_the_display_empties() -> None:
    """Seed 000 ends the actions only when all have passed in succession: with the display empty a
    player may still play from the hand."""
    st = position(edition=1, players=2, upper=["Market"], lower=[])
    st.hands[1] = take_cards(st, ["Hospital"])
    play(st, "pass", "buy Market")  # P1 buys the last card: the display is empty
    assert st.phase_key == "buildings" and st.to_move == 0
    assert [m.action.kind for m in legal_moves(st)] == ["pass"]
    play(st, "pass", "play Hospital")  # P1 plays from the hand: the passes start again
    assert st.phase_key == "buildings"
    play(st, "pass", "pass")
    assert st.phase_key == "aristocrats"


def test_all_pass_in_succession_ends_phase() -> None:
    st = position(players=3, upper=["Market", "Hospital"])
    play(st, "pass", "pass", "take Market", "pass", "pass")
    assert st.phase_key == "buildings"
    play(st, "pass")
    assert st.phase_key == "aristocrats"


# BG-04 Prices ----------------------------------------------------------------------------------------
def test_lower_row_discount_is_lost_when_taken_into_hand() -> None:
    st = position(players=2, lower=["Theater"], upper=["Market"], rubles=30)
    play(st, "take Theater (lower)", "pass")
    moves = {m.action: m.price for m in legal_moves(st)}
    assert moves[parse_for(st, "play Theater")] == 20


def test_price_never_below_one() -> None:
    st = position(players=2, tableau=["Market"] * 4 + ["Carpenter Workshop"], lower=["Market"], upper=["Hospital"])
    moves = {m.action: m.price for m in legal_moves(st)}
    assert moves[parse_for(st, "buy Market (lower)")] == 1


def test_too_few_rubles() -> None:
    st = position(players=2, upper=["Theater", "Market"], rubles=10)
    assert "buy Theater" not in texts(st)
    rejects(st, "buy Theater", "too_few_rubles")


# BG-05 Trading cards -------------------------------------------------------------------------------
def test_green_trading_card_needs_matching_symbol() -> None:
    st = position(players=2, tableau=["Lumberjack", "Shepherd"], upper=["Wharf", "Weaving Mill", "Market"])
    assert "buy Weaving Mill over Shepherd" in texts(st)
    assert not any(t.startswith("buy Wharf") for t in texts(st))
    rejects(st, "buy Wharf over Lumberjack", "no_target")
    rejects(st, "buy Weaving Mill over Lumberjack", "bad_target")
    rejects(st, "buy Weaving Mill", "needs_target")
    assert "take Wharf" in texts(st)  # without a target it can still be taken into hand


def test_czar_and_carpenter_takes_any_green_trading_card() -> None:
    st = position(players=2, tableau=["Czar and Carpenter"], upper=["Wharf", "Market"])
    assert "buy Wharf over Czar & Carpenter" in texts(st)
    events = play(st, "buy Wharf over Czar & Carpenter")
    assert events[0]["price"] == 12 - 8
    cat = st.ruleset.catalogue
    assert [cat.cards[c].id for c in st.tableaux[0]] == ["wharf"]
    assert cat.cards[st.discard[-1]].id == "czar_and_carpenter"


def test_trading_card_never_displaces_trading_card() -> None:
    st = position(players=2, tableau=["Bank"], upper=["Hermitage", "Market"])
    assert not any(t.startswith("buy Hermitage") for t in texts(st))
    rejects(st, "buy Hermitage over Bank", "no_target")


def test_potjomkins_village_counts_six() -> None:
    st = position(edition=1, players=2, tableau=["Potjomkin's Village"], upper=["Bank", "Market"])
    moves = {m.action: m.price for m in legal_moves(st)}
    assert moves[parse_for(st, "buy Bank over Potjomkin's Village")] == 13 - 6


def test_not_trading_card_cannot_displace() -> None:
    st = position(players=2, tableau=["Market"], upper=["Hospital", "Library"])
    rejects(st, "buy Hospital over Market", "not_trading")


# BG-06 Hand limit and Warehouse ---------------------------------------------------------------------
def test_hand_limit_and_warehouse() -> None:
    st = position(players=2, hand=["Market", "Market", "Market"], upper=["Hospital", "Library"])
    assert hand_limit(st, 0) == 3
    rejects(st, "take Hospital", "hand_full")
    st = position(players=2, tableau=["Warehouse"], hand=["Market", "Market", "Market"], upper=["Hospital", "Bank"])
    assert hand_limit(st, 0) == 4
    play(st, "take Hospital")
    assert len(st.hands[0]) == 4
    # Losing the Warehouse forces no discard, but nothing can be taken while at or over the limit.
    st.to_move = 0
    play(st, "play Bank" if False else "pass")
    st.hands[0].append(take_cards(st, ["Harbor"])[0])
    st.to_move = 0
    play(st, "play Harbor over Warehouse")
    assert len(st.hands[0]) == 4 and hand_limit(st, 0) == 3
    st.to_move = 0
    rejects(st, "take Bank", "hand_full")


# BG-07 Scoring -----------------------------------------------------------------------------------------
def test_scoring_by_colour_with_trading_cards() -> None:
    st = position(players=2, phase=0, tableau=["Lumberjack", "Wharf", "Market", "Author"], upper=["Market"])
    st.rubles[0] = 0
    play(st, "pass", "pass")  # worker scoring: Lumberjack 3 + Wharf 6 rubles and 1 VP
    assert st.rubles[0] == 9 and st.vp[0] == 1
    play(st, "pass", "pass")  # building scoring: Market 1 VP
    assert st.vp[0] == 2


def test_no_scoring_after_trading_phase() -> None:
    st = position(players=2, phase=3, tableau=["Lumberjack", "Market", "Author"], upper=["Market"])
    before = (list(st.rubles), list(st.vp))
    play(st, "pass", "pass")
    assert (st.rubles, st.vp) == before


# BG-08 Observatory ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("edition", [1, 2])
def test_observatory(edition: int) -> None:
    st = position(edition=edition, players=2, tableau=["Observatory", "Market"], upper=["Hospital"], rubles=30)
    assert "observe trading" in texts(st)
    top = st.decks["trading"][-1]
    events = play(st, "observe trading")
    assert events[0]["type"] == "observe"
    drawn = st.ruleset.catalogue.cards[top]
    assert st.pending is not None and st.pending.card == top
    assert view(st, 1)["pending"]["card"] == drawn.id  # shown to everyone
    options = texts(st)
    assert f"discard {drawn.name_en}" in options and f"take {drawn.name_en}" in options
    play(st, f"discard {drawn.name_en}")
    assert st.discard[-1] == top and st.to_move == 1
    # Face down: not again this phase, no VP at scoring, cannot be displaced.
    obs = st.tableaux[0][0]
    assert obs in st.face_down
    play(st, "pass")
    assert "observe trading" not in texts(st)
    play(st, "pass", "pass")
    assert st.phase_key == "aristocrats"
    assert st.vp[0] == 1  # the Market only
    assert (obs in st.face_down) == (edition == 2)  # 1st edition: face up at the next phase


def test_observatory_buy_the_drawn_card_without_lower_row_discount() -> None:
    st = position(players=2, tableau=["Observatory"], upper=["Hospital"], rubles=30)
    st.decks["buildings"].append(take_cards(st, ["Library"])[0])
    play(st, "observe buildings")
    moves = {m.action: m.price for m in legal_moves(st)}
    assert moves[parse_for(st, "buy Library")] == 17
    play(st, "buy Library")
    assert st.rubles[0] == 13


def test_observatory_cannot_take_last_card_and_only_in_building_phase() -> None:
    st = position(players=2, tableau=["Observatory"], upper=["Hospital"])
    st.discard.extend(st.decks["aristocrats"][1:])
    st.decks["aristocrats"] = st.decks["aristocrats"][:1]
    assert "observe aristocrats" not in texts(st)
    rejects(st, "observe aristocrats", "stack_too_small")
    st = position(players=2, phase=2, tableau=["Observatory"], upper=["Hospital"])
    rejects(st, "observe trading", "observatory_unavailable")


def test_face_down_observatory_cannot_be_displaced() -> None:
    st = position(players=2, tableau=["Observatory"], upper=["Hospital"])
    st.hands[0] = take_cards(st, ["Bank"])
    play(st, "observe workers")
    card = st.ruleset.catalogue.cards[st.pending.card]  # type: ignore[union-attr]
    play(st, f"discard {card.name_en}", "pass")
    rejects(st, "play Bank over Observatory", "no_target")


def test_observatory_follow_up_must_answer() -> None:
    st = position(players=2, tableau=["Observatory"], upper=["Hospital"])
    play(st, "observe workers")
    with pytest.raises(RuleError) as e:
        check(st, Action("pass"))
    assert e.value.code == "wrong_decision"
    with pytest.raises(RuleError) as e:
        check(st, Action("buy", "hospital", 0))
    assert e.value.code == "wrong_decision"
    assert all(m.action.row == DRAWN for m in legal_moves(st))


# BG-09 Pub ------------------------------------------------------------------------------------------------
def test_pub_after_building_scoring_in_start_player_order() -> None:
    st = position(players=2, tableau=["Pub"], upper=["Hospital"], rubles=30)
    st.tableaux[1] = take_cards(st, ["Pub"])
    st.rubles[1] = 5
    st.tokens["cathedral"] = 1
    play(st, "pass", "pass")
    assert st.pending is not None and st.pending.kind == "pub" and st.pending.seat == 1
    assert texts(st) == {"pub 0", "pub 1", "pub 2"}
    play(st, "pub 2")
    assert st.vp[1] == 2 and st.rubles[1] == 1
    assert st.pending is not None and st.pending.seat == 0
    assert max(m.action.amount for m in legal_moves(st)) == 5
    with pytest.raises(RuleError) as e:
        check(st, Action("pub", amount=6))
    assert e.value.code == "pub_amount"
    play(st, "pub 5")
    assert st.vp[0] == 5 and st.rubles[0] == 20 and st.pending is None
    assert st.phase_key == "aristocrats"


def test_two_pubs_buy_up_to_ten() -> None:
    st = position(players=2, tableau=["Pub", "Pub"], upper=["Hospital"], rubles=30)
    play(st, "pass", "pass")
    assert max(m.action.amount for m in legal_moves(st)) == 10
    play(st, "pub 10")
    assert st.vp[0] == 10 and st.rubles[0] == 10


def test_pub_skipped_without_money() -> None:
    st = position(players=2, tableau=["Pub"], upper=["Hospital"], rubles=1)
    play(st, "pass", "pass")
    assert st.pending is None and st.phase_key == "aristocrats"


# BG-10 Mariinsky Theater and Tax Man ---------------------------------------------------------------------
@pytest.mark.parametrize(("edition", "theater", "rubles", "vp"), [(1, "Mariinskij-Theater", 2, 0),
                                                                  (2, "Mariinsky Theater", 0, 2)])
def test_mariinsky_rubles_per_aristocrat_then_vp_per_red_card(edition: int, theater: str, rubles: int,
                                                              vp: int) -> None:
    """1st edition: a ruble per aristocrat at building scoring; 2nd edition: a VP per red card."""
    st = position(edition=edition, players=2, tableau=[theater, "Author", "Senator", "Lumberjack"],
                  upper=["Hospital"], rubles=0)
    play(st, "pass", "pass")
    assert (st.rubles[0], st.vp[0]) == (rubles, vp)


def test_tax_man() -> None:
    st = position(
        players=2, phase=2, tableau=["Tax Man", "Lumberjack", "Wharf", "Market"], upper=["Hospital"], rubles=0
    )
    play(st, "pass", "pass")
    assert st.rubles[0] == 2


# BG-11 New cards --------------------------------------------------------------------------------------------
def test_refill_to_eight_and_none_when_nothing_taken() -> None:
    st = position(players=2, phase=1, upper=["Market", "Hospital", "Library"], lower=["Author"])
    play(st, "pass", "pass")
    assert len(st.upper) + len(st.lower) == 8
    st = position(players=2, phase=1, upper=["Market"] * 4, lower=["Author"] * 4)
    play(st, "pass", "pass")
    assert len(st.upper) == 4


# BG-12 End of a round --------------------------------------------------------------------------------------
def test_end_of_round_rows_and_tokens_two_players() -> None:
    st = position(players=2, phase=3, upper=["Market", "Hospital"], lower=["Author"])
    st.tokens = {"hammer": 0, "cathedral": 0, "bust": 1, "hand": 1}
    author = st.lower[0]
    play(st, "pass", "pass")
    assert author in st.discard
    cat = st.ruleset.catalogue
    assert sorted(cat.cards[c].id for c in st.lower) == ["hospital", "market"]
    assert st.tokens == {"hammer": 1, "cathedral": 1, "bust": 0, "hand": 0}
    assert st.to_move == 1 and st.round == 3


# BG-13 End of the game ---------------------------------------------------------------------------------------
def test_last_card_of_a_stack_ends_the_game_after_the_round() -> None:
    st = position(players=2, phase=2, upper=["Market"], lower=[])
    keep = 3
    st.discard.extend(st.decks["trading"][keep:])
    st.decks["trading"] = st.decks["trading"][:keep]
    events = play(st, "pass", "pass")  # aristocrat scoring, then the trading phase deals the last 3
    assert any(e["type"] == "end_triggered" for e in events)
    assert st.ending and not st.finished and st.phase_key == "trading"
    events = play(st, "pass", "pass")
    assert st.finished and st.final is not None
    assert events[-1]["type"] == "game_end"
    with pytest.raises(RuleError) as e:
        check(st, Action("pass"))
    assert e.value.code == "game_over"
    assert legal_moves(st) == []


# BG-14 Final scoring and ties -----------------------------------------------------------------------------------
def test_ties_go_to_rubles_left_then_shared() -> None:
    from rules.scoring import final_scoring as _final_scoring

    st = position(players=3, rubles=27)
    st.rubles[1], st.rubles[2] = 25, 17
    st.vp = [10, 10, 11]
    _final_scoring(st, [])
    assert st.vp == [12, 12, 12]
    assert st.rubles == [7, 5, 7]
    assert st.winners == [0, 2]


def test_hand_penalty_and_distinct_aristocrats_capped() -> None:
    from rules.scoring import final_scoring as _final_scoring

    many = [
        "Author",
        "Administrator",
        "Warehouse Manager",
        "Secretary",
        "Controller",
        "Judge",
        "Mistress of Ceremonies",
        "Abbot",
        "Senator",
        "Czarina",
        "Admiral",
        "Patriarch",
    ]
    st = position(players=2, tableau=many, hand=["Market", "Library"], rubles=9)
    _final_scoring(st, [])
    assert st.final is not None and st.final[0]["aristocrats"] == 55
    assert st.vp[0] == 55 - 10


# BG-15 Information ------------------------------------------------------------------------------------------------
def test_views_hide_hands_and_optionally_money() -> None:
    st = position(players=2, hand=["Market"], upper=["Hospital"], open_money=False)
    v1 = view(st, 1)
    assert v1["players"][0]["hand"] is None and v1["players"][0]["hand_count"] == 1
    assert v1["players"][0]["rubles"] is None and v1["players"][1]["rubles"] == 25
    assert view(st, 0)["players"][0]["hand"] == ["market"]
    play(st, "buy Hospital")  # what a player spent adds up to their money: hidden too
    assert "spent" not in view(st, 1)["players"][0]["stats"]
    assert view(st, 0)["players"][0]["stats"]["spent"] == 14
    assert "decks" not in v1 and v1["stacks"]["workers"] == len(st.decks["workers"])
    st2 = position(players=2, hand=["Market"], upper=["Hospital"], open_hands=True)
    assert view(st2, 1)["players"][0]["hand"] == ["market"]
    assert view(st2, None)["players"][0]["rubles"] == 25


# Whole games ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("edition", [1, 2])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end(edition: int, players: int) -> None:
    for seed in range(3):
        st = new_game(Ruleset(edition=edition, players=players), [f"p{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not st.finished:
            apply(st, rng.choice(legal_moves(st)).action)
            steps += 1
            assert steps < 5000
        assert st.winners and st.final is not None
        for s in range(players):
            assert st.vp[s] == sum(st.vp_by_source[s].values())
