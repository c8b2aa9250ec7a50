"""Settings for the whole suite: the hypothesis budgets, and the one compiled build the tests share.

Two hypothesis profiles: ``quick`` (the default: a few random games per property and part of the game, so
that the README's test command stays short) and ``full`` (the whole budget: the number of random games
``tests/rules/random_games.py`` names per property). ``full`` is loaded where ``CI`` is true (``.ci/run``),
or by name with ``HYPOTHESIS_PROFILE=full``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from pathlib import Path
from typing import IO

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


def _lock(dest: Path) -> IO[str]:
    """The build's lock file, held (released when the file closes)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    lock = open(dest.parent / "mypyc.lock", "w")  # noqa: SIM115 (held until the build ends)
    fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


_early: list[threading.Thread] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    """The session's first process (pytest-xdist's controller, which runs no test itself) starts the compiled
    build at once in a thread when it is not current, holding the lock: the tests that need it find it made
    instead of waiting for it (a fresh build takes 35-55 s of a core, and every worker needing it waited)."""
    if hasattr(session.config, "workerinput"):
        return
    from players.compile import DEFAULT_DEST, build, compiled_build
    from rules.compile import BuildError, missing_prerequisites

    if compiled_build() is not None or missing_prerequisites() is not None:
        return
    lock = _lock(DEFAULT_DEST)

    def make() -> None:
        with lock, contextlib.suppress(BuildError):  # a failed build: the fixture builds again and reports
            build()

    _early.append(threading.Thread(target=make, name="mypyc-build", daemon=True))
    _early[0].start()


def pytest_sessionfinish(session: pytest.Session) -> None:
    for thread in _early:
        thread.join()


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
    with _lock(DEFAULT_DEST):
        return build()
