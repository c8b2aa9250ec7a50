"""Kept for older imports: the builders of Modules 4 and 6 live in tests/rules/helpers.py."""

from .helpers import LAYOUT, mod_game, mod_rules

__all__ = ["LAYOUT", "mod_game", "mod_rules"]
