"""Kept for older imports: the Banquet's builders live in tests/rules/helpers.py, its invariants in
tests/rules/invariants.py."""

from .helpers import banquet_rules, bq_game, names
from .invariants import assert_banquet_invariants

__all__ = ["assert_banquet_invariants", "banquet_rules", "bq_game", "names"]
