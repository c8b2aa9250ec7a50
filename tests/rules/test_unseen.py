"""UI-05/06: what a seat cannot see, by stack, as counts (never the order)."""

from __future__ import annotations

from rules.view import unseen
from tests.rules.helpers import position, take_cards


def test_UI_05_06_unseen_cards_merge_each_stack_with_the_others_hidden_hands() -> None:
    st = position(players=3, upper=["Market"], rubles=30)
    st.hands[1] = take_cards(st, ["Customs House"])
    st.hands[2] = take_cards(st, ["Lumberjack"])
    mine = unseen(st, 1)
    assert sum(mine["buildings"].values()) == len(st.decks["buildings"])  # its own hand is not unseen
    assert sum(mine["workers"].values()) == len(st.decks["workers"]) + 1  # seat 2's Lumberjack
    assert unseen(st, None)["buildings"].get("customs_house", 0) >= 1
    reordered = st.copy()
    reordered.decks["workers"].reverse()
    assert unseen(reordered, 1) == mine  # counts only, never the order
