"""Random games for the render tests: states sampled along games played with the rules core."""

from __future__ import annotations

import random
from functools import cache

from rules import GameState, Ruleset, apply, legal_moves, new_game

NAMES = ("Anna", "Boris", "Katharina", "Dmitri", "Elena")
LONG_NAMES = ("Wolfgang Amadeus Mozart der Große", "Bo", "Ekaterina Alexeyevna Romanova", "Dmitri Ivanovich Mendeleev",
              "Elisabeth Petrovna Romanova")


@cache
def played(edition: int, players: int, seed: int, long_names: bool = False, open_money: bool = True,
           market: bool = False) -> tuple[GameState, ...]:
    """Every state of one random game (the same for the same arguments); ``market``: with the Market."""
    rng = random.Random(seed)
    names = list((LONG_NAMES if long_names else NAMES)[:players])
    rs = Ruleset(edition=edition, players=players, open_money=open_money, expansions=("market",) if market else ())
    st = new_game(rs, names, seed=seed)
    states = [st.copy()]
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
        states.append(st.copy())
    return tuple(states)


def sample(states: tuple[GameState, ...], k: int) -> list[GameState]:
    """About ``k`` states spread evenly along a game, always with the first and the last."""
    step = max(1, len(states) // k)
    picked = list(states[::step])
    if picked[-1] is not states[-1]:
        picked.append(states[-1])
    return picked


def late(states: tuple[GameState, ...]) -> GameState:
    """A late-game state that is not yet finished (a full board)."""
    return states[int(len(states) * 0.85)]
