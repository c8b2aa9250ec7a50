"""``SeatStats`` reads and writes as the dict of counters it stands for (the statistics table, UI-15)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Ruleset, apply, legal_moves, new_game
from rules.seat_stats import NAMES, SLOTS, SeatStats
from rules.state import GameState

KEYS = [*NAMES, "crates_paid", "vp_lost", "events"]
ops = st.lists(
    st.tuples(st.sampled_from(["add", "set", "bump"]), st.sampled_from(KEYS), st.integers(-5, 500)), max_size=40
)


@given(ops)
@settings(max_examples=200, deadline=None)
def test_counters_behave_as_a_dict(steps: list[tuple[str, str, int]]) -> None:
    stats, plain = SeatStats(), {}
    for op, key, n in steps:
        if op == "set":
            stats[key] = n
            plain[key] = n
        elif op == "add" and key in SLOTS:
            stats.add(SLOTS[key], n)
            plain[key] = plain.get(key, 0) + n
        else:
            stats.bump(key, n)
            plain[key] = plain.get(key, 0) + n
    assert stats.as_dict() == plain and stats == plain
    assert len(stats) == len(plain) and sorted(stats) == sorted(plain)
    assert sorted(stats.items()) == sorted(plain.items())
    for key in KEYS:
        assert (key in stats) == (key in plain)
        assert stats.get(key, -1) == plain.get(key, -1)
    copy = SeatStats.from_dict(json.loads(json.dumps(stats.as_dict())))
    assert copy == stats and copy.copy() == stats


def test_a_counter_never_set_is_absent() -> None:
    stats = SeatStats()
    stats.add(SLOTS["bought"], 0)
    assert "bought" in stats and "taken" not in stats and stats.get("taken", 7) == 7
    try:
        stats["taken"]
    except KeyError:
        pass
    else:  # pragma: no cover
        raise AssertionError("an absent counter must raise KeyError")


def test_a_game_state_round_trips_its_counters() -> None:
    ruleset = Ruleset(edition=2, players=4, expansions=("market",))
    state = new_game(ruleset, ["a", "b", "c", "d"], seed=3)
    for _ in range(150):
        apply(state, legal_moves(state)[0].action)
    assert any(len(s) for s in state.stats)
    again = GameState.from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.to_json() == state.to_json()
    assert state.copy().stats == state.stats
