"""The scripts that play in SimCord say so in one line, with the command that installs it, where it is missing
(instead of a traceback)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NEED_SIMCORD = ["scripts/channel_picture.py", *sorted(  # every script that plays in SimCord
    f"benchmarks/{p.name}" for p in (ROOT / "benchmarks").glob("*.py")
    if "import simcord  # noqa: E402" in p.read_text() and "def main(" in p.read_text())]


@pytest.mark.parametrize("script", NEED_SIMCORD)
def test_a_script_that_needs_simcord_says_so_where_it_is_missing(script: str) -> None:
    hide = ("import runpy, sys; sys.modules['simcord'] = None; sys.argv = [sys.argv[1]]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')")  # as if SimCord were not installed
    done = subprocess.run([sys.executable, "-c", hide, str(ROOT / script)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == (f"{script} plays in SimCord (Discord simulated), which the test extra installs: "
                           '.venv/bin/pip install -e ".[test]"\n'), done.stderr
