"""Build the computer players compiled with mypyc: the rules core (``rules.compile.MODULES``) and the
players' search (``MODULES`` here) as C extensions, in ``build/mypyc`` (about three times faster).

The arena and the think command re-run themselves on this build when it is current
(``players.fastcore``), and the bot's thinking workers put it first on their import path
(``bot.thinking``). Whether a build is current is decided here, from the sources of both packages,
without importing ``rules`` (a worker must decide before it imports the core). Run from the
repository root::

    .venv/bin/python -m players.compile [--dest build/mypyc] [--force]
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DEST = ROOT / "build" / "mypyc"
PACKAGES = ("rules", "players")
# besides rules.compile.MODULES:
MODULES = (
    "players/eval.py",
    "players/parts_eval.py",
    "players/market_eval.py",
    "players/hidden.py",
    "players/search.py",
    "players/mcts.py",
)
STAMP = ".sources-digest"  # as rules.compile.STAMP


def sources_digest() -> str:
    """The digest of every source file of both packages (which name the compiled modules too), the
    Python and the mypy version: the stamp of a current build (as ``rules.compile.packages_digest``)."""
    import mypy.version

    h = hashlib.sha256(mypy.version.__version__.encode())
    h.update(sys.version.encode())
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            h.update(path.relative_to(ROOT).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def compiled_build(dest: Path | None = None) -> Path | None:
    """The build directory if it holds a build of exactly the current sources, else None."""
    dest = dest or DEFAULT_DEST
    try:
        current = (dest / STAMP).read_text() == sources_digest()
    except (OSError, ImportError):  # no build, or no mypy to tell
        return None
    return dest if current else None


def build(dest: Path = DEFAULT_DEST, force: bool = False, quiet: bool = True) -> Path:
    """Build (or reuse) the compiled rules and players in ``dest``; return ``dest`` (the path to import
    from). Raises ``rules.compile.BuildError`` where no build can be made."""
    from rules import compile as rules_compile

    modules = (*rules_compile.MODULES, *MODULES)
    return rules_compile.build_packages(PACKAGES, modules, dest, sources_digest(), force, quiet)


def main(argv: list[str] | None = None) -> int:
    from rules.compile import cli

    return cli(argv, __doc__, DEFAULT_DEST, build, "rules core and players")

if __name__ == "__main__":
    sys.exit(main())
