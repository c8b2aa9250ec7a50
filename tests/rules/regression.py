"""The base-game regression file: seeded games recorded before the rules core was restructured,
replayed by ``test_regression.py``, which requires the same legal moves, events and
states at every step. Regenerate only on purpose, when a rule change is meant to change games::

    .venv/bin/python -m tests.rules.regression

When only what the events say changes on purpose (not the games: the recorded actions and final states
stay), refresh the step digests of the recorded games instead::

    .venv/bin/python -m tests.rules.regression --redigest
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from players.ai import choose
from rules import GameRecord, GameState, Ruleset, apply, format_action, legal_moves, parse_for

DATA = Path(__file__).resolve().parent / "data" / "base_games.json"
GAMES = 60


def configs() -> list[dict[str, Any]]:
    """60 games: both editions, 2/3/4 players, random or computer players, the options varied."""
    out = []
    for i in range(GAMES):
        out.append(
            {
                "ruleset": Ruleset(
                    edition=1 + i % 2,
                    players=2 + (i // 2) % 3,
                    mandatory_first_workers=i % 7 != 3,
                    open_money=i % 5 != 2,
                    open_hands=i % 11 == 4,
                ),
                "seed": 1000 + 17 * i,
                "player": "computer" if i % 4 == 1 else "random" if i % 4 != 3 else "mixed",
                "choice_seed": 77 * i + 5,
            }
        )
    return out


def digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()


def trace(record: GameRecord) -> dict[str, str]:
    """Replay ``record`` and digest what every step shows: moves offered, events and the state."""
    st = record.start()
    h = hashlib.sha256(json.dumps(st.to_json(), sort_keys=True).encode())
    for text in record.actions:
        # the five fields an Action had when the file was recorded (``good`` is always "" in the base game)
        moves = [[list(m.action)[:5], m.price] for m in legal_moves(st) if not m.action.good]
        events = apply(st, parse_for(st, text))
        h.update(json.dumps([moves, events, st.to_json()], sort_keys=True).encode())
    return {"final": digest(st.to_json()), "steps": h.hexdigest()}


def play(cfg: dict[str, Any]) -> tuple[GameRecord, GameState]:
    rs: Ruleset = cfg["ruleset"]
    seats = [f"P{i}" for i in range(rs.players)]
    rec = GameRecord(rs, seats, seed=cfg["seed"])
    st = rec.start()
    rng = random.Random(cfg["choice_seed"])
    while not st.finished:
        computer = cfg["player"] == "computer" or (cfg["player"] == "mixed" and st.decider % 2 == 1)
        # the data file was generated with the earlier greedy player; "normal" is its successor (regenerating
        # gives other games, which is fine: the test replays the recorded actions)
        action = choose(st, None, "normal", random.Random(rng.random())) if computer \
            else rng.choice(legal_moves(st)).action
        rec.actions.append(format_action(action, rs.catalogue))
        apply(st, action)
    return rec, st


def generate() -> list[dict[str, Any]]:
    games = []
    for cfg in configs():
        rec, st = play(cfg)
        games.append({"record": rec.to_json(), "player": cfg["player"], "final_state": st.to_json(), **trace(rec)})
    return games


def redigest() -> list[dict[str, Any]]:
    """The recorded games with their step digests computed anew; their final states must not change."""
    games = json.loads(DATA.read_text(encoding="utf-8"))
    for game in games:
        record = GameRecord.from_json(game["record"])
        fresh = trace(record)
        if fresh["final"] != game["final"]:
            raise SystemExit(f"game seed {record.seed} now ends differently: regenerate on purpose instead")
        game.update(fresh)
    return games


if __name__ == "__main__":
    import sys

    games = redigest() if "--redigest" in sys.argv[1:] else generate()
    DATA.write_text(json.dumps(games, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")
