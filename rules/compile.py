"""Build the rules core compiled with mypyc, for speed: the same source, as C extensions for CPython.

``rules/`` stays pure Python: it is what the bot, the tests and an editable install run. ``build``
copies the packages into a build directory (with a checkout's ``data`` linked beside them) and compiles their hot
modules there with mypyc, which uses the code's own type hints; ``PYTHONPATH=<dest>`` then imports the
compiled core. This module builds the rules alone (``MODULES``, into ``build/mypyc-rules``); the
computer players build the rules together with their search (``players/compile.py``, ``build/mypyc``).
``benchmarks/bench_rules.py --compiled`` uses this build, and ``tests/rules/test_compiled.py`` checks
that compiled and pure Python play identical games.

Needs mypy (a dependency of the project), a C compiler and the Python headers. Run from the repository root::

    .venv/bin/python -m rules.compile [--dest build/mypyc-rules] [--force]

A build is reused while the sources and the mypy version are unchanged (about 20 s otherwise).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DEST = ROOT / "build" / "mypyc-rules"
PACKAGES = ("rules",)
MODULES = tuple(  # the playout path of the rules (the computer players add their search)
    f"rules/{m}.py"
    for m in (
        "engine", "state", "seat_stats", "cards", "actions", "ruleset", "errors",
        "hooks", "card_index", "prices", "moves", "checks", "flow", "scoring", "base", "lots",
        "expansions/market", "expansions/market_decisions", "expansions/common",
        "expansions/module4", "expansions/module4_decisions", "expansions/module6", "expansions/module6_decisions",
        "expansions/banquet", "expansions/banquet_cards", "expansions/banquet_decisions", "expansions/debtors_prison",
        "expansions/society", "expansions/society_decisions", "expansions/assistants", "expansions/assignments",
        "expansions/assignment_decision",
    )
)  # fmt: skip
STAMP = ".sources-digest"

SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="rules_compiled",
    ext_modules=mypycify(sys.argv[1].split(","), opt_level="3"),
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
        return "mypy (with mypyc) is not installed: pip install the project again (it depends on mypy)"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return f"the Python headers are missing ({include})"
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        return f"no C compiler ({cc}) on PATH"
    return None


def packages_digest(packages: Sequence[str]) -> str:
    """The digest of every source file of ``packages`` (which name the compiled modules too), the
    Python and the mypy version: a build stamped with it is current."""
    import mypy.version

    h = hashlib.sha256(mypy.version.__version__.encode())
    h.update(sys.version.encode())
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            h.update(path.relative_to(ROOT).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def sources_digest() -> str:
    return packages_digest(PACKAGES)


def lock_path(dest: Path) -> Path:
    """The lock file of the build in ``dest``, held while it is made (beside it: ``build/mypyc.lock``)."""
    return dest.with_name(dest.name + ".lock")


@contextlib.contextmanager
def build_lock(dest: Path) -> Iterator[IO[str]]:
    """Hold the lock of the build in ``dest`` (waiting for a build another process makes)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path(dest), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield lock


def being_built(dest: Path) -> bool:
    """Whether a process holds the lock of the build in ``dest`` now (is making it)."""
    try:
        with open(lock_path(dest), "a") as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            return False
    except OSError:
        return False


def build_packages(
    packages: Sequence[str], modules: Sequence[str], dest: Path, digest: str, force: bool = False, quiet: bool = True,
    preexec: Callable[[], None] | None = None,
) -> Path:
    """Copy ``packages`` into ``dest`` and compile ``modules`` (paths below it) there, unless ``dest``
    already holds a build stamped ``digest``; return ``dest`` (the path to import from). One process builds at a
    time (``build_lock``: another waits, then finds the build made). ``preexec`` runs in the compiler's process
    before it starts (the bot lowers its priority so)."""
    why = missing_prerequisites()
    if why is not None:
        raise BuildError(why)
    stamp = dest / STAMP
    if not force and stamp.exists() and stamp.read_text() == digest:
        return dest
    with build_lock(dest):
        if not force and stamp.exists() and stamp.read_text() == digest:  # made while this process waited
            return dest
        _make(packages, modules, dest, quiet, preexec)
        stamp.write_text(digest)
    return dest


def _make(packages: Sequence[str], modules: Sequence[str], dest: Path, quiet: bool,
          preexec: Callable[[], None] | None) -> None:
    root = ROOT  # a checkout, or the site-packages of an installed wheel
    dest.mkdir(parents=True, exist_ok=True)
    (dest / STAMP).unlink(missing_ok=True)
    for package in packages:
        shutil.rmtree(dest / package, ignore_errors=True)
        shutil.copytree(root / package, dest / package, ignore=shutil.ignore_patterns("__pycache__"))
    for old in dest.glob("*__mypyc*"):
        old.unlink()
    data = dest / "data"
    if (root / "data").is_dir() and not data.exists():  # a checkout's (the core reads it as petersburg_data)
        try:
            data.symlink_to(root / "data", target_is_directory=True)
        except OSError:
            shutil.copytree(root / "data", data)
    run = subprocess.run(
        [sys.executable, "-c", SETUP, ",".join(modules)],
        cwd=dest,
        capture_output=quiet,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
        preexec_fn=preexec,
    )
    if run.returncode != 0:
        tail = (run.stderr or run.stdout or "")[-3000:]
        raise BuildError(f"mypyc build failed (exit {run.returncode}):\n{tail}")


def import_from(dest: Path, packages: Sequence[str] = PACKAGES) -> None:
    """Import ``packages`` from the build in ``dest`` from now on: put it first on the import path and
    forget the modules of them already imported (this one among them), for a script that built first."""
    sys.path.insert(0, str(dest))
    for name in [m for m in sys.modules if m.split(".", 1)[0] in packages]:
        del sys.modules[name]


def build(dest: Path = DEFAULT_DEST, force: bool = False, quiet: bool = True) -> Path:
    """Build (or reuse) the compiled rules core in ``dest``; return ``dest`` (the path to import from)."""
    return build_packages(PACKAGES, MODULES, dest, sources_digest(), force, quiet)


def cli(argv: list[str] | None, doc: str | None, default: Path, make: Callable[[Path, bool, bool], Path],
        made: str) -> int:
    """The command line of a package's build (``--dest``, ``--force``); ``made`` names what was built."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dest", type=Path, default=default)
    ap.add_argument("--force", action="store_true", help="rebuild even if the sources are unchanged")
    args = ap.parse_args(argv)
    try:
        dest = make(args.dest, args.force, False)
    except BuildError as e:
        print(e, file=sys.stderr)
        return 1
    print(f"compiled {made} in {dest}: PYTHONPATH={dest} imports it")
    return 0


def main(argv: list[str] | None = None) -> int:
    return cli(argv, __doc__, DEFAULT_DEST, build, "rules core")


if __name__ == "__main__":
    sys.exit(main())
