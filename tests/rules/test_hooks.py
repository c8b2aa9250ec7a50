"""The expansion hooks (rules/hooks.py): a toy expansion adds a phase, a setup step, a
pending decision with its notation, a turn action, a scoring step, an end-of-round step, a final
scoring step and view fields, all without the core naming it; Ruleset refuses bad combinations (X-02)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from rules import Action, GameRecord, GameState, Move, Pending, RuleError, Ruleset, apply, legal_moves, new_game
from rules import view as view_of
from rules.actions import format_action
from rules.autopass import default_action
from rules.cards import catalogue
from rules.expansions import REGISTRY, select
from rules.flow import resume_after
from rules.hooks import Checked, Decision, Event, Events, Expansion, Hooks, Phase, Shape, TurnAction
from rules.record import parse_for, replay
from rules.ruleset import _shape


class Tithe(Decision):
    """After the harvest, each seat in turn says how many rubles (0-2) it gives for as many VP."""

    kind = "tithe"

    def moves(self, st: GameState, p: Pending) -> list[Move]:
        return [Move(Action("tithe", amount=k), k) for k in range(min(2, st.rubles[p.seat]) + 1)]

    def check(self, st: GameState, p: Pending, action: Action) -> Checked:
        if action.kind != "tithe" or not 0 <= action.amount <= min(2, st.rubles[p.seat]):
            raise RuleError("wrong_decision", pending="tithe")
        return -1, -1, action.amount

    def apply(self, st: GameState, p: Pending, action: Action, checked: Checked) -> list[Event]:
        st.rubles[p.seat] -= action.amount
        st.vp[p.seat] += action.amount
        if p.queue:
            st.pending = Pending("tithe", p.queue[0], queue=p.queue[1:])
        else:
            resume_after(st, "tithe", [])
        return [{"type": "tithe", "seat": p.seat, "amount": action.amount}]

    def default(self, st: GameState, p: Pending) -> Action:
        return Action("tithe", amount=0)


class Pray(TurnAction):
    kind = "pray"

    def moves(self, st: GameState, seat: int, out: list[Move]) -> None:
        if st.ruleset.phases[st.phase].key == "harvest":
            out.append(Move(Action("pray"), 0))

    def check(self, st: GameState, seat: int, action: Action) -> Checked:
        if st.ruleset.phases[st.phase].key != "harvest":
            raise RuleError("malformed_action")
        return -1, -1, 0

    def apply(self, st: GameState, seat: int, action: Action, checked: Checked) -> list[Event]:
        st.ext["toy"]["prayers"] += 1
        return [{"type": "pray", "seat": seat}]


def _tithe_step(st: GameState, events: Events) -> bool:
    st.pending = Pending("tithe", 0, queue=list(range(1, st.n)))
    return True


class Toy(Expansion):
    key = "toy"
    editions = (2,)

    def configure(self, shape: Shape) -> None:
        shape.phases.insert(1, Phase("harvest", "workers", None, "hammer", ("tithe",)))
        shape.max_players = 5

    def hooks(self) -> Hooks:
        def setup(st: GameState, rng: random.Random, given: Mapping[str, Any]) -> None:
            st.ext["toy"] = {"prayers": given.get("toy_prayers", 0), "rounds": 0}

        def round_end(st: GameState, events: Events) -> None:
            st.ext["toy"]["rounds"] += 1

        def final(st: GameState, seat: int, entry: dict[str, Any], events: Events) -> None:
            entry["prayers"] = st.ext["toy"]["prayers"]

        def fields(st: GameState, seat: int | None, out: dict[str, Any]) -> None:
            out["toy"] = dict(st.ext["toy"])

        return Hooks(
            decisions={"tithe": Tithe()},
            steps={"tithe": _tithe_step},
            turn_actions={"pray": Pray()},
            setups=[setup],
            round_end=[round_end],
            final=[final],
            view=[fields],
            parsers={"tithe": lambda text, rest, cat: Action("tithe", amount=int(rest)), "pray": _parse_pray},
            formatters={"tithe": lambda a, cat, lang: f"tithe {a.amount}", "pray": lambda a, cat, lang: "pray"},
            record_fields={"toy_prayers": _read_prayers},
        )


def _parse_pray(text: str, rest: str, cat: Any) -> Action:
    return Action("pray")


def _read_prayers(value: Any) -> int:
    if not isinstance(value, int) or value < 0:
        raise ValueError("a number of prayers")
    return value


@pytest.fixture
def toy() -> Iterator[None]:
    select(2, ("market",))  # loads the registry
    REGISTRY["toy"] = Toy()
    yield
    del REGISTRY["toy"]


def play_out(st: GameState, seed: int) -> list[str]:
    rng = random.Random(seed)
    texts = []
    while not st.finished:
        action = rng.choice(legal_moves(st)).action
        text = format_action(action, st.ruleset.catalogue)
        assert parse_for(st, text) == action
        texts.append(text)
        apply(st, action)
    return texts


def test_toy_expansion_joins_through_hooks_only(toy: None) -> None:
    rs = Ruleset(edition=2, players=5, expansions=("toy",))
    assert [p.key for p in rs.phases] == ["workers", "harvest", "buildings", "aristocrats", "trading"]
    st = new_game(rs, [f"P{i}" for i in range(5)], seed=3)
    assert st.ext == {"toy": {"prayers": 0, "rounds": 0}}
    texts = play_out(st, 4)
    assert any(t.startswith("tithe") for t in texts) and "pray" in texts
    assert st.ext["toy"]["rounds"] == st.round
    assert st.final is not None and all(f["prayers"] == st.ext["toy"]["prayers"] for f in st.final)
    assert view_of(st, 0)["toy"] == st.ext["toy"]
    again = replay(GameRecord(rs, [f"P{i}" for i in range(5)], seed=3, actions=texts))
    assert again.to_json() == st.to_json()
    assert GameState.from_json(st.to_json()).to_json() == st.to_json()


def test_toy_decision_default_and_refusal(toy: None) -> None:
    st = new_game(Ruleset(edition=2, players=2, expansions=("toy",)), ["A", "B"], seed=1)
    while st.pending is None or st.pending.kind != "tithe":
        apply(st, default_action(st))
    assert default_action(st) == Action("tithe", amount=0)
    before = st.to_json()
    with pytest.raises(RuleError):
        apply(st, Action("tithe", amount=3))
    with pytest.raises(RuleError):
        apply(st, Action("pass"))
    assert st.to_json() == before


def test_base_game_state_json_has_no_expansion_fields() -> None:
    st = new_game(Ruleset(), list("ABCD"), seed=1)
    assert "ext" not in st.to_json()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"expansions": ("nonsense",)}, "no expansion or module 'nonsense'"),
        ({"expansions": ("toy", "toy")}, "chosen twice"),
        ({"edition": 1, "expansions": ("toy",)}, "2nd edition only"),
        ({"players": 5}, "2 to 4 players"),
        ({"players": 6, "expansions": ("toy",)}, "2 to 5 players"),
        ({"modules": (7,)}, "no Module 7"),
    ],
)
def test_X_02_ruleset_refuses_combinations(toy: None, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Ruleset(**kwargs)


def test_record_fields_reach_the_setup_and_round_trip(toy: None) -> None:
    rs = Ruleset(edition=2, players=2, expansions=("toy",))
    rec = GameRecord(rs, ["A", "B"], seed=1, fields={"toy_prayers": 7})
    assert rec.start().ext["toy"]["prayers"] == 7
    back = GameRecord.loads(rec.dumps())
    assert back.fields == {"toy_prayers": 7} and back.to_json()["toy_prayers"] == 7
    with pytest.raises(ValueError, match="toy_prayers"):
        GameRecord.from_json({**rec.to_json(), "toy_prayers": -1})
    with pytest.raises(ValueError, match="no setup field"):
        new_game(Ruleset(), list("ABCD"), seed=1, given={"toy_prayers": 1})


class Trimmed(Expansion):
    """A toy module that knows which other parts are on and takes a card type out of the game."""

    key = "module6"  # stands in for Module 6 while the test runs

    def configure(self, shape: Shape) -> None:
        if "market" in shape.active:
            shape.removed.append("observatory")


def test_X_02_parts_see_each_other_and_remove_cards_from_the_game() -> None:
    select(2, ("market",))  # loads the registry
    real = REGISTRY.get("module6")
    REGISTRY["module6"] = Trimmed()
    _shape.cache_clear()  # the real Module 6's shapes are cached: the stand-in needs its own
    try:
        plain = Ruleset(edition=2, players=2, modules=(6,))
        trimmed = Ruleset(edition=2, players=2, expansions=("market",), modules=(6,))
    finally:
        del REGISTRY["module6"]
        if real is not None:
            REGISTRY["module6"] = real
        _shape.cache_clear()
    assert plain.modules == (6,) and plain.catalogue.removed == ()
    cat = trimmed.catalogue
    obs = cat.by_id["observatory"]
    assert cat.removed == ("observatory",) and len(cat.cards) == len(catalogue(2, ("market",)).cards)
    assert all(cat.cards[c] is not obs for c in cat.deck_cards("buildings"))
    st = new_game(trimmed, ["A", "B"], seed=5)
    assert all(st.ruleset.catalogue.cards[c] is not obs for c in st.decks["buildings"] + st.upper)
    with pytest.raises(ValueError, match="no \\(more\\) card"):
        new_game(trimmed, ["A", "B"], seed=5, stacks={"buildings": ["Observatory"]})
