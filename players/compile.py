"""Build the computer players compiled with mypyc: the rules core (``rules.compile.MODULES``) and the
players' search (``MODULES`` here) as C extensions (about three times faster), in ``build/mypyc`` of a checkout,
else (an installed wheel, a checkout the bot may not write into) in the user's cache folder
(``$XDG_CACHE_HOME/petersburg-discord/mypyc-<digest>``, ``default_dest``).

The arena and the think command re-run themselves on this build when it is current
(``players.fastcore``), and the bot's thinking workers put it first on their import path
(``bot.thinking``); the bot makes it in the background at its start (``bot.corebuild``). Whether a build is
current is decided here, from the sources of both packages, without importing ``rules`` (a worker must decide
before it imports the core); ``status`` says which core runs and why. Run::

    .venv/bin/python -m players.compile [--dest build/mypyc] [--force]
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # a checkout, or the site-packages of an installed wheel
PACKAGES = ("rules", "players")
# besides rules.compile.MODULES:
MODULES = (
    "players/collector.py",
    "players/eval.py",
    "players/parts_eval.py",
    "players/market_eval.py",
    "players/hidden.py",
    "players/search.py",
    "players/mcts.py",
    "players/judge_eval.py",
    "players/judge.py",
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


def default_dest(root: Path = ROOT, env: Mapping[str, str] | None = None) -> Path:
    """Where the build is made and looked for: ``COMPILED_CORE_DIR`` when set; else ``build/mypyc`` in a
    checkout (a folder with pyproject.toml) the process may write into; else the user's cache folder, one build
    per sources digest (an installed wheel's site-packages may be read-only, and two versions installed side by
    side must not share one build)."""
    e = os.environ if env is None else env
    if e.get("COMPILED_CORE_DIR", "").strip():
        return Path(e["COMPILED_CORE_DIR"].strip()).expanduser().absolute()
    if (root / "pyproject.toml").is_file() and os.access(root, os.W_OK):
        return root / "build" / "mypyc"
    cache = Path(e.get("XDG_CACHE_HOME") or Path(e.get("HOME") or Path.home()) / ".cache")
    try:
        key = sources_digest()[:16]
    except ImportError:  # no mypy: no build either way
        key = "none"
    return cache / "petersburg-discord" / f"mypyc-{key}"


DEFAULT_DEST = default_dest()


def compiled_build(dest: Path | None = None) -> Path | None:
    """The build directory if it holds a build of exactly the current sources, else None."""
    dest = dest or DEFAULT_DEST
    try:
        current = (dest / STAMP).read_text() == sources_digest()
    except (OSError, ImportError):  # no build, or no mypy to tell
        return None
    return dest if current else None


@dataclass(frozen=True)
class Status:
    """Which core the computer players run here: ``compiled``; or plain Python, while a process builds it
    (``building``), because it is not built yet (``missing``: it can be) or because no build can be made here
    (``impossible``), ``why`` saying which."""

    state: str
    dest: Path
    why: str = ""

    def __str__(self) -> str:
        if self.state == "compiled":
            return f"compiled (mypyc, {self.dest})"
        if self.state == "building":
            return f"plain Python while the compiled core is being built ({self.dest})"
        return f"plain Python ({self.why})"


def status(dest: Path | None = None, missing: Callable[[], str | None] | None = None) -> Status:
    """Which core runs (see ``Status``) with the build in ``dest``; ``missing`` says why no build can be made
    here, or None (``rules.compile.missing_prerequisites``)."""
    from rules.compile import being_built, missing_prerequisites

    dest = dest or DEFAULT_DEST
    if compiled_build(dest) is not None:
        return Status("compiled", dest)
    why = (missing or missing_prerequisites)()
    if why is not None:
        return Status("impossible", dest, f"no compiled core can be built here: {why}")
    if being_built(dest):
        return Status("building", dest)
    return Status("missing", dest, "the compiled core is not built yet: the bot builds it at its start, "
                  "or run python -m players.compile")


def build(dest: Path | None = None, force: bool = False, quiet: bool = True,
          preexec: Callable[[], None] | None = None) -> Path:
    """Build (or reuse) the compiled rules and players in ``dest`` (``DEFAULT_DEST``); return ``dest`` (the path
    to import from). Raises ``rules.compile.BuildError`` where no build can be made."""
    from rules import compile as rules_compile

    modules = (*rules_compile.MODULES, *MODULES)
    return rules_compile.build_packages(PACKAGES, modules, dest or DEFAULT_DEST, sources_digest(), force, quiet,
                                        preexec)


def main(argv: list[str] | None = None) -> int:
    from rules.compile import cli

    return cli(argv, __doc__, DEFAULT_DEST, build, "rules core and players")

if __name__ == "__main__":
    sys.exit(main())
