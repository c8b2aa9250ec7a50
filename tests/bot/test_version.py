"""The version: ``python -m bot --version`` prints ``bot.__version__``, which pyproject.toml reads and
CHANGELOG.md has an entry for, and which core the computer players run."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import bot
from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_version_flag_prints_the_version() -> None:
    out = subprocess.run([sys.executable, "-m", "bot", "--version"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    first, core = out.stdout.strip().splitlines()
    assert first == f"petersburg-discord {bot.__version__}"
    assert re.fullmatch(r"computer players' core: (compiled \(mypyc, .+\)|plain Python .+)", core), core
    assert re.fullmatch(r"\d+\.\d+\.\d+", bot.__version__)


def test_the_version_has_one_source() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "bot.__version__"}


def test_the_changelog_has_an_entry_for_the_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert re.search(rf"^## \[{re.escape(bot.__version__)}\]", changelog, re.M), "no CHANGELOG entry"


def test_main_knows_the_flag() -> None:
    try:
        main(["--version"])
    except SystemExit as e:
        assert e.code == 0
    else:
        raise AssertionError("--version did not exit")
