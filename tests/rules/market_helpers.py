"""Kept for older imports: the Market's builders live in tests/rules/helpers.py, its invariants in
tests/rules/invariants.py."""

from .helpers import MARKET_KINDS, MARKET_SCORE_EVENTS, market_game, market_rules, pos, take_roundel
from .invariants import assert_market_invariants, fresh_positions

__all__ = ["MARKET_KINDS", "MARKET_SCORE_EVENTS", "assert_market_invariants", "fresh_positions", "market_game",
           "market_rules", "pos", "take_roundel"]
