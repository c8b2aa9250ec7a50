"""Full strength by default (``bot.corebuild``, ``players.compile.status``): the bot uses a current compiled core,
builds a missing one in the background at its start (never where it cannot be built, nor where an owner said
``BUILD_COMPILED_CORE=no``), its thinking and review pools take new workers once it is made, and where no build
is possible the log says once that the players run plain Python, and why."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot import corebuild
from bot.__main__ import start_line
from bot.config import Config
from bot.workers import WorkerPool
from players.compile import STAMP, Status, default_dest, sources_digest, status
from rules.compile import BuildError

from .wire import read_until, start_bot, wire_discord

ROOT = Path(__file__).resolve().parents[2]
NO_CC = "no C compiler (cc) on PATH"


def test_a_current_build_is_used_and_not_built_again(tmp_path: Path) -> None:
    (tmp_path / STAMP).write_text(sources_digest())
    found = status(tmp_path, missing=lambda: NO_CC)
    assert found == Status("compiled", tmp_path)
    decided = corebuild.plan(found, env={})
    assert not decided.build and decided.core == f"compiled (mypyc, {tmp_path})"


def test_a_missing_build_is_built_in_the_background(tmp_path: Path) -> None:
    (tmp_path / STAMP).write_text("the digest of other sources")  # stale: an upgrade
    found = status(tmp_path, missing=lambda: None)
    assert found.state == "missing" and "not built yet" in found.why
    decided = corebuild.plan(found, env={})
    assert decided.build
    assert decided.core == f"plain Python until the compiled core is built (in the background, into {tmp_path})"


def test_no_build_where_none_can_be_made(tmp_path: Path) -> None:
    found = status(tmp_path, missing=lambda: NO_CC)
    assert found.state == "impossible"
    decided = corebuild.plan(found, env={})
    assert not decided.build
    assert decided.core == f"plain Python (no compiled core can be built here: {NO_CC})"


def test_the_owner_can_keep_the_bot_from_building(tmp_path: Path) -> None:
    decided = corebuild.plan(status(tmp_path, missing=lambda: None), env={"BUILD_COMPILED_CORE": "no"})
    assert not decided.build and "BUILD_COMPILED_CORE=no" in decided.core


def test_a_build_another_process_makes_is_waited_for(tmp_path: Path) -> None:
    """While another process holds the build's lock, the core is ``building`` and the bot starts no second build
    (its workers take the build once made, at their next start)."""
    dest = tmp_path / "mypyc"
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\nfrom pathlib import Path\n"
                               "from rules.compile import build_lock\n"
                               "with build_lock(Path(sys.argv[1])):\n    print('held', flush=True)\n"
                               "    sys.stdin.read()\n", str(dest)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        found = status(dest, missing=lambda: None)
        assert found == Status("building", dest)
        assert not corebuild.plan(found, env={}).build
    finally:
        holder.communicate("", timeout=30)
    assert status(dest, missing=lambda: None).state == "missing"


def test_the_compiler_runs_at_low_priority() -> None:
    """The compiler's process takes a lower priority than the bot's (the live games go first)."""
    code = "import os; print(os.nice(0))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         preexec_fn=corebuild.low_priority())
    assert int(out.stdout) >= os.nice(0) + corebuild.NICE or int(out.stdout) == 19


def test_where_the_build_lives(tmp_path: Path) -> None:
    """A checkout builds into its build/mypyc; an installed wheel (no pyproject.toml beside the packages) into the
    user's cache, one folder per version of the sources; ``COMPILED_CORE_DIR`` wins (the Docker image's)."""
    assert default_dest(ROOT, env={}) == ROOT / "build" / "mypyc"
    installed = default_dest(tmp_path, env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert installed == tmp_path / "cache" / "petersburg-discord" / f"mypyc-{sources_digest()[:16]}"
    assert default_dest(tmp_path, env={"HOME": str(tmp_path)}).parent == tmp_path / ".cache" / "petersburg-discord"
    assert default_dest(ROOT, env={"COMPILED_CORE_DIR": str(tmp_path / "core")}) == tmp_path / "core"


def test_without_a_compiler_no_build_can_be_made(tmp_path: Path) -> None:
    """No C compiler on PATH: ``missing_prerequisites`` says so (the bot's reason to run plain Python)."""
    code = "from rules.compile import missing_prerequisites\nprint(missing_prerequisites())"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "PATH": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("no C compiler (")


async def test_the_pools_take_new_workers_once_the_build_is_made() -> None:
    """``start`` runs the build in a thread and calls back on the event loop; the pools then start new workers
    while the old ones finish what they were given."""
    pool = WorkerPool("renew-test", lambda: 1)
    try:
        before = await pool.run(os.getpid)
        release = threading.Event()
        ready = asyncio.Event()
        assert corebuild.start(corebuild.Plan(True, ""), ready.set, make=release.wait)
        busy = asyncio.ensure_future(pool.run(_pid_after, 0.5))  # given to the old worker before the build is made
        await asyncio.sleep(0)
        release.set()
        await asyncio.wait_for(ready.wait(), 30)
        await pool.renew()
        after = await pool.run(os.getpid)
        assert after != before
        assert await asyncio.wait_for(busy, 60) == before  # the old worker finished its work
    finally:
        await pool.stop()


def _pid_after(seconds: float) -> int:
    import time

    time.sleep(seconds)
    return os.getpid()


async def test_a_failed_build_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    ready = asyncio.Event()
    done = threading.Event()

    def fail() -> None:
        try:
            raise BuildError("mypyc build failed (exit 1):\nerror: a long compiler message")
        finally:
            done.set()

    with caplog.at_level(logging.WARNING, logger="bot.corebuild"):
        assert corebuild.start(corebuild.Plan(True, ""), ready.set, make=fail)
        await asyncio.get_running_loop().run_in_executor(None, done.wait, 30)
        for _ in range(50):
            await asyncio.sleep(0.01)
            if caplog.records:
                break
    assert [r.getMessage() for r in caplog.records] == [
        "the compiled core could not be built (mypyc build failed (exit 1):): the computer players run plain Python"]
    assert not ready.is_set()
    assert not corebuild.start(corebuild.Plan(False, ""), ready.set)


def test_the_start_line_names_the_games_file_by_its_full_path() -> None:
    """The default DATABASE_PATH is relative to the folder the bot starts in: the start line says where that is."""
    core = corebuild.Plan(False, "compiled (mypyc, /x)")
    line = start_line(Config(), core)
    assert f"; games kept in {Path.cwd() / 'data' / 'petersburg.sqlite3'};" in line
    assert line.endswith("; computer players' core: compiled (mypyc, /x)")
    assert "games kept" not in start_line(Config(database_url="postgresql://u:secret@db/pb"), core)


async def test_without_a_compiler_the_bot_says_once_that_its_players_run_plain_python(tmp_path: Path) -> None:
    """A bot started where no compiled core exists nor can be built (no compiler on PATH): its start line says
    that the players run plain Python and why; nothing else in its log says so, and no build is started."""
    empty = tmp_path / "bin"
    empty.mkdir()
    async with wire_discord(ready=True) as wire:
        bot = await start_bot(tmp_path / "games.sqlite3", wire, PATH=str(empty), BUILD_COMPILED_CORE="yes",
                              COMPILED_CORE_DIR=str(tmp_path / "core"))
        seen: list[str] = []
        try:
            assert bot.stderr is not None
            await read_until(bot.stderr, "worker processes started", seen)
        finally:
            bot.terminate()
            await bot.wait()
    (start,) = [line for line in seen if "starting with" in line]
    assert f"games kept in {tmp_path / 'games.sqlite3'};" in start
    assert "computer players' core: plain Python (no compiled core can be built here: no C compiler (" in start
    assert "".join(seen).count("plain Python") == 1
    assert not (tmp_path / "core").exists()
