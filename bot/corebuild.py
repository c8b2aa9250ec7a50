"""The computer players at full strength by default: the compiled core (mypyc, ``players/compile.py``), built by
the bot in the background at its start when it is missing, and used by the thinking and review workers once made.

``python -m bot`` decides at its start (``plan``): a current build is used at once; where none can be made (no C
compiler, no Python headers) the players run plain Python and the start line says why, once; else a thread of the
bot starts the build (a compiler process at low priority, killed with the bot, never on the event loop; about a
minute of one core) and, when it is made, the thinking and review pools take new workers, which import the build
(``bot.thinking.init_worker``), while the old ones finish what they were given. ``BUILD_COMPILED_CORE=no`` keeps
the bot from building (a build made beforehand, e.g. by ``python -m players.compile`` or the Docker image, is
still used). The build is made once per version of the sources (``players.compile.default_dest``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from players.compile import Status, build

from .workers import PR_SET_PDEATHSIG

log = logging.getLogger(__name__)

NICE = 15  # the compiler's priority below the bot's: the live games go first
SETTING = "BUILD_COMPILED_CORE"


@dataclass(frozen=True)
class Plan:
    """What the bot does about the compiled core at its start: ``build`` it in the background or not, and the
    words of the start line (``core``)."""

    build: bool
    core: str


def plan(found: Status, env: Mapping[str, str] | None = None) -> Plan:
    """The decision at the bot's start from the core's ``status``: build when it is neither current nor
    impossible here nor being built by another process, unless ``BUILD_COMPILED_CORE`` is ``no``."""
    e = os.environ if env is None else env
    allowed = e.get(SETTING, "").strip().lower() not in ("no", "0", "false", "off")
    if found.state != "missing":
        return Plan(False, str(found))
    if not allowed:
        return Plan(False, f"plain Python ({SETTING}=no and no current build in {found.dest})")
    return Plan(True, f"plain Python until the compiled core is built (in the background, into {found.dest})")


def low_priority() -> Callable[[], None]:
    """What the compiler's process does before it runs: take a lower priority, and (Linux) be ended by the kernel
    when the bot's process ends. libc is loaded here, in the bot, not in the forked child."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None
    except (OSError, AttributeError):
        prctl = None

    def prepare() -> None:
        with contextlib.suppress(OSError):
            os.nice(NICE)
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    return prepare


def start(decided: Plan, on_ready: Callable[[], None], make: Callable[[], object] | None = None) -> bool:
    """Build the compiled core in a thread when ``decided`` says so; ``on_ready`` is called on this event loop
    once it is made (a failed build is logged once: the players stay on plain Python). ``make`` builds (tests
    give their own); True when a build was started."""
    if not decided.build:
        return False
    loop = asyncio.get_running_loop()

    def run() -> None:
        try:
            (make or (lambda: build(preexec=low_priority())))()
        except Exception as e:  # BuildError, or an unwritable folder: the players stay on plain Python
            first = str(e).strip().splitlines()[:1]
            log.warning("the compiled core could not be built (%s): the computer players run plain Python",
                        first[0] if first else type(e).__name__)
            return
        with contextlib.suppress(RuntimeError):  # the event loop has ended meanwhile (the bot stopped)
            loop.call_soon_threadsafe(on_ready)

    threading.Thread(target=run, name="compiled-core-build", daemon=True).start()
    return True
