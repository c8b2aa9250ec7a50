"""Seeded games of In bester Gesellschaft, SP+ and Module 2 recorded in ``data/society_games.json``,
replayed by ``test_society_regression.py`` to the same final state (X-09: a game rebuilds from its
ruleset, seed and action log). Regenerate only on purpose, when a rule change is meant to change games::

    .venv/bin/python -m tests.rules.society_regression
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from rules import GameRecord, GameState, Ruleset, apply, format_action, legal_moves, new_game

DATA = Path(__file__).resolve().parent / "data" / "society_games.json"
CONFIGS: tuple[tuple[int, int, tuple[str, ...], tuple[int, ...]], ...] = (
    (1, 2, ("new_society",), ()),
    (1, 4, ("new_society",), ()),
    (1, 5, ("new_society",), ()),
    (1, 3, ("new_society_replacements_only",), ()),
    (2, 2, (), (2,)),
    (2, 4, (), (2,)),
    (2, 3, ("market",), (2,)),
    (2, 5, ("market",), (2,)),
)


def digest(st: GameState) -> str:
    return hashlib.sha256(json.dumps(st.to_json(), sort_keys=True).encode()).hexdigest()


def play(i: int, edition: int, players: int, expansions: tuple[str, ...], modules: tuple[int, ...]) -> dict[str, Any]:
    rs = Ruleset(edition=edition, players=players, expansions=expansions, modules=modules)
    seats = [f"P{s}" for s in range(players)]
    seed = 2026 + 31 * i
    st = new_game(rs, seats, seed=seed)
    rng = random.Random(seed ^ 0xC0FFEE)
    actions = []
    while not st.finished:
        action = rng.choice(legal_moves(st)).action
        actions.append(format_action(action, rs.catalogue))
        apply(st, action)
    record = GameRecord(rs, seats, seed=seed, actions=actions)
    return {"record": record.to_json(), "vp": list(st.vp), "winners": list(st.winners), "digest": digest(st)}


def main() -> None:
    games = [play(i, *c) for i, c in enumerate(CONFIGS)]
    DATA.write_text(json.dumps(games, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {len(games)} games to {DATA}")


if __name__ == "__main__":
    main()
