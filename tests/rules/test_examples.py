"""The rulebooks' worked examples (seeds 000 and 001) as tests."""

from __future__ import annotations

import pytest

from rules import GameState, Ruleset, aristocrat_vp, legal_moves, new_game, parse_for, price
from rules.scoring import final_scoring as _final_scoring
from tests.rules.helpers import play, position, take_cards

SEATS = ["Konrad", "Chiye", "Giuliano", "Holger"]
FIRST_WORKERS = [
    "buy Lumberjack",
    "buy Lumberjack",
    "buy Gold Miner",
    "buy Gold Miner",
    "buy Fur Trapper",
    "buy Fur Trapper",
    "buy Fur Trapper",
    "buy Ship Builder",
]


def walkthrough() -> GameState:
    """Seed 001 "Der Ablauf des Spiels": Konrad (hammer), Chiye (bust), Giuliano (cathedral), Holger (hand)."""
    return new_game(
        Ruleset(edition=2, players=4),
        SEATS,
        seed=7,
        stacks={
            "workers": [
                "Lumberjack",
                "Lumberjack",
                "Gold Miner",
                "Gold Miner",
                "Fur Trapper",
                "Fur Trapper",
                "Fur Trapper",
                "Ship Builder",
            ],
            "buildings": [
                "Potemkin Village",
                "Market",
                "Market",
                "Firehouse",
                "Hospital",
                "Library",
                "Theater",
                "Theater",
            ],
            "aristocrats": ["Author", "Author", "Administrator", "Administrator", "Controller"],
            "trading": ["Wharf", "Senator", "Bank", "Abbot", "Weaving Mill"],
        },
        tokens={"hammer": 0, "bust": 1, "cathedral": 2, "hand": 3},
    )


def test_walkthrough_first_worker_phase() -> None:
    st = walkthrough()
    assert len(st.upper) == 8 and st.to_move == 0
    play(st, *FIRST_WORKERS)
    # "Konrad hat nach der Handwerker-Wertung 22 Rubel ... Chiye 22, Giuliano 21, Holger 20"
    assert st.rubles == [22, 22, 21, 20]
    assert st.phase_key == "buildings" and st.to_move == 2  # Giuliano holds the cathedral
    assert len(st.upper) == 8


def test_walkthrough_first_round() -> None:
    st = walkthrough()
    play(st, *FIRST_WORKERS)
    play(
        st,
        "buy Market",
        "take Potemkin Village",
        "take Library",
        "pass",
        "take Hospital",
        "pass",
        "pass",
        "buy Firehouse",
        "pass",
        "pass",
        "pass",
        "pass",
    )
    # "Giuliano hat nun 16 Rubel ... Holger 20 ... Konrad 22 ... Chiye nur noch 11"; Chiye 3 VP
    assert st.rubles == [22, 11, 16, 20]
    assert st.vp == [0, 3, 1, 0]
    # Aristocrats: 3 cards left over, 5 new ones; Chiye (bust) starts.
    assert st.phase_key == "aristocrats" and st.to_move == 1
    assert len(st.upper) == 8
    play(
        st,
        "buy Author",
        "buy Controller",
        "buy Administrator",
        "buy Administrator",
        "buy Author",
        "pass",
        "pass",
        "pass",
        "pass",
    )
    # Giuliano's Controller: 4 rubles and 1 VP at the aristocrat scoring.
    assert st.rubles[2] == 16 - 14 + 4
    assert st.vp[2] == 1 + 1
    # Trading phase: 3 buildings left, 5 trading cards dealt; Holger (hand) starts.
    assert st.phase_key == "trading" and st.to_move == 3
    assert len(st.upper) == 8
    play(
        st, "take Wharf", "take Senator", "take Bank", "take Abbot", "take Weaving Mill", "pass", "pass", "pass", "pass"
    )
    # End of the round: Market and both Theaters move down and cost 1 less; tokens move on:
    # "Konrad hat nun die Hand, Chiye den Hammer, Giuliano die Büste und Holger die Kathedrale".
    assert st.round == 2 and st.phase_key == "workers"
    cat = st.ruleset.catalogue
    assert sorted(cat.cards[c].id for c in st.lower) == ["market", "theater", "theater"]
    assert st.tokens == {"hand": 0, "hammer": 1, "bust": 2, "cathedral": 3}
    assert st.to_move == 1 and len(st.upper) == 5
    assert price(st, 0, cat.by_id["theater"], lower=True) == 19
    assert price(st, 0, cat.by_id["market"], lower=True) == 4


def test_final_scoring_example_first_edition() -> None:
    """Seed 000 "Beispiel einer Schlusswertung": 6 distinct aristocrats 21, 17 rubles 1, 52 + 22 = 74."""
    st = position(
        edition=1,
        tableau=[
            "Author",
            "Administrator",
            "Warehouse Manager",
            "Warehouse Manager",
            "Secretary",
            "Controller",
            "Judge",
        ],
        rubles=17,
    )
    st.vp[0] = 52
    assert aristocrat_vp(st, 0) == 21
    _final_scoring(st, [])
    assert st.vp[0] == 74
    assert st.final is not None and st.final[0]["rubles_vp"] == 1


