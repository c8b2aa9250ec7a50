"""Game records: JSON with the ruleset, seats, seed (or stacked decks and tokens) and the actions in
the text notation of ``rules.actions``. Documented in docs/record-format.md."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, format_action, parse_action
from .engine import apply, new_game
from .errors import RuleError
from .ruleset import Ruleset
from .state import GameState

FORMAT = "petersburg-record/1"


@dataclass
class GameRecord:
    ruleset: Ruleset
    seats: list[str]
    seed: int | None = None
    stacks: dict[str, list[str]] | None = None
    tokens: dict[str, int] | None = None
    actions: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)  # the expansions' setup fields (Hooks.record_fields)

    def start(self) -> GameState:
        return new_game(
            self.ruleset, self.seats, seed=self.seed, stacks=self.stacks, tokens=self.tokens, given=self.fields
        )

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset.to_json(),
            "seats": list(self.seats),
            "seed": self.seed,
        }
        if self.stacks is not None:
            d["stacks"] = self.stacks
        if self.tokens is not None:
            d["tokens"] = self.tokens
        d.update(self.fields)
        d["actions"] = list(self.actions)
        return d

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, d: Any) -> GameRecord:
        """Read a record, raising ValueError with a clear message for anything malformed."""
        if not isinstance(d, dict):
            raise ValueError("a game record is a JSON object")
        if d.get("format") != FORMAT:
            raise ValueError(f"not a game record: 'format' must be {FORMAT!r}")
        for key in ("ruleset", "seats", "actions"):
            if key not in d:
                raise ValueError(f"the record has no {key!r}")
        if not isinstance(d["actions"], list) or not all(isinstance(a, str) for a in d["actions"]):
            raise ValueError("'actions' must be a list of strings")
        if not isinstance(d["seats"], list) or not all(isinstance(s, str) for s in d["seats"]):
            raise ValueError("'seats' must be a list of names")
        try:
            ruleset = Ruleset.from_json(d["ruleset"])
        except (TypeError, ValueError) as e:
            raise ValueError(f"bad ruleset: {e}") from None
        seed = d.get("seed")
        if seed is not None and not isinstance(seed, int):
            raise ValueError("'seed' must be an integer or null")
        tokens = d.get("tokens")
        fields = {}
        for key, read in ruleset.hooks.record_fields.items():
            if key in d:
                try:
                    fields[key] = read(d[key])
                except (TypeError, ValueError) as e:
                    raise ValueError(f"bad {key!r}: {e}") from None
        return cls(
            ruleset,
            list(d["seats"]),
            seed,
            d.get("stacks"),
            dict(tokens) if tokens else None,
            list(d["actions"]),
            fields,
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"not valid JSON: {e}") from None
        return cls.from_json(data)


class ReplayError(Exception):
    """An action of a record that cannot be applied: its index and the rule error."""

    def __init__(self, index: int, text: str, error: RuleError, state: GameState) -> None:
        self.index = index
        self.text = text
        self.error = error
        self.state = state
        super().__init__(f"action {index} {text!r}: {error.message}")


def parse_for(st: GameState, text: str) -> Action:
    """Read ``text`` as an action of the player to decide in ``st``."""
    p = st.pending
    rs = st.ruleset
    drawn = p is not None and rs.hooks.decisions[p.kind].drawn
    return parse_action(text, rs.catalogue, drawn=drawn, decks=rs.decks, seats=st.seats)


def replay(record: GameRecord) -> GameState:
    """Rebuild the game from its record; raises ReplayError at the first illegal action."""
    st = record.start()
    for i, text in enumerate(record.actions):
        try:
            apply(st, parse_for(st, text))
        except RuleError as e:
            raise ReplayError(i, text, e, st) from None
    return st


def notation(st: GameState, action: Action) -> str:
    return format_action(action, st.ruleset.catalogue, seats=st.seats)
