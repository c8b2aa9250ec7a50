"""Build the rules core compiled with mypyc, for speed: the same source, as C extensions for CPython.

``rules/`` stays pure Python: it is what the bot, the tests and an editable install run. This script
copies the package into ``build/mypyc/rules`` (with ``data`` linked beside it) and compiles its hot
modules there with mypyc, which uses the code's own type hints. ``PYTHONPATH=build/mypyc`` then
imports the compiled core; ``benchmarks/bench_rules.py --compiled`` does that for you, and
``tests/rules/test_compiled.py`` checks that compiled and pure Python play identical games.

Needs mypy (in the test extra), a C compiler and the Python headers. Run from the repository root::

    .venv/bin/python benchmarks/compile_rules.py [--dest build/mypyc] [--force]

A build is reused while the sources and the mypy version are unchanged (about 20 s otherwise).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DEST = ROOT / "build" / "mypyc"
# the playout path: the rules, and the computer players' search (about 3x faster compiled)
COMPILED = ("engine", "state", "cards", "actions", "ruleset", "errors", "ai_eval", "ai_hidden", "ai_search")
STAMP = ".sources-digest"

SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="rules_compiled",
    ext_modules=mypycify([f"rules/{m}.py" for m in sys.argv[1].split(",")], opt_level="3"),
    script_args=["build_ext", "--inplace"],
)
"""


class BuildError(RuntimeError):
    """The compiled build could not be made (no compiler, no headers, a mypyc error...)."""


def missing_prerequisites() -> str | None:
    """Why a compiled build cannot be made here, or None if it can."""
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return "mypy (with mypyc) is not installed: pip install -e '.[test]'"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return f"the Python headers are missing ({include})"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}) on PATH"
    return None


def sources_digest() -> str:
    import mypy.version

    h = hashlib.sha256(mypy.version.__version__.encode())
    h.update(sys.version.encode())
    h.update(",".join(COMPILED).encode())  # which modules are compiled
    for path in sorted((ROOT / "rules").glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def build(dest: Path = DEFAULT_DEST, force: bool = False, quiet: bool = True) -> Path:
    """Build (or reuse) the compiled rules core in ``dest``; return ``dest`` (the path to import from)."""
    why = missing_prerequisites()
    if why is not None:
        raise BuildError(why)
    digest = sources_digest()
    stamp = dest / STAMP
    if not force and stamp.exists() and stamp.read_text() == digest:
        return dest
    dest.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(dest / "rules", ignore_errors=True)
    shutil.copytree(ROOT / "rules", dest / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    for old in dest.glob("*__mypyc*"):
        old.unlink()
    data = dest / "data"
    if not data.exists():
        try:
            data.symlink_to(ROOT / "data", target_is_directory=True)
        except OSError:
            shutil.copytree(ROOT / "data", data)
    run = subprocess.run(
        [sys.executable, "-c", SETUP, ",".join(COMPILED)],
        cwd=dest,
        capture_output=quiet,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    if run.returncode != 0:
        tail = (run.stderr or run.stdout or "")[-3000:]
        raise BuildError(f"mypyc build failed (exit {run.returncode}):\n{tail}")
    stamp.write_text(digest)
    return dest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dest", type=Path, default=DEFAULT_DEST)
    ap.add_argument("--force", action="store_true", help="rebuild even if the sources are unchanged")
    args = ap.parse_args(argv)
    try:
        dest = build(args.dest, force=args.force, quiet=False)
    except BuildError as e:
        print(e, file=sys.stderr)
        return 1
    print(f"compiled rules core in {dest}: PYTHONPATH={dest} imports it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