def test_final_scoring_example_second_edition() -> None:
    """Seed 001: Giuliano's 8 aristocrats are 6 distinct (red trading cards count) = 21; 21 rubles = 2 VP, 1 left."""
    st = position(
        tableau=[
            "Author",
            "Author",
            "Administrator",
            "Builder",
            "Senator",
            "Warehouse Manager",
            "Warehouse Manager",
            "Controller",
        ],
        rubles=21,
    )
    assert aristocrat_vp(st, 0) == 21
    _final_scoring(st, [])
    assert st.vp[0] == 23 and st.rubles[0] == 1


def price_of(st: GameState, text: str) -> int:
    moves = {m.action: m.price for m in legal_moves(st)}
    return moves[parse_for(st, text)]


@pytest.mark.parametrize(
    ("edition", "tableau", "upper", "lower", "text", "expected"),
    [
        # seed 000 "Kostensenkungen": a third Market for 3
        (1, ["Market", "Market"], ["Market"], [], "buy Market", 3),
        # the Theater in the lower row for 19
        (1, [], [], ["Theater"], "buy Theater (lower)", 19),
        # lower row, one Theater owned, Carpenter Workshop: 20 - 3 = 17
        (1, ["Theater", "Carpenter Workshop"], [], ["Theater"], "buy Theater (lower)", 17),
        # Gold Smelter: Warehouse Manager for 9
        (1, ["Gold Smelter"], ["Warehouse Manager"], [], "buy Warehouse Manager", 9),
        # Carpenter Workshop: Firehouse for 10
        (1, ["Carpenter Workshop"], ["Firehouse"], [], "buy Firehouse", 10),
        # trading cards: Wharf over Ship Builder for 5 (12 - 7)
        (1, ["Ship Builder"], ["Wharf"], [], "buy Wharf over Ship Builder", 5),
        # St Isaac's Cathedral over a Market from the lower row with the Carpenter Workshop: 10 - 2 = 8
        (
            1,
            ["Market", "Carpenter Workshop"],
            [],
            ["St Isaac's Cathedral"],
            "buy St Isaac's Cathedral (lower) over Market",
            8,
        ),
        # the Senator for 1 (never below 1)
        (1, ["Secretary"], ["Senator"], [], "buy Senator over Secretary", 1),
        (1, ["Controller"], ["Senator"], [], "buy Senator over Controller", 1),
        # seed 001 p.11: Catherine Palace over a Market for 12
        (2, ["Market"], ["Catherine Palace"], [], "buy Catherine Palace over Market", 12),
        # seed 001 p.14: a Fur Trapper from the lower row with 2 owned costs 3
        (2, ["Fur Trapper", "Fur Trapper"], [], ["Fur Trapper"], "buy Fur Trapper (lower)", 3),
        # the Market in the lower row costs 4 (seed 001 "Karten verschieben")
        (2, [], [], ["Market"], "buy Market (lower)", 4),
        # seed 000: a 4th Lumberjack still costs 1
        (1, ["Lumberjack", "Lumberjack", "Lumberjack"], ["Lumberjack"], [], "buy Lumberjack", 1),
    ],
)
def test_price_examples(
    edition: int, tableau: list[str], upper: list[str], lower: list[str], text: str, expected: int
) -> None:
    st = position(edition=edition, tableau=tableau, upper=upper, lower=lower)
    assert price_of(st, text) == expected
    events = play(st, text)
    assert events[0]["price"] == expected


def test_action_phase_example_first_edition() -> None:
    """Seed 000 "Beispiel für den kompletten Ablauf einer Aktionsphase": a player who passed acts again;
    the actions end only when all four have passed in succession."""
    st = position(
        edition=1,
        players=4,
        phase=2,
        upper=["Administrator", "Administrator", "Secretary", "Ship Builder", "Author"],
        lower=["St Isaac's Cathedral"],
    )
    st.hands[2] = take_cards(st, ["Warehouse Manager"])
    st.rubles[1] = 3
    st.tokens["bust"] = 0
    play(
        st,
        "buy Administrator",
        "pass",
        "buy Administrator",
        "take Secretary",
        "take Ship Builder",
        "take St Isaac's Cathedral (lower)",
        "play Warehouse Manager",
        "pass",
        "pass",
        "pass",
    )
    assert st.phase_key == "aristocrats"  # three passes in succession are not enough
    play(st, "pass")
    assert st.phase_key == "trading"


def test_first_round_mandatory_worker_buys() -> None:
    """BG-02: in the very first worker phase each turn buys a worker (an option, on by default)."""
    st = new_game(Ruleset(edition=1, players=3), ["a", "b", "c"], seed=3)
    assert len(st.upper) == 6
    assert {m.action.kind for m in legal_moves(st)} == {"buy"}
    st2 = new_game(Ruleset(edition=1, players=3, mandatory_first_workers=False), ["a", "b", "c"], seed=3)
    assert {m.action.kind for m in legal_moves(st2)} == {"buy", "take", "pass"}
