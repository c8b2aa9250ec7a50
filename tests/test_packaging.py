"""The package installs anywhere: the wheel ships the game's data (cards, translations, fonts) as the package
``petersburg_data``, read through ``importlib.resources``, so rules and pictures work from the wheel itself (a
zip) with no checkout beside it; pyproject.toml names every package; the README's install brings what builds the
compiled core; and the Docker image installs by the steps CI runs (``.ci/install``, ``.ci/wheel-check``).
The whole install outside the checkout is ``.ci/wheel-check`` (run by ``.ci/run``)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from this checkout (``pip wheel``, as ``.ci/wheel-check`` builds it)."""
    dist = tmp_path_factory.mktemp("dist")
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0 and "No matching distribution" in run.stderr:
        pytest.skip(f"the wheel's build requirements cannot be installed here: {run.stderr.strip()[-300:]}")
    assert run.returncode == 0, run.stderr
    (built,) = dist.glob("petersburg_discord-*.whl")
    return built


def test_the_wheel_ships_the_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    data = sorted(p.relative_to(ROOT / "data").as_posix() for p in (ROOT / "data").rglob("*")
                  if p.is_file() and p.suffix != ".sqlite3" and "__pycache__" not in p.parts)
    assert len(data) > 35
    missing = [name for name in data if f"petersburg_data/{name}" not in names]
    assert missing == []


def test_rules_and_pictures_run_from_the_wheel_alone(wheel: Path, tmp_path: Path) -> None:
    """Imported from the wheel file itself (a zip on the import path, in a folder far from the checkout): a
    random game of the Market with every module in German and a board picture, every data file read from the
    wheel."""
    code = f"""
import random, sys
sys.path.insert(0, {str(wheel)!r})
import rules, rules.cards, render
from rules import Ruleset, apply, legal_moves, new_game, view
from rules.i18n import t
from render import render_board
assert rules.__file__.startswith({str(wheel)!r}), rules.__file__
assert str(rules.cards.DATA_DIR).startswith({str(wheel)!r}), rules.cards.DATA_DIR
rng = random.Random(2)
st = new_game(Ruleset(edition=2, players=5, expansions=("market",), modules=(1, 2, 3, 4, 5, 6)), list("ABCDE"), seed=2)
while not st.finished:
    apply(st, rng.choice(legal_moves(st)).action)
assert t("error.not_your_turn", "de").startswith("Du bist nicht am Zug")
png = render_board(view(st, None), "de")
assert png.startswith(b"\\x89PNG") and len(png) > 20000
print("ok")
"""
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_pyproject_names_every_package() -> None:
    """The packages are listed by name (``petersburg_data`` is the folder data/): the list holds every package
    of the checkout, so a new one cannot be left out of the wheel."""
    listed = PROJECT["tool"]["setuptools"]["packages"]
    found = find_packages(str(ROOT), include=["rules*", "players*", "render*", "tournament*", "bot*", "cogs*"])
    assert sorted(listed) == sorted([*found, "petersburg_data"])
    assert PROJECT["tool"]["setuptools"]["package-dir"] == {"petersburg_data": "data"}


def test_the_readme_install_brings_the_compiled_core() -> None:
    """``pip install -e .`` (the README's install, without the test extra) installs what builds the compiled
    core (mypy with mypyc, setuptools), pinned."""
    pinned = {m[1] for d in PROJECT["project"]["dependencies"] if (m := re.fullmatch(r"([\w.-]+)==\S+", d))}
    assert {"mypy", "setuptools"} <= pinned


def test_the_image_installs_by_the_steps_ci_runs() -> None:
    """The Dockerfile installs the wheel with ``.ci/install`` (the compiled core built at image build time), as
    ``.ci/wheel-check`` does in a fresh venv, which ``.ci/run`` runs with ruff and mypy; the token never goes into
    the image."""
    docker = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^RUN python -m pip wheel .+\n +&& sh \.ci/install /opt/petersburg /dist /opt/petersburg/core$",
                     docker, re.M)
    assert "USER petersburg" in docker and "VOLUME /data" in docker
    assert re.search(r'^"\$checkout/\.ci/install" ', (ROOT / ".ci/wheel-check").read_text(), re.M)
    run = (ROOT / ".ci/run").read_text()
    for step in (".ci/wheel-check", ".venv/bin/ruff check .", ".venv/bin/mypy"):
        assert re.search(rf"^[^#\n]*{re.escape(step)}", run, re.M), step
    assert ".env" in (ROOT / ".dockerignore").read_text().splitlines()
