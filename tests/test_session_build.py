"""A test session builds the compiled core only when one of its tests needs it (the ``players_build`` fixture,
``tests/conftest.py``): one test file of the docs or the settings runs in seconds, also the first time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_session_without_a_compiled_test_builds_nothing(tmp_path: Path) -> None:
    core = tmp_path / "core"  # no build there: a session that started one would make this folder and its lock
    run = subprocess.run([sys.executable, "-m", "pytest", "-o", "addopts=-q", "-p", "no:cacheprovider",
                          "tests/test_env_example.py"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "COMPILED_CORE_DIR": str(core)})
    assert run.returncode == 0, run.stdout[-2000:]
    assert sorted(p.name for p in tmp_path.iterdir()) == []
