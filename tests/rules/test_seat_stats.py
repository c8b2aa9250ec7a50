"""``SeatStats`` reads and writes as the dict of counters it stands for (the statistics table, UI-15)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Ruleset, apply, legal_moves, new_game
from rules.seat_stats import NAMES, SeatStats
from rules.state import GameState

KEYS = [*NAMES, "crates_paid", "vp_lost", "events"]
PHASES = ["workers", "market", "buildings", "aristocrats", "obstacle"]
ops = st.lists(
    st.tuples(
        st.sampled_from(["set", "bump", "took", "placed", "traded", "paid", "scored"]),
        st.sampled_from(KEYS),
        st.sampled_from(PHASES),
        st.integers(-5, 500),
    ),
    max_size=40,
)


def _count(plain: dict[str, int], key: str, n: int) -> None:
    plain[key] = plain.get(key, 0) + n


@given(ops)
@settings(max_examples=300, deadline=None)
def test_counters_behave_as_a_dict(steps: list[tuple[str, str, str, int]]) -> None:
    stats, plain = SeatStats(), {}
    for op, key, phase, n in steps:
        if op == "set":
            stats[key] = n
            plain[key] = n
        elif op == "bump":
            stats.bump(key, n)
            _count(plain, key, n)
        elif op == "took":
            stats.took()
            _count(plain, "taken", 1)
        elif op in ("placed", "traded"):
            stats.placed(n, op == "traded")
            _count(plain, "spent", n)
            _count(plain, "traded" if op == "traded" else "bought", 1)
        elif op == "paid":
            stats.paid(n)
            _count(plain, "spent", n)
        else:
            stats.scored(phase, n, n // 3)
            _count(plain, f"{phase}_rubles", n)
            _count(plain, f"{phase}_vp", n // 3)
    assert stats.as_dict() == plain and stats == plain
    assert len(stats) == len(plain) and sorted(stats) == sorted(plain)
    assert sorted(stats.items()) == sorted(plain.items())
    for key in [*KEYS, *(f"{p}_rubles" for p in PHASES)]:
        assert (key in stats) == (key in plain)
        assert stats.get(key, -1) == plain.get(key, -1)
    copy = SeatStats.from_dict(json.loads(json.dumps(stats.as_dict())))
    assert copy == stats and copy.copy() == stats


def test_a_counter_never_set_is_absent() -> None:
    stats = SeatStats()
    stats.placed(0, False)
    assert "bought" in stats and "taken" not in stats and stats.get("taken", 7) == 7
    with pytest.raises(KeyError):
        stats["taken"]


def test_a_game_state_round_trips_its_counters() -> None:
    ruleset = Ruleset(edition=2, players=4, expansions=("market",))
    state = new_game(ruleset, ["a", "b", "c", "d"], seed=3)
    for _ in range(150):
        apply(state, legal_moves(state)[0].action)
    assert any(len(s) for s in state.stats)
    again = GameState.from_json(json.loads(json.dumps(state.to_json())))
    assert again == state and again.to_json() == state.to_json()
    assert state.copy().stats == state.stats
