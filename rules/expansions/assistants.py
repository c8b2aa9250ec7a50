"""Module 3 of the 2nd edition: the Assistants ("Die Helfer"; seed 001 module booklet p. 3-4,
M3-01 ... M3-09, P5-13).

Each player holds one assistant with a permanent discount (``Hooks.discounts``, folded into the
player's prices by rules/prices.py); the allocation depends on the player count, and the assistants
pass one seat to the right at the end of every round. Assistants are no cards: they lie in no
tableau, hand or stack (M3-07). Their data: data/expansions/module3.json.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from functools import cache
from typing import Any, Final

from ..cards import EXTRA_DIR
from ..hooks import Events, Hooks, Shape
from ..state import GameState
from .common import MarketModule

KEY: Final = "module3"
FIELD: Final = "assistants"  # the record field (X-09, M3-09) and the view field (X-08, M3-08)


@cache
def assistants_data() -> dict[str, Any]:
    with (EXTRA_DIR / "module3.json").open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def assistant_ids() -> tuple[str, ...]:
    """All five, in the booklet's order (M3-01)."""
    return tuple(a["id"] for a in assistants_data()["assistants"])


@cache
def discount_of(assistant: str) -> tuple[tuple[str, int], ...]:
    """M3-01: (colour or "trading", rubles off) of an assistant."""
    for a in assistants_data()["assistants"]:
        if a["id"] == assistant:
            return tuple((sel, int(k)) for sel, k in a["discount"])
    raise KeyError(assistant)


def assistant_name(assistant: str, lang: str = "en") -> str:
    for a in assistants_data()["assistants"]:
        if a["id"] == assistant:
            name: str = a["name"].get(lang) or a["name"]["en"]
            return name
    return assistant


def in_play(players: int) -> tuple[str, ...]:
    """M3-02, P5-13: the assistants used with ``players`` players (the rest stay in the box)."""
    return tuple(assistants_data()["by_players"][str(players)])


def held(st: GameState) -> list[str]:
    """Module 3's state: per seat the assistant it holds (M3-03: exactly one each)."""
    per_seat: list[str] = st.ext[KEY]["held"]
    return per_seat


def holders(st: GameState) -> dict[str, int]:
    """Assistant -> the seat holding it, in the booklet's order (a new dict)."""
    seat_of = {a: s for s, a in enumerate(held(st))}
    return {a: seat_of[a] for a in in_play(st.n)}


def held_by(st: GameState, seat: int) -> str:
    """The assistant ``seat`` holds."""
    return held(st)[seat]


def right_of(seat: int, n: int) -> int:
    """The seat to the right (counterclockwise): the previous one."""
    return (seat - 1) % n


# --- setup ---------------------------------------------------------------------------------------
def allocate(n: int, tokens: Mapping[str, int], rng: random.Random) -> dict[str, int]:
    """M3-02, M3-03: after the start-player tokens are dealt; the player right of the Sack holder gets
    the Mistress of the Manor (4-5 players), right of the Hammer holder the Master Craftsman (5); the
    others go at random to the remaining seats."""
    fixed = assistants_data()["right_of"]
    out: dict[str, int] = {}
    for a in in_play(n):
        if a in fixed:
            out[a] = right_of(tokens[fixed[a]], n)
    rest = [a for a in in_play(n) if a not in out]
    rng.shuffle(rest)
    free = [s for s in range(n) if s not in out.values()]
    out.update(zip(rest, free, strict=True))
    return {a: out[a] for a in in_play(n)}


def validate(n: int, tokens: Mapping[str, int], given: Mapping[str, int]) -> None:
    """An allocation given explicitly (M3-09) must follow M3-02: the assistants of this player count,
    one per seat, the fixed ones right of their token's holder."""
    want = set(in_play(n))
    if set(given) != want:
        raise ValueError(f"with {n} players the assistants are {', '.join(in_play(n))}")
    if sorted(given.values()) != list(range(n)):
        raise ValueError("each seat holds exactly one assistant")
    for a, token in assistants_data()["right_of"].items():
        if a in given and given[a] != right_of(tokens[token], n):
            raise ValueError(f"{a} goes to the player right of the {token} holder (seat {right_of(tokens[token], n)})")


def read_field(value: Any) -> dict[str, int]:
    """X-09: ``"assistants": {"architect": 0, ...}``."""
    if not isinstance(value, dict) or not all(isinstance(k, str) and type(v) is int for k, v in value.items()):
        raise ValueError("'assistants' maps assistant ids to seats, e.g. {\"architect\": 0, \"lawyer\": 1}")
    unknown = set(value) - set(assistant_ids())
    if unknown:
        raise ValueError(f"unknown assistants {', '.join(sorted(unknown))} (known: {', '.join(assistant_ids())})")
    return dict(value)


def setup(st: GameState, rng: random.Random, given: Mapping[str, Any]) -> None:
    """M3-03, M3-09: from the record's field if given, else drawn from the seed (drawn either way, so
    that a field given explicitly changes no other draw)."""
    allocation = allocate(st.n, st.tokens, rng)
    if FIELD in given:
        allocation = read_field(given[FIELD])
        validate(st.n, st.tokens, allocation)
    per_seat = [""] * st.n
    for a, seat in allocation.items():
        per_seat[seat] = a
    st.ext[KEY] = {"held": per_seat}


# --- prices and the end of a round --------------------------------------------------------------
def discounts(st: GameState, seat: int) -> tuple[tuple[str, int], ...]:
    """M3-01, M3-04, M3-05 (AMB-30): the held assistant's discount on every placement with a price."""
    return discount_of(held_by(st, seat))


def round_end(st: GameState, events: Events) -> None:
    """M3-06: after the trading phase each assistant passes to the right (with 2 players they swap):
    seat s gets the assistant of seat s + 1."""
    per_seat = held(st)
    per_seat[:] = per_seat[1:] + per_seat[:1]
    if events is not None:
        events.append({"type": "assistants_passed", "assistants": holders(st)})


def view_fields(st: GameState, seat: int | None, out: dict[str, Any]) -> None:
    """M3-08, X-08: public: who holds which assistant, and its discount."""
    out[FIELD] = [
        {"assistant": a, "seat": s, "discount": [list(d) for d in discount_of(a)]} for a, s in holders(st).items()
    ]
    for p in out["players"]:
        p["assistant"] = held_by(st, p["seat"])


class Assistants(MarketModule):
    """M3-01: Module 3, 2nd edition, with the Market only (X-02)."""

    key = KEY

    def configure(self, shape: Shape) -> None:
        """Nothing to change: no cards, stacks, phases or tokens (M3-07)."""

    def hooks(self) -> Hooks:
        return Hooks(
            setups=[setup],
            discounts=[discounts],
            round_end=[round_end],
            view=[view_fields],
            record_fields={FIELD: read_field},
        )


ASSISTANTS = Assistants()
