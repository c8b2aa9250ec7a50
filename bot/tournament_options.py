"""A tournament's game options and seats: the parts as the organiser writes them (the lobby's registry keys),
checked by the rules core as a lobby's; and the dealers of a round when computer players fill the tables."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rules.expansions import offered
from tournament import pair_round, seed_round
from tournament.swiss import Pairing

from .lobby import refused, ruleset_of, split_parts
from .service_base import MAX_PLAYERS, MIN_PLAYERS, UserError

PARTS_SPLIT = re.compile(r"[\s,;+]+")


def parse_parts(text: str, edition: int) -> dict[str, list[Any]]:
    """The organiser's parts (``market, module2``: the lobby's registry keys, any separator; ``none``: the base
    game) as the stored ``expansions`` and ``modules``; a key the edition does not offer: a UserError."""
    keys = [k for k in PARTS_SPLIT.split(text.strip().lower()) if k and k not in ("none", "-")]
    known = [e.key for e in offered(edition)]
    unknown = [k for k in keys if k not in known]
    if unknown:
        raise UserError("tournament_parts", part=unknown[0], parts=", ".join(known))
    expansions, modules = split_parts(list(dict.fromkeys(keys)))
    return {"expansions": list(expansions), "modules": list(modules)}


def check_parts(s: dict[str, Any]) -> None:
    """The rules core's word on the parts (as for a lobby, X-02): refused at every table size, its reason."""
    error: ValueError | None = None
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        try:
            ruleset_of(s, n)
        except ValueError as e:
            error = error or e
            continue
        return
    assert error is not None
    raise refused(error)


def dealers(computers: int, size: int) -> tuple[Any, Any]:
    """The round's dealers (``seed_round``, ``pair_round``). With computers: the players and the fewest computer
    seats (negative ids, ``COMPUTER``, last in the order, each having "met" the others so they sit at different
    tables where they can) that fill tables of exactly ``size``: no other table size and no bye."""
    if not computers:
        return seed_round, pair_round

    def fill(order: Sequence[int]) -> list[int]:
        return [*order, *(-(i + 1) for i in range((-len(order)) % size))]

    def seed_filled(order: Sequence[int], _size: int, _byes: Any = None, _low: int = 0, _high: int = 0) -> Pairing:
        return seed_round(fill(order), size, {}, size, size)

    def pair_filled(order: Sequence[int], met: dict[int, set[int]], _size: int, _byes: Any = None, _low: int = 0,
                    _high: int = 0) -> Pairing:
        seats = fill(order)
        bots = [u for u in seats if u < 0]
        return pair_round(seats, {**met, **{b: set(bots) - {b} for b in bots}}, size, {}, size, size)

    return seed_filled, pair_filled
