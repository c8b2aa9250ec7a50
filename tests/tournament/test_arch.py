"""Architecture: the tournament logic is pure. It imports the standard library only (no Discord, database,
asyncio, Pillow, nor the bot, the cogs or the rules core), in its source and at run time."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "tournament").glob("*.py"))
FORBIDDEN = frozenset(
    {"discord", "PIL", "sqlite3", "aiosqlite", "asyncpg", "asyncio", "bot", "cogs", "rules", "render", "players"}
)


def test_tournament_has_sources() -> None:
    assert {"__init__.py", "swiss.py", "standings.py", "heats.py", "points.py", "tables.py"} <= {p.name for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_source_imports_nothing_forbidden(path: Path) -> None:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    assert not found & FORBIDDEN, f"{path.name} imports {sorted(found & FORBIDDEN)}"


def test_importing_tournament_loads_nothing_forbidden() -> None:
    code = "import json, sys, tournament.heats; print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert "tournament" in loaded
    assert not loaded & FORBIDDEN, sorted(loaded & FORBIDDEN)
