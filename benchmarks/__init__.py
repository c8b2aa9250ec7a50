"""Benchmarks: scripts that print figures (not timed tests)."""

from __future__ import annotations

import sys

EXTRA = '.venv/bin/pip install -e ".[test]"'


def need_simcord(script: str) -> None:
    """End ``script`` with one line when SimCord (Discord simulated, in the test extra) is not installed."""
    try:
        import simcord  # noqa: F401
    except ImportError:
        sys.exit(f"{script} plays in SimCord (Discord simulated), which the test extra installs: {EXTRA}")
