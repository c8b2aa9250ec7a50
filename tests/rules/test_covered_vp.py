"""Ruling AMB-17(e) with BQ-11, BQ-12, M2-03, M2-09: a card under the Money Collector's chip is the source of
no VP at all. A covered Guild Hall offers only 4 rubles (k = 0); a covered Pub or Trading House offers no
purchase; abilities that yield rubles stay. The legal moves and ``apply`` agree."""

from __future__ import annotations

import pytest

from rules import Action, GameState, RuleError, Ruleset, apply, legal_moves
from rules.autopass import default_action

from .helpers import play
from .society_helpers import end_phase, society_game


def banquet_and_module2(players: int = 2) -> Ruleset:
    return Ruleset(edition=2, players=players, modules=(1, 2))


def covered_game(cards: list[str], covered: str, rubles: int = 25) -> GameState:
    """Seat 0 owns ``cards`` with the Money Collector's chip on its ``covered`` one; the building phase."""
    st = society_game(banquet_and_module2(), {0: cards}, rubles=rubles)
    chip = next(c for c in st.tableaux[0] if st.cards[c].name_en == covered)
    st.ext["banquet"]["chip"] = [chip, 0]
    return st


def pending_of(st: GameState, seat: int = 0) -> str | None:
    return st.pending.kind if st.pending is not None and st.pending.seat == seat else None


def test_AMB_17_e_BQ_12_covered_guild_hall_offers_only_4_rubles() -> None:
    st = covered_game(["Guild Hall"], "Guild Hall")
    end_phase(st)
    assert pending_of(st) == "guild_hall"
    assert [m.action for m in legal_moves(st)] == [Action("guild_hall", amount=0)]
    assert default_action(st) == Action("guild_hall", amount=0)  # the absent player's too
    for k in (1, 4):
        with pytest.raises(RuleError) as e:
            apply(st, Action("guild_hall", amount=k))
        assert e.value.code == "guild_hall_no_vp"
    rubles = st.rubles[0]
    play(st, "guild_hall 0 VP")
    assert (st.rubles[0], st.vp[0]) == (rubles + 4, 0)


def test_AMB_17_e_BQ_12_uncovered_guild_hall_keeps_its_split() -> None:
    st = covered_game(["Guild Hall", "Lumberjack"], "Lumberjack")
    end_phase(st)
    assert [m.action.amount for m in legal_moves(st)] == [0, 1, 2, 3, 4]
    assert default_action(st) == Action("guild_hall", amount=4)


def test_AMB_17_e_BQ_12_covered_pub_offers_no_purchase() -> None:
    st = covered_game(["Pub"], "Pub")
    end_phase(st)
    assert pending_of(st) != "pub" and st.vp[0] == 0
    assert not any(m.action.kind == "pub" for m in legal_moves(st))


def test_AMB_17_e_BQ_12_a_second_uncovered_pub_sells_its_own_5_VP() -> None:
    st = covered_game(["Pub", "Pub"], "Pub")
    end_phase(st)
    assert pending_of(st) == "pub"
    assert [m.action.amount for m in legal_moves(st)] == [0, 1, 2, 3, 4, 5]
    with pytest.raises(RuleError) as e:
        apply(st, Action("pub", amount=6))
    assert e.value.code == "pub_amount"


def test_AMB_17_e_BQ_12_covered_trading_house_offers_no_purchase() -> None:
    st = covered_game(["Trading House"], "Trading House")
    end_phase(st)
    assert pending_of(st) != "trading_house" and st.vp[0] == 0 and st.rubles[0] == 25
    assert not any(m.action.kind == "trading_house" for m in legal_moves(st))


def test_AMB_17_e_BQ_12_covered_trading_house_refuses_a_purchase_asked_for_all_the_same() -> None:
    """Its decision opened for another Trading House of the seat: the covered one adds nothing (apply agrees
    with the legal moves even if the chip came onto it after the decision opened)."""
    st = covered_game(["Trading House", "Lumberjack"], "Lumberjack")
    end_phase(st)
    assert pending_of(st) == "trading_house"
    st.ext["banquet"]["chip"] = [next(c for c in st.tableaux[0] if st.cards[c].id == "trading_house"), 0]
    assert [m.action for m in legal_moves(st)] == [Action("trading_house", amount=0)]
    with pytest.raises(RuleError):
        apply(st, Action("trading_house", amount=1))
    play(st, "trading_house no")
    assert (st.rubles[0], st.vp[0]) == (25, 0)


def test_AMB_17_e_covered_pub_and_guild_hall_with_the_mayor_rubles_stay() -> None:
    """Rubles abilities stay: a covered Mayor still pays per blue card at the aristocrats' scoring."""
    st = covered_game(["Mayor", "Guild Hall", "Pub"], "Mayor")
    st.phase = [p.key for p in st.ruleset.phases].index("aristocrats")
    st.tokens[st.ruleset.phases[st.phase].token] = 0
    st.to_move = 0
    events = end_phase(st)
    score = next(e for e in events if e["type"] == "score" and e["seat"] == 0)
    assert score["rubles"] >= 2 and score["vp"] == 0


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_AMB_17_e_computer_players_take_the_covered_guild_halls_rubles(level: str) -> None:
    """The computer players (and the hint, the strong one's search) choose among the legal moves: 4 rubles."""
    from players.ai import choose

    st = covered_game(["Guild Hall", "Pub"], "Guild Hall")
    end_phase(st)
    assert choose(st, 0, level, 7, iterations=50) == Action("guild_hall", amount=0)


def test_AMB_17_e_covered_textile_factory_gives_no_vp_for_its_cloth_cards() -> None:
    """Its VP per cloth card are VP it is the source of (already so before AMB-17(e): ``card_income``)."""
    st = covered_game(["Textile Factory", "Shepherd", "Weaving Mill"], "Textile Factory")
    events = end_phase(st)
    assert next(e for e in events if e["type"] == "score" and e["seat"] == 0)["vp"] == 0
