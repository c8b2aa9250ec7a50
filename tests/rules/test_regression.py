"""Base-game regression: the games recorded in ``data/base_games.json`` before the rules
core was split and given expansion hooks replay to the same moves, events and states at every step."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules import GameRecord, GameState, replay

from .regression import DATA, GAMES, trace

RECORDED: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))


def test_regression_file_covers_editions_counts_and_players() -> None:
    assert len(RECORDED) == GAMES
    kinds = {(g["record"]["ruleset"]["edition"], g["record"]["ruleset"]["players"], g["player"]) for g in RECORDED}
    assert {(e, p) for e, p, _ in kinds} == {(e, p) for e in (1, 2) for p in (2, 3, 4)}
    assert {k for _, _, k in kinds} == {"random", "computer", "mixed"}


@pytest.mark.parametrize("game", RECORDED, ids=lambda g: f"seed{g['record']['seed']}")
def test_recorded_game_replays_identically(game: dict[str, Any]) -> None:
    record = GameRecord.from_json(game["record"])
    st = replay(record)
    assert st.finished
    assert st.to_json() == game["final_state"]
    assert GameState.from_json(game["final_state"]).to_json() == game["final_state"]
    assert trace(record) == {"final": game["final"], "steps": game["steps"]}
