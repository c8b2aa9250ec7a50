"""Kept for older imports: the builders of Modules 3 and 5 live in tests/rules/helpers.py, their
invariants in tests/rules/invariants.py."""

from .helpers import module_game, module_rules, seats
from .invariants import assert_module_invariants

__all__ = ["assert_module_invariants", "module_game", "module_rules", "seats"]
