"""Architecture: the rules core stays pure. It imports nothing from Discord, Pillow, SQLite or asyncio,
neither in its source (checked with ast) nor at run time (checked in a fresh interpreter). The computer
players (``players/``) import the rules, never the other way round; nothing imports
``benchmarks``."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
PLAYERS = ROOT / "players"
FORBIDDEN = frozenset({"discord", "PIL", "sqlite3", "aiosqlite", "asyncio"})
RULES_FILES = sorted(RULES.rglob("*.py"))  # the expansions' files too
PLAYERS_FILES = sorted(PLAYERS.rglob("*.py"))
RUN_TIME_FILES = sorted(p for d in ("rules", "players", "render", "bot", "cogs") for p in (ROOT / d).rglob("*.py"))


def top(module: str) -> str:
    return module.split(".", 1)[0]


def imported_modules(tree: ast.AST) -> set[str]:
    """Modules named by import statements anywhere in the tree (also inside functions and
    ``if TYPE_CHECKING`` blocks) and by literal ``importlib.import_module``/``__import__`` calls."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                found.add(node.module)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return found


def test_rules_package_has_sources() -> None:
    names = {p.name for p in RULES_FILES}
    assert {"__init__.py", "engine.py", "state.py"} <= names


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(RULES)))
def test_source_imports_nothing_forbidden(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = sorted(m for m in imported_modules(tree) if top(m) in FORBIDDEN | {"players"})
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", PLAYERS_FILES, ids=lambda p: str(p.relative_to(PLAYERS)))
def test_players_import_rules_and_nothing_forbidden(path: Path) -> None:
    """The computer players may import the rules, but no Discord, Pillow, database or asyncio."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    bad = sorted(m for m in imported_modules(tree) if top(m) in FORBIDDEN | {"render", "bot", "cogs"})
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", RUN_TIME_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_at_run_time_imports_benchmarks(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    assert not {m for m in imported_modules(tree) if top(m) == "benchmarks"}, path.name


def test_the_ast_check_sees_imports() -> None:
    src = (
        "import asyncio\nfrom PIL import Image\ndef f():\n    import discord.ext\nimportlib.import_module('sqlite3')\n"
    )
    assert {top(m) for m in imported_modules(ast.parse(src))} == {"asyncio", "PIL", "discord", "sqlite3"}


def loaded_by_importing(package: str) -> list[str]:
    """Import ``package`` and every module of it in a fresh interpreter: the modules then in sys.modules."""
    code = (
        "import importlib, json, pkgutil, sys\n"
        f"import {package}\n"
        f"for m in pkgutil.walk_packages({package}.__path__, '{package}.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    loaded: list[str] = json.loads(r.stdout.strip().splitlines()[-1])
    return loaded


def test_importing_rules_loads_nothing_forbidden() -> None:
    loaded = loaded_by_importing("rules")
    assert "rules.engine" in loaded and "rules.__main__" in loaded and "rules.expansions.market" in loaded
    bad = sorted(m for m in loaded if top(m) in FORBIDDEN | {"players", "benchmarks"})
    assert not bad, f"importing rules loads {bad}"


def test_importing_players_loads_nothing_forbidden() -> None:
    loaded = loaded_by_importing("players")
    assert "players.search" in loaded and "players.__main__" in loaded and "rules.engine" in loaded
    bad = sorted(m for m in loaded if top(m) in FORBIDDEN | {"benchmarks", "render", "bot", "cogs"})
    assert not bad, f"importing players loads {bad}"


def test_players_compile_decides_without_importing_rules() -> None:
    """The bot's thinking worker asks whether the compiled build is current before it imports ``rules``."""
    code = (
        "import json, sys\n"
        "from players.compile import compiled_build\n"
        "compiled_build()\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert r.returncode == 0, r.stderr
    loaded: list[str] = json.loads(r.stdout.strip().splitlines()[-1])
    assert "players.compile" in loaded
    assert not [m for m in loaded if top(m) == "rules"]


@pytest.mark.parametrize("path", sorted(RULES.glob("*.py")), ids=lambda p: p.name)
def test_core_names_no_expansion(path: Path) -> None:
    """The core reaches expansions only through the registry (rules/expansions/__init__.py)
    and the hooks; no core module imports an expansion's own file or uses its names."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    expansion_files = {p.stem for p in (RULES / "expansions").glob("*.py")} - {"__init__"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            assert node.module.split(".")[-1] not in expansion_files, (path.name, node.module)
        if isinstance(node, ast.Name | ast.Attribute):
            name = node.id if isinstance(node, ast.Name) else node.attr
            assert name not in ("MARKET", "Market"), (path.name, name)
