"""The rules engine: the public entry points, gathered from the modules that hold them by concern.

- ``rules/prices.py``: prices and discounts, trading-card targets, hand limit (BG-04 … BG-06)
- ``rules/moves.py``: legal moves (seed 000 "Die Aktionen"; BG-02, BG-03, BG-08)
- ``rules/checks.py``: validation, agreeing with ``legal_moves`` (tests/rules/test_properties.py)
- ``rules/flow.py``: setup, apply (``advance``: the same without events), phases, rounds (BG-01, BG-03, BG-11 … BG-13)
- ``rules/scoring.py``: income and final scoring (BG-07, BG-10, BG-14)
- ``rules/base.py``: the Observatory and Pub decisions and the base scoring steps, as hooks
- ``rules/hooks.py`` and ``rules/expansions/``: how expansions and modules join in
"""

from __future__ import annotations

from .checks import check
from .flow import advance, apply, deal_tokens, new_game
from .moves import PUB_PRICE, PUB_VP_PER_CARD, legal_moves
from .prices import SeatContext, can_displace, hand_limit, price, seat_context, targets
from .scoring import HAND_PENALTY, aristocrat_vp, final_scoring

__all__ = [
    "HAND_PENALTY",
    "PUB_PRICE",
    "PUB_VP_PER_CARD",
    "SeatContext",
    "advance",
    "apply",
    "aristocrat_vp",
    "can_displace",
    "check",
    "deal_tokens",
    "final_scoring",
    "hand_limit",
    "legal_moves",
    "new_game",
    "price",
    "seat_context",
    "targets",
]
