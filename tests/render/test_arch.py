"""Architecture: render/ draws with Pillow only. No Discord, no SQLite, no event loop, neither in its
source (checked with ast) nor at run time (checked in a fresh interpreter)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RENDER_FILES = sorted((ROOT / "render").glob("*.py"))
FORBIDDEN = frozenset({"discord", "sqlite3", "aiosqlite", "asyncio", "bot", "cogs"})


def _imports(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_render_has_sources() -> None:
    assert {"__init__.py", "board.py", "hand.py", "final.py", "lookup.py"} <= {p.name for p in RENDER_FILES}


@pytest.mark.parametrize("path", RENDER_FILES, ids=lambda p: p.name)
def test_source_imports_nothing_forbidden(path: Path) -> None:
    bad = _imports(ast.parse(path.read_text(encoding="utf-8"))) & FORBIDDEN
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_importing_render_loads_nothing_forbidden() -> None:
    code = "import json, sys, render; print(json.dumps(sorted(m.split('.')[0] for m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    loaded = set(json.loads(out.stdout))
    assert not loaded & FORBIDDEN, sorted(loaded & FORBIDDEN)
    assert "PIL" in loaded
