"""Pass modes (for games played over hours and days)."""

from __future__ import annotations

import pytest

from rules import Action, Ruleset, new_game
from rules.autopass import AutoPass, arm, default_action, due, expired, only_pass
from tests.rules.helpers import play, position, take_cards


def test_pass_until_display_changes() -> None:
    st = position(players=3, upper=["Market", "Hospital", "Library"], rubles=30)
    st.hands[1] = take_cards(st, ["Customs House"])
    ap = arm(st, "display")
    assert due(st, 0, ap)
    play(st, "pass")
    assert not due(st, 0, ap)  # seat 1 is to move
    play(st, "play Customs House", "pass")  # playing from hand leaves the display as it was
    assert st.to_move == 0 and due(st, 0, ap)


def test_display_mode_expires_when_a_card_is_taken() -> None:
    st = position(players=3, upper=["Market", "Hospital", "Library"], rubles=30)
    ap = arm(st, "display")
    play(st, "pass", "take Market")
    assert expired(st, ap)
    play(st, "pass")
    assert st.to_move == 0 and not due(st, 0, ap)


def test_UI_08_display_mode_ends_when_an_opponent_uses_a_card_action() -> None:
    """Yucata: "pass until the display changes" also ends when an opponent uses a card action (here the
    Observatory), even if the display stays as it was."""
    st = position(players=2, tableau=["Observatory"], upper=["Hospital", "Library"], rubles=30)
    ap = arm(st, "display")  # set by seat 1 while seat 0 is to move
    assert not expired(st, ap)
    play(st, "observe trading")
    drawn = st.ruleset.catalogue.cards[st.pending.card] if st.pending else None
    assert drawn is not None
    play(st, f"discard {drawn.name_en}")
    assert st.to_move == 1 and tuple(sorted(st.upper + st.lower)) == ap.display  # the display is unchanged ...
    assert expired(st, ap) and not due(st, 1, ap)  # ... yet the mode is over
    assert AutoPass.from_json(ap.to_json()) == ap


def test_phase_mode_lasts_for_the_phase() -> None:
    st = position(players=3, upper=["Market", "Hospital", "Library"], rubles=30)
    ap = arm(st, "phase")
    play(st, "pass", "take Market", "pass")
    assert due(st, 0, ap)
    play(st, "pass", "pass", "pass")
    assert st.phase_key == "aristocrats" and expired(st, ap)


def test_turn_mode_and_json() -> None:
    st = position(players=2, upper=["Market"])
    ap = arm(st, "turn")
    assert due(st, 0, ap)
    assert AutoPass.from_json(ap.to_json()) == ap
    with pytest.raises(ValueError):
        arm(st, "forever")


def test_only_pass() -> None:
    st = position(players=2, upper=["Theater"], rubles=3, hand=["Market", "Market", "Market"])
    st.rubles[0] = 0
    assert only_pass(st)
    st = position(players=2, upper=["Market"], rubles=30)
    assert not only_pass(st)


def test_default_action() -> None:
    st = new_game(Ruleset(players=2), ["a", "b"], seed=2)
    a = default_action(st)  # first worker phase: the cheapest worker must be bought
    assert a.kind == "buy" and st.cards[st.upper[0]].deck == "workers"
    assert min(st.cards[c].cost for c in st.upper) == st.ruleset.catalogue.by_id[a.card].cost
    st = position(players=2, tableau=["Observatory"], upper=["Market"])
    assert default_action(st).kind == "pass"
    play(st, "observe workers")
    assert default_action(st).kind == "discard"
    st = position(players=2, tableau=["Pub"], upper=["Hospital"], rubles=9)
    play(st, "pass", "pass")
    assert default_action(st) == Action("pub", "", -1, "", 0)

