"""Module 4, the Events (M4-01 ... M4-17, P5-13, X-03, X-07, AMB-22 ... AMB-24,
UI-14). Each test names the item it checks."""

from __future__ import annotations

import random

import pytest

from rules import Action, GameRecord, RuleError, Ruleset, apply, legal_moves, new_game, replay, view
from rules.actions import format_action
from rules.autopass import arm, default_action, expired
from rules.describe import describe_all
from rules.expansions.module4 import assign, m4, slots
from rules.prices import hand_limit
from rules.record import parse_for

from .helpers import mod_game, mod_rules, play, take_cards, take_roundel


def texts(st) -> list[str]:  # type: ignore[no-untyped-def]
    return [format_action(m.action, st.ruleset.catalogue) for m in legal_moves(st)]


def events_offered(st) -> set[str]:  # type: ignore[no-untyped-def]
    return {t for t in texts(st) if t.startswith("event")}


def top(st, deck: str, *names: str) -> None:  # type: ignore[no-untyped-def]
    """Put cards of these names on top of a stack (the last named on the very top)."""
    st.decks[deck].extend(take_cards(st, names))


# --- availability ------------------------------------------------------------------------------------
def test_M4_01_six_events_face_up_and_X_02_only_with_the_market() -> None:
    st = new_game(mod_rules((4,)), ["A", "B"], seed=1)
    assert m4(st)["free"] == ["twin", "sponsor", "ghost", "new_luck", "warehouse", "grabber"]
    assert [e["used_by"] for e in view(st, 0)["module4"]["events"]] == [None] * 6
    with pytest.raises(ValueError, match="needs the Market"):
        Ruleset(edition=2, modules=(4,))


def test_M4_02_from_round_2_each_event_once_each_player_one() -> None:
    st = mod_game((4,), round_=1, phase="buildings", upper=("Library", "Market"))
    assert not events_offered(st)
    st.round = 2
    offered = events_offered(st)
    assert {"event sponsor", "event warehouse", "event twin", "event new luck", "event ghost Library"} <= offered
    play(st, "event sponsor", "pass")
    assert "event sponsor" not in events_offered(st)  # P1: used up
    play(st, "event warehouse", "pass")
    assert not events_offered(st)  # P0 has had his
    assert view(st, 0)["module4"]["events"][1] == {"id": "sponsor", "used_by": 0}


def test_M4_03_the_event_comes_before_the_regular_action_of_the_same_player() -> None:
    st = mod_game((4,), phase="buildings", upper=("Library", "Market"))
    events = play(st, "event sponsor")
    assert st.to_move == 0 and st.pending is None and st.rubles == [31, 27]
    assert events[0] == {"type": "event", "seat": 0, "event": "sponsor"}
    assert not events_offered(st) and "buy Library" in texts(st) and "pass" in texts(st)
    with pytest.raises(RuleError, match="already taken an event"):
        apply(st, Action("event", "warehouse"))
    play(st, "pass")
    assert st.to_move == 1


def test_M4_04_AMB_22_an_event_followed_by_a_pass_is_a_pass() -> None:
    st = mod_game((4,), phase="buildings", upper=("Library",))
    play(st, "pass")
    assert st.passes == 1 and st.to_move == 1
    events = play(st, "event sponsor", "pass")
    assert any(e["type"] == "phase" and e["phase"] == "aristocrats" for e in events)  # all passed: phase over


# --- the events ------------------------------------------------------------------------------------------
def test_M4_05_M4_06_twin_lays_a_second_card_on_the_first_space_and_both_must_be_acquired() -> None:
    st = mod_game((4,), phase="aristocrats", upper=("Judge", "Author"))
    top(st, "aristocrats", "Secretary")
    play(st, "event twin")
    assert st.pending is not None and st.pending.kind == "twin"
    assert view(st, 0)["module4"]["twin"] == ["judge", "secretary"]  # UI-14: two cards on one space
    assert sorted(texts(st)) == ["buy Judge", "buy Secretary", "take Judge", "take Secretary"]
    play(st, "buy Judge")
    assert texts(st) == ["take Secretary"]  # 8 rubles left
    play(st, "take Secretary")
    assert st.pending is None and st.to_move == 0  # now his regular turn
    assert st.rubles[0] == 25 - 17 and [st.cards[c].id for c in st.hands[0]] == ["secretary"]
    assert slots(st, "upper_slots")[:2] == [-1, st.upper[0]]  # the first space is empty now
    assert "event twin" not in events_offered(st)


