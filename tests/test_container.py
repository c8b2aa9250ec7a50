"""The Docker image (``Dockerfile``), where a container engine runs: it builds, and the bot in it logs in to a
stub of Discord (``tests/bot/wire.py``, on the host's network), says that its computer players run the compiled
core built into the image, keeps its database on the volume and stops cleanly on ``docker stop`` (SIGTERM, exit
code 0). Skipped, with the reason, where no engine runs or the base image cannot be had; CI checks the image's
install steps in a fresh venv regardless (``.ci/wheel-check``, ``tests/test_packaging.py``)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.bot.wire import read_until, wire_discord

ROOT = Path(__file__).resolve().parents[1]
BASE = "python:3.11-slim"


def _engine() -> str:
    """The docker command, or skip with the reason there is none that can build the image."""
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("no container engine: the docker command is not installed")
    info = subprocess.run([docker, "info"], capture_output=True, text=True, timeout=60)
    if info.returncode != 0:
        pytest.skip(f"no container engine runs here: {info.stderr.strip().splitlines()[-1:]}")
    have = subprocess.run([docker, "image", "inspect", BASE], capture_output=True, timeout=60).returncode == 0
    if not have:
        pull = subprocess.run([docker, "pull", BASE], capture_output=True, text=True, timeout=600)
        if pull.returncode != 0:
            pytest.skip(f"the base image {BASE} cannot be pulled: {pull.stderr.strip()[-200:]}")
    return docker


async def test_the_image_runs_the_bot_on_the_compiled_core(tmp_path: Path) -> None:
    docker = _engine()
    tag = f"petersburg-test-{uuid.uuid4().hex[:8]}"
    built = subprocess.run([docker, "build", "-q", "--network", "host", "-t", tag, str(ROOT)], capture_output=True,
                           text=True, timeout=1800)
    assert built.returncode == 0, built.stderr[-3000:]
    volume = f"{tag}-data"
    try:
        async with wire_discord(ready=True) as wire:
            env = [a for k, v in {"DISCORD_TOKEN": "x" * 40, **wire.env}.items() for a in ("-e", f"{k}={v}")]
            bot = await asyncio.create_subprocess_exec(
                docker, "run", "--rm", "--init", "--network", "host", "-v", f"{volume}:/data", "--name", tag, *env,
                tag, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            seen: list[str] = []
            assert bot.stderr is not None
            await read_until(bot.stderr, "worker processes started", seen, timeout=120)
            stop = await asyncio.create_subprocess_exec(docker, "stop", tag)
            await stop.wait()
            code = await asyncio.wait_for(bot.wait(), 60)
        (start,) = [line for line in seen if "starting with" in line]
        assert "games kept in /data/data/petersburg.sqlite3;" in start
        assert "computer players' core: compiled (mypyc, /opt/petersburg/core)" in start
        assert code == 0
        listing = subprocess.run([docker, "run", "--rm", "-v", f"{volume}:/data", "--entrypoint", "ls", tag,
                                  "/data/data"], capture_output=True, text=True, timeout=120)
        assert "petersburg.sqlite3" in listing.stdout.split()
    finally:
        subprocess.run([docker, "volume", "rm", "-f", volume], capture_output=True, timeout=120)
        subprocess.run([docker, "image", "rm", "-f", tag], capture_output=True, timeout=120)
