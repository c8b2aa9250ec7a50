"""Settings for the whole suite: the hypothesis budgets, and the one compiled build the tests share.

Two hypothesis profiles: ``quick`` (the default: a few random games per property and part of the game, so
that the README's test command stays short) and ``full`` (the whole budget: the number of random games
``tests/rules/random_games.py`` names per property). ``full`` is loaded where ``CI`` is true (``.ci/run``),
or by name with ``HYPOTHESIS_PROFILE=full``.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# the budget of a property test is a share of ``max_examples`` (random_games.budget)
settings.register_profile("full", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("quick", max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _profile() -> str:
    named = os.environ.get("HYPOTHESIS_PROFILE", "").strip()
    if named:
        return named
    return "full" if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes") else "quick"


settings.load_profile(_profile())


@pytest.fixture(scope="session")
def players_build() -> Path:
    """The computer players compiled with the rules core (players/compile.py, ``build/mypyc``), built once
    (or reused while current); skipped where no compiled build can be made, with the reason. A lock file
    keeps two test processes (pytest-xdist workers) from building it at once."""
    from players.compile import DEFAULT_DEST, build
    from rules.compile import missing_prerequisites

    why = missing_prerequisites()
    if why is not None:
        pytest.skip(f"no compiled build possible here: {why}")
    DEFAULT_DEST.parent.mkdir(parents=True, exist_ok=True)
    with open(DEFAULT_DEST.parent / "mypyc.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        return build()
