"""Which rules core runs: the mypyc build (``benchmarks/compile_rules.py``) when it is built and
current with these sources, pure Python otherwise.

Both are the package ``rules``, so one process holds one of them; a command that wants speed (the
arena, ``random --computer``) re-runs itself once in a child whose import path starts at the build.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from . import state

CHILD_FLAG = "RULES_COMPILED_CHILD"  # set in the child: never re-run twice


def running_compiled() -> bool:
    """This process runs the compiled core (its modules are extension modules, not .py files)."""
    return not (state.__file__ or "").endswith(".py")


def compiled_build(dest: Path | None = None) -> Path | None:
    """The build directory if it holds a build of exactly the current sources, else None."""
    try:
        from benchmarks.compile_rules import DEFAULT_DEST, STAMP, sources_digest
    except ImportError:  # not run from a checkout (or mypy missing): no build to check
        return None
    dest = dest or DEFAULT_DEST
    try:
        current = (dest / STAMP).read_text() == sources_digest()
    except (OSError, ImportError):
        return None
    return dest if current else None


def rerun_compiled(argv: list[str]) -> int | None:
    """Run ``python -m rules argv`` on the compiled core if that is possible and not already the case;
    returns its exit status, or None when this process should go on itself."""
    if running_compiled() or os.environ.get(CHILD_FLAG):
        return None
    path = compiled_build()
    if path is None:
        return None
    env = {**os.environ, "PYTHONPATH": str(path), CHILD_FLAG: "1"}
    # cwd=path: ``-m`` puts the working directory first on the import path.
    return subprocess.run([sys.executable, "-m", "rules", *argv], cwd=path, env=env).returncode


def core_name() -> str:
    return "compiled (mypyc)" if running_compiled() else "pure Python"
