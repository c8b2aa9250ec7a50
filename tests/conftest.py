"""Settings for the whole suite: the hypothesis budgets, and the one compiled build the tests share.

Two hypothesis profiles: ``quick`` (the default: a few random games per property and part of the game, so
that the README's test command stays short) and ``full`` (the whole budget: the number of random games
``tests/rules/random_games.py`` names per property). ``full`` is loaded where ``CI`` is true (``.ci/run``),
or by name with ``HYPOTHESIS_PROFILE=full``.
"""

from __future__ import annotations

import contextlib
import os
import threading
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


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): one worker process per core and one more, as the tests still wait a
    quarter of their time (bot processes starting, PostgreSQL, SimCord settling), which a third worker fills
    on two cores."""
    return (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1) + 1


_early: list[threading.Thread] = []


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """When a collected test needs the compiled build (the ``players_build`` fixture) and it is not current, this
    process starts it at once in a thread, so that those tests find it made or nearly (a fresh build takes 35-55 s
    of a core); a session without such a test (one test file, say) builds nothing. ``rules.compile``'s lock keeps
    two processes (pytest-xdist's workers) from building at once: the second finds the build made."""
    if not any("players_build" in getattr(item, "fixturenames", ()) for item in items):
        return
    from players.compile import build, compiled_build
    from rules.compile import BuildError, missing_prerequisites

    if compiled_build() is not None or missing_prerequisites() is not None:
        return

    def make() -> None:
        with contextlib.suppress(BuildError):  # a failed build: the fixture builds again and reports
            build()

    _early.append(threading.Thread(target=make, name="mypyc-build", daemon=True))
    _early[0].start()


def pytest_sessionfinish(session: pytest.Session) -> None:
    for thread in _early:
        thread.join()


@pytest.fixture(scope="session")
def players_build() -> Path:
    """The computer players compiled with the rules core (players/compile.py, ``build/mypyc``), built once
    (or reused while current); skipped where no compiled build can be made, with the reason. The build's lock
    file (``rules.compile.build_packages``) keeps two test processes (pytest-xdist workers) from building it at
    once."""
    from players.compile import build
    from rules.compile import missing_prerequisites

    why = missing_prerequisites()
    if why is not None:
        pytest.skip(f"no compiled build possible here: {why}")
    return build()