def test_M4_05_M4_15_AMB_24_twin_that_cannot_acquire_both_discards_both_in_the_chosen_order() -> None:
    st = mod_game((4,), phase="aristocrats", upper=("Judge", "Author"), rubles=20)
    st.hands[0] = take_cards(st, ["Author", "Author", "Author"])  # hand full: both must be bought
    top(st, "aristocrats", "Secretary")
    play(st, "event twin")
    # 17 + 12 > 20: he cannot buy both, so both go to the discard pile, in the order he chooses
    assert st.pending is not None and st.pending.kind == "order"
    assert texts(st) == ["order Judge, Secretary", "order Secretary, Judge"]
    assert default_action(st) == parse_for(st, "order Judge, Secretary")  # the given order
    events = play(st, "order Secretary, Judge")
    assert [st.cards[c].id for c in st.discard[-2:]] == ["secretary", "judge"]  # M4-15: Judge on top
    assert events[-1] == {"type": "discarded", "seat": 0, "cards": ["secretary", "judge"]}
    assert st.pending is None and st.to_move == 0


def test_M4_05_twin_with_money_for_one_buy_must_take_the_other() -> None:
    st = mod_game((4,), phase="aristocrats", upper=("Judge", "Author"), rubles=20)
    st.hands[0] = take_cards(st, ["Author", "Author"])  # one hand slot left
    top(st, "aristocrats", "Secretary")
    play(st, "event twin")
    assert sorted(texts(st)) == ["buy Judge", "buy Secretary", "take Judge", "take Secretary"]
    play(st, "take Judge")
    assert texts(st) == ["buy Secretary"]  # the hand is full now


def test_M4_06_twin_needs_a_card_on_the_first_space_a_taken_card_leaves_a_gap() -> None:
    st = mod_game((4,), phase="aristocrats", upper=("Judge", "Author"))
    play(st, "take Judge")
    assert st.to_move == 1 and "event twin" not in events_offered(st)  # slot 1 is empty, the Author on 2
    st2 = mod_game((4,), phase="aristocrats", upper=("Judge",))
    st2.decks["aristocrats"] = []
    assert "event twin" not in events_offered(st2)  # no card to lay


def test_M4_05_a_question_mark_card_bought_in_a_twin_asks_its_good_then_the_twin_goes_on() -> None:
    st = mod_game((4,), phase="workers", upper=("Lumberjack",))
    st.decks["workers"].extend(st.upper)
    st.upper = [take_roundel(st, "Ship Builder", "?")]
    assign(st)
    top(st, "workers", "Lumberjack")
    play(st, "event twin")
    play(st, "buy Ship Builder [?]")
    assert st.pending is not None and st.pending.kind == "good"
    play(st, "as fish")
    assert st.pending is not None and st.pending.kind == "twin" and texts(st) == ["buy Lumberjack", "take Lumberjack"]
    play(st, "buy Lumberjack")
    assert st.pending is None and st.to_move == 0


def test_M4_07_sponsor_six_rubles_and_two_for_each_other() -> None:
    st = mod_game((4,), players=4, phase="buildings", upper=("Library",))
    play(st, "event sponsor")
    assert st.rubles == [31, 27, 27, 27]


def test_M4_08_ghost_discards_a_display_card_and_lays_a_new_one_in_the_upper_row() -> None:
    st = mod_game((4,), phase="buildings", upper=("Library",), lower=("Market",))
    top(st, "buildings", "Theater")
    ghost_market = f"event ghost Market [{st.ruleset.catalogue.markets[st.lower[0]]}] (lower)"
    assert {"event ghost Library", ghost_market} <= events_offered(st)
    events = play(st, ghost_market)
    assert st.lower == [] and [st.cards[c].id for c in st.upper] == ["library", "theater"]
    assert st.cards[st.discard[-1]].id == "market"
    assert describe_all(events, st.seats, 2)[:2] == ["P0 takes the event Ghost.", "P0 discards Market with the Ghost."]
    st.decks["buildings"] = []
    assert not any(t.startswith("event ghost") for t in events_offered(st))


def test_M4_08_M4_12_no_ghost_on_a_lower_row_card_while_the_upper_row_is_full() -> None:
    """AMB-23: the Ghost's new card goes to the upper row, 10 spaces with the Market; with the upper
    row full it may discard an upper-row card (its space takes the new card), not a lower-row one."""
    full = ("Library", "Library", "Library", "Theater", "Theater", "Hospital", "Hospital", "Hospital", "Pub", "Pub")
    st = mod_game((4,), phase="buildings", upper=full, lower=("Bank",))
    offered = {t for t in events_offered(st) if t.startswith("event ghost")}
    assert "event ghost Library" in offered and not any(t.endswith("(lower)") for t in offered)
    play(st, "event ghost Library")
    assert len(st.upper) == 10


