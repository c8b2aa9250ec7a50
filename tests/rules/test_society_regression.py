"""In bester Gesellschaft, SP+ and Module 2: the seeded games recorded in ``data/society_games.json``
replay to the same final state (X-09); see ``society_regression.py``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules import GameRecord, replay

from .society_regression import CONFIGS, DATA, digest

RECORDED: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))


def test_the_file_covers_every_combination() -> None:
    kinds = [(g["record"]["ruleset"]["edition"], g["record"]["ruleset"]["players"],
              tuple(g["record"]["ruleset"]["expansions"]), tuple(g["record"]["ruleset"]["modules"])) for g in RECORDED]
    assert kinds == list(CONFIGS)


@pytest.mark.parametrize("game", RECORDED, ids=lambda g: f"seed{g['record']['seed']}")
def test_recorded_game_replays_identically(game: dict[str, Any]) -> None:
    st = replay(GameRecord.from_json(game["record"]))
    assert st.finished
    assert (st.vp, st.winners) == (game["vp"], game["winners"])
    assert digest(st) == game["digest"]
