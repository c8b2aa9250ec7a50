"""Take-backs in the rules core (``rules.takeback``): which actions bring something hidden to light, per
part of the game, and the state before an action rebuilt exactly from the actions that stand."""

from __future__ import annotations

import random

from rules import PASS, Action, GameRecord, GameState, Ruleset, apply, legal_moves, new_game, rebuilt, revealed
from rules.actions import format_action
from rules.expansions.assignments import turned_up
from rules.expansions.market import mstate, tile_turned

from .helpers import market_game, module_rules, seats


def step(st: GameState, action: Action) -> tuple[GameState, list[dict]]:
    before = st.copy()
    return before, apply(st, action)


def play_until(st: GameState, rng: random.Random, wanted: str) -> Action:
    """Random legal moves until one of kind ``wanted`` is legal; returns it (not applied)."""
    for _ in range(2000):
        moves = legal_moves(st)
        hit = [m.action for m in moves if m.action.kind == wanted]
        if hit:
            return hit[0]
        apply(st, rng.choice(moves).action)
    raise AssertionError(f"no {wanted} move came up")


def test_takeback_a_buy_in_a_phase_reveals_nothing() -> None:
    st = new_game(Ruleset(players=3), seats(3), seed=3)
    buy = next(m.action for m in legal_moves(st) if m.action.kind == "buy")
    before, events = step(st, buy)
    assert not revealed(before, st, events)


def test_takeback_the_pass_that_ends_a_phase_reveals_the_next_deal() -> None:
    st = new_game(Ruleset(players=2, mandatory_first_workers=False), seats(2), seed=5)
    before, events = step(st, Action(PASS))
    assert not revealed(before, st, events)  # one pass: the phase goes on
    before, events = step(st, Action(PASS))
    assert st.phase == 1 and revealed(before, st, events)  # all passed: the buildings are dealt


def test_takeback_the_observatory_draw_reveals_a_card() -> None:
    st = new_game(Ruleset(players=2), seats(2), seed=11)
    observe = play_until(st, random.Random(11), "observe")
    before, events = step(st, observe)
    assert st.pending is not None and st.pending.kind == "observatory"
    assert revealed(before, st, events)


def test_takeback_the_end_of_the_game_reveals_everything() -> None:
    st = new_game(Ruleset(players=2, open_money=False), seats(2), seed=2)
    rng = random.Random(2)
    while True:
        action = rng.choice(legal_moves(st)).action
        before, events = step(st, action)
        if st.finished:
            break
    assert revealed(before, st, events)


def test_MK_06_MK_18_takeback_a_value_tile_turned_up_is_revealed() -> None:
    st = market_game(2, phase="trading")
    after = st.copy()
    assert not tile_turned(st, after, [])
    mstate(after)["tile"] += 1
    assert tile_turned(st, after, []) and revealed(st, after, [])


def test_M5_19_takeback_assignments_turned_up_at_the_end() -> None:
    st = new_game(module_rules(3, (5,)), seats(3), seed=4)
    done = st.copy()
    done.finished = True
    assert turned_up(st, done, []) and not turned_up(st, st.copy(), [])
    assert not turned_up(done, done.copy(), [])  # seen already


def test_M4_01_takeback_an_event_that_deals_from_a_stack_is_revealed() -> None:
    """Module 4's events lie face up; one that lays cards from a stack (New Luck, the Twin) turns them
    up, which the core sees in the stacks alone."""
    rng = random.Random(1)
    st = new_game(module_rules(3, (4,)), seats(3), seed=1)
    seen = {True: 0, False: 0}
    while not st.finished:
        action = rng.choice(legal_moves(st)).action
        before, events = step(st, action)
        if action.kind == "event":
            drew = any(len(st.decks[d]) < len(before.decks[d]) for d in before.decks)
            assert revealed(before, st, events) == (drew or st.finished or mstate(before)["tile"] != mstate(st)["tile"])
            seen[drew] += 1
    assert seen[True] + seen[False] > 0


def test_takeback_rebuilt_is_the_state_before_and_says_whether_anything_came_to_light() -> None:
    rs = Ruleset(edition=2, players=3, expansions=("market",), modules=(1, 4, 6))
    st = new_game(rs, seats(3), seed=21)
    rng = random.Random(21)
    states, texts, lit = [], [], []
    while not st.finished:
        action = rng.choice(legal_moves(st)).action
        texts.append(format_action(action, rs.catalogue, seats=st.seats))
        states.append(st.to_json())
        before, events = step(st, action)
        lit.append(revealed(before, st, events))
    record = GameRecord(rs, seats(3), seed=21, actions=texts)
    for k in (0, len(texts) // 3, len(texts) // 2, len(texts) - 5, len(texts) - 1):
        state, came, end = rebuilt(record, k)
        assert state.to_json() == states[k]
        assert came == any(lit[k:])
        assert (end is None) == came and (end is None or end.to_json() == st.to_json())