def test_M4_09_new_luck_as_many_cards_as_players_if_the_upper_row_has_room() -> None:
    st = mod_game((4,), players=3, phase="buildings", upper=("Library",) * 3, lower=("Market",) * 3)
    play(st, "event new luck")
    assert len(st.upper) == 6 and st.to_move == 0
    st = mod_game((4,), players=3, phase="buildings", upper=("Library", "Library", "Library", "Theater", "Theater",
                                                             "Hospital", "Hospital", "Hospital"))
    assert "event new luck" not in events_offered(st)  # 2 free spaces, 3 players


def test_M4_09_M4_13_a_short_stack_lays_what_it_has_and_ends_the_game() -> None:
    st = mod_game((4,), players=3, phase="buildings", upper=("Library",))
    st.decks["buildings"] = st.decks["buildings"][-2:]
    events = play(st, "event new luck")
    assert len(st.upper) == 3 and st.ending
    assert any(e["type"] == "end_triggered" for e in events)


def test_M4_12_only_events_that_can_be_carried_out_are_offered() -> None:
    st = mod_game((4,), players=3, phase="buildings", upper=("Library",))
    theater = take_cards(st, ["Theater"])
    st.discard = []
    st.decks["buildings"] = []  # nothing to lay: no Twin, Ghost or New Luck; nothing to grab
    assert events_offered(st) == {"event sponsor", "event warehouse"}
    st.upper = []
    st.decks["buildings"] = theater
    assert events_offered(st) == {"event sponsor", "event warehouse", "event new luck"}  # no first space, no card


def test_M4_13_the_ghost_laying_a_stacks_last_card_ends_the_game() -> None:
    st = mod_game((4,), phase="buildings", upper=("Library",))
    st.decks["buildings"] = st.decks["buildings"][-1:]
    play(st, "event ghost Library")
    assert st.ending and len(st.upper) == 1


def test_M4_10_AMB_28_the_warehouse_event_adds_a_hand_slot() -> None:
    st = mod_game((4,), phase="buildings", upper=("Library",), tableaux={0: ["Warehouse"]})
    assert hand_limit(st, 0) == 4
    play(st, "event warehouse")
    assert hand_limit(st, 0) == 5 and hand_limit(st, 1) == 3
    st.hands[0] = take_cards(st, ["Author"] * 4)
    assert "take Library" in texts(st)
    st.hands[0] += take_cards(st, ["Author"])
    assert "take Library" not in texts(st)


def test_M4_11_grabber_buys_the_top_of_the_discard_pile_at_its_normal_price() -> None:
    st = mod_game((4,), phase="aristocrats", upper=("Author",), tableaux={0: ["Author"]})
    st.discard = take_cards(st, ["Judge", "Senator"])  # the Senator on top
    assert "event grabber: buy Senator over Author" in events_offered(st)
    events = play(st, "event grabber: buy Senator over Author")
    assert st.rubles[0] == 25 - (12 - 4)  # no lower-row discount; the Author's value off (a trading card)
    assert events[1] == {"type": "grab", "seat": 0, "card": "senator", "price": 8, "displaced": "author"}
    assert [st.cards[c].id for c in st.discard] == ["judge", "author"] and st.to_move == 0
    st2 = mod_game((4,), phase="aristocrats", upper=("Author",), rubles=5)
    st2.discard = take_cards(st2, ["Judge"])
    assert not any("grabber" in t for t in events_offered(st2))  # not affordable (AMB-23)


def test_M4_14_the_lower_row_is_cleared_left_to_right_slot_order_kept() -> None:
    st = mod_game((4,), phase="trading", upper=("Author",), lower=("Library", "Theater", "Hospital"))
    st.lower.remove(st.lower[0])  # the Library is bought: its slot stays empty
    st.discard.append(take_cards(st, ["Judge"])[0])
    play(st, "pass", "pass")  # end of round 2: the lower row goes, left to right
    assert [st.cards[c].id for c in st.discard[-2:]] == ["theater", "hospital"]  # the rightmost on top
    assert m4(st)["lower_slots"][0] >= 0  # the Author moved down keeping its column


