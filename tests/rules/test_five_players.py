"""Five players without the Market, with In bester Gesellschaft in the 1st edition
(P5-04 ... P5-12; AMB-09). Each test names the item it checks."""

from __future__ import annotations

import pytest

from rules import Ruleset, apply, legal_moves, new_game
from rules.describe import describe

from .helpers import end_phase, ibg, society_game

SEATS = [f"P{i}" for i in range(5)]


def test_P5_04_five_players_without_the_market_need_new_society() -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        Ruleset(edition=1, players=5)
    with pytest.raises(ValueError, match="2 to 4 players"):
        Ruleset(edition=1, players=5, expansions=("new_society_replacements_only",))
    with pytest.raises(ValueError, match="2 to 4 players"):
        Ruleset(edition=2, players=5, modules=(2,))
    with pytest.raises(ValueError, match="2 to 5 players"):
        Ruleset(edition=1, players=6, expansions=("new_society",))
    assert ibg(5).players == 5


@pytest.mark.parametrize("seed", range(5))
def test_P5_05_P5_06_one_symbol_card_each_and_the_sack_holder_gets_27(seed: int) -> None:
    st = new_game(ibg(5), SEATS, seed=seed)
    assert sorted(st.tokens) == sorted(["hammer", "cathedral", "bust", "hand", "sack"])
    assert sorted(st.tokens.values()) == [0, 1, 2, 3, 4]
    sack = st.tokens["sack"]
    assert st.rubles == [27 if s == sack else 25 for s in range(5)]


def test_P5_07_the_sack_holder_is_never_start_player() -> None:
    rs = ibg(5)
    assert "sack" not in {p.token for p in rs.phases}


def test_P5_08_sack_VP_at_the_start_of_the_first_workers_phase() -> None:
    st = new_game(ibg(5), SEATS, seed=2)
    sack = st.tokens["sack"]
    assert st.vp == [2 if s == sack else 0 for s in range(5)]
    assert st.vp_by_source[sack] == {"sack": 2}


def test_P5_08_P5_10_sack_VP_each_workers_phase_to_its_holder_after_the_tokens_moved_two_seats() -> None:
    st = society_game(ibg(5), phase="trading", round_=1)
    before = dict(st.tokens)
    events = end_phase(st)
    assert st.tokens == {tok: (s + 2) % 5 for tok, s in before.items()}  # P5-10
    sack = st.tokens["sack"]
    ev = next(e for e in events if e["type"] == "sack")
    assert ev == {"type": "sack", "seat": sack, "vp": 2}
    assert st.vp[sack] == 2 and st.phase_key == "workers"
    assert describe(ev, SEATS, 1, "en") == f"P{sack} holds the Sack: +2 VP."
    # P5-12 (revised text): the 2 rubles are paid only once, at the start
    assert st.rubles == [25] * 5


def test_P5_08_no_sack_VP_at_other_phases() -> None:
    st = society_game(ibg(5), phase="workers", round_=2)
    events = end_phase(st)
    assert st.phase_key == "buildings" and not any(e["type"] == "sack" for e in events)


def test_P5_09_ten_workers_first_then_refills_to_eight() -> None:
    st = new_game(ibg(5), SEATS, seed=4)
    assert len(st.upper) == 10 and all(st.cards[c].deck == "workers" for c in st.upper)
    assert ibg(5).display_size == 8
    # all ten are bought under the mandatory rule (BG-02): every first turn buys a worker
    bought = 0
    while st.round == 1 and st.phase == 0:
        moves = legal_moves(st)
        buy = next((m for m in moves if m.action.kind == "buy"), None)
        if buy is None:
            break
        apply(st, buy.action)
        bought += 1
    assert bought == 10 and not st.upper and not st.lower
    while st.phase_key == "workers":  # 1st edition: an empty display does not end the phase
        apply(st, legal_moves(st)[-1].action)
    assert len(st.upper) + len(st.lower) == 8


def test_P5_11_end_of_round_otherwise_unchanged() -> None:
    st = society_game(ibg(5), upper=["Author"], lower=["Lumberjack"], phase="trading", round_=1)
    lower = list(st.lower)
    upper = list(st.upper)
    end_phase(st)
    assert all(c in st.discard for c in lower)
    assert st.lower == upper and len(st.upper) == 8 - len(upper)
