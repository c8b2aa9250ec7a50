"""Which core the computer players run: the mypyc build (``players/compile.py``) when it is built and
current with these sources, pure Python otherwise.

Both are the packages ``rules`` and ``players``, so one process holds one of them; a command that wants
speed (the arena, the think command, ``random``) re-runs itself once in a child whose import path starts
at the build.
"""

from __future__ import annotations

import os
import subprocess
import sys

from rules import state

from .compile import compiled_build

CHILD_FLAG = "RULES_COMPILED_CHILD"  # set in the child: never re-run twice


def running_compiled() -> bool:
    """This process runs the compiled core (its modules are extension modules, not .py files)."""
    return not (state.__file__ or "").endswith(".py")


def rerun_compiled(argv: list[str]) -> int | None:
    """Run ``python -m players argv`` on the compiled core if that is possible and not already the case;
    returns its exit status, or None when this process should go on itself."""
    if running_compiled() or os.environ.get(CHILD_FLAG):
        return None
    path = compiled_build()
    if path is None:
        return None
    env = {**os.environ, "PYTHONPATH": str(path), CHILD_FLAG: "1"}
    # cwd=path: ``-m`` puts the working directory first on the import path.
    return subprocess.run([sys.executable, "-m", "players", *argv], cwd=path, env=env).returncode


def core_name() -> str:
    return "compiled (mypyc)" if running_compiled() else "pure Python"


__all__ = ["CHILD_FLAG", "compiled_build", "core_name", "rerun_compiled", "running_compiled"]