def test_M4_14_a_card_laid_in_a_gap_keeps_its_place_in_the_row() -> None:
    st = mod_game((4,), phase="buildings", upper=("Library", "Theater"))
    play(st, "take Library")  # slot 1 empty
    play(st, "event new luck")  # P1: two cards, the first fills slot 1
    laid = [None if c < 0 else st.cards[c].id for c in slots(st, "upper_slots")[:3]]
    assert laid[1] == "theater" and laid[0] is not None and laid[2] is not None
    assert st.upper[0] != m4(st)["upper_slots"][0]  # the row's list keeps the order cards came ...
    play(st, "pass", "pass", "pass")  # ... (P0, P1, P0) the end of the phase: the next phase's cards
    assert view(st, 0)["module4"]["upper_slots"][:3] == laid


def test_M4_16_M4_17_notation_round_trips_and_log_lines() -> None:
    st = mod_game((4,), phase="aristocrats", upper=("Author",), lower=("Judge",), tableaux={0: ["Author"]})
    st.discard = take_cards(st, ["Senator"])
    for text in ("event sponsor", "event warehouse", "event new luck", "event twin", "event ghost Judge (lower)",
                 "event grabber: buy Senator over Author"):
        a = parse_for(st, text)
        assert format_action(a, st.ruleset.catalogue) == text
        assert text in events_offered(st)
    assert parse_for(st, "event Neues Glück") == parse_for(st, "event new luck")
    assert parse_for(st, "event Geist Richter (lower)") == parse_for(st, "event ghost Judge (lower)")
    for bad in ("event", "event nothing", "event sponsor now", "event ghost", "event grabber: take Senator"):
        with pytest.raises(RuleError):
            parse_for(st, bad)
    for lang in ("en", "de"):
        lines = describe_all(play(st.copy(), "event grabber: buy Senator over Author"), st.seats, 2, lang)
        assert all("{" not in x and "log." not in x for x in lines)


@pytest.mark.parametrize(("event", "ends"), [("sponsor", True), ("warehouse", False)])
def test_UI_08_an_event_ends_pass_until_the_display_changes_but_the_warehouse(event: str, ends: bool) -> None:
    st = mod_game((4,), phase="buildings", upper=("Library",))
    mode = arm(st, "display")  # set by P1 while P0 is to move
    play(st, f"event {event}")
    assert expired(st, mode) == ends


def test_X_07_an_absent_player_takes_no_event() -> None:
    st = mod_game((4,), phase="buildings", upper=("Library",))
    assert default_action(st) == Action("pass")


@pytest.mark.parametrize("players", [2, 5])
def test_P5_13_one_event_each_at_most_five_of_six(players: int) -> None:
    for seed in range(4):
        st = new_game(mod_rules((4,), players), [f"P{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        while not st.finished:
            moves = legal_moves(st)
            ev = [m for m in moves if m.action.kind in ("event", "grabber")]
            apply(st, (ev[0] if ev and rng.random() < 0.5 else rng.choice(moves)).action)
        used = m4(st)["used"]
        assert len(set(used.values())) == len(used) <= min(players, 6)
        assert len(used) == players  # everybody took one (half his turns offered one)


def test_X_09_a_seeded_game_with_events_replays_exactly_from_its_record() -> None:
    rs = mod_rules((4, 6), 4)
    st = new_game(rs, list("ABCD"), seed=21)
    rng = random.Random(21)
    rec = GameRecord(rs, list("ABCD"), seed=21)
    while not st.finished:
        moves = legal_moves(st)
        ev = [m for m in moves if m.action.kind in ("event", "grabber")]
        a = (ev[0] if ev and rng.random() < 0.3 else rng.choice(moves)).action
        rec.actions.append(format_action(a, rs.catalogue))
        apply(st, a)
    assert sum(t.startswith("event") for t in rec.actions) == 4
    assert replay(GameRecord.loads(rec.dumps())).to_json() == st.to_json()


def test_an_events_name_lives_in_one_place() -> None:
    """Each event's name, in each language, is the text ``event.<id>`` (data/i18n/<lang>/modules46.json): the
    module's data names none, the pictures have no copy of their own, and notation reads both languages."""
    from rules.expansions.module4 import data, event_ids, event_name
    from rules.expansions.module4_decisions import _names
    from rules.i18n import LANGUAGES, strings

    assert not [e["id"] for e in data()["events"] if "name" in e]
    for lang in LANGUAGES:
        assert not [k for k in strings(lang) if k.startswith("render.event_") and k[13:] in event_ids()]
        for e in event_ids():
            assert event_name(e, lang) == strings(lang)[f"event.{e}"]
            assert (event_name(e, lang).casefold(), e) in _names()
