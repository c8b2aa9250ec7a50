"""Kept for older imports: the builders of In bester Gesellschaft, SP+ and Module 2 live in
tests/rules/helpers.py."""

from .helpers import IBG, SP_PLUS, end_phase, ibg, module2, society_game, sp_plus

__all__ = ["IBG", "SP_PLUS", "end_phase", "ibg", "module2", "society_game", "sp_plus"]
