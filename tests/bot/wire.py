"""Running the real ``python -m bot`` process for process tests: a minimal Discord on the wire (the REST calls
of logging in, and a gateway that says hello and keeps the connection open), and the process tree the bot
starts (its worker processes).

The bot logs in through ``DISCORD_REST_PROXY`` and connects to ``DISCORD_GATEWAY_URL``, both pointed here; it
then runs as in production, waiting for events that never come.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

ROOT = Path(__file__).resolve().parents[2]
BOT_ID = "900000000000000001"
USER = {"id": BOT_ID, "username": "petersburg", "discriminator": "0", "avatar": None, "bot": True,
        "global_name": None, "public_flags": 0, "flags": 0}


def _json(data: Any, status: int = 200) -> web.Response:
    """A JSON answer as Discord sends it (discord.py parses only ``Content-Type: application/json``)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


@dataclass
class Wire:
    """What the bot did on the wire so far."""

    port: int = 0
    requests: list[str] = field(default_factory=list)
    identified: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def env(self) -> dict[str, str]:
        return {"DISCORD_REST_PROXY": f"http://127.0.0.1:{self.port}/api/v10",
                "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{self.port}/gateway"}


@asynccontextmanager
async def wire_discord(*, ready: bool = False, refuse_token: bool = False) -> AsyncIterator[Wire]:
    """A Discord that lets the bot log in and connect (nothing else: any other call is answered 404);
    ``ready``: the gateway also says READY (in no server), so the bot catches up its games as at a start;
    ``refuse_token``: it answers the login 401 Unauthorized, as Discord does for a wrong token."""
    wire = Wire()

    async def me(request: web.Request) -> web.Response:
        wire.requests.append(request.path)
        if refuse_token:
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        return _json(USER)

    async def application(request: web.Request) -> web.Response:
        wire.requests.append(request.path)
        return _json({"id": BOT_ID, "name": "petersburg", "description": "", "icon": None,
                                  "bot_public": True, "bot_require_code_grant": False, "owner": USER,
                                  "verify_key": "0" * 64, "flags": 0})

    async def other(request: web.Request) -> web.Response:
        wire.requests.append(request.path)
        return _json({"message": "Unknown", "code": 0}, status=404)

    async def gateway(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45_000}, "s": None, "t": None})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            op = msg.json().get("op")
            if op == 1:
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:
                wire.identified.set()
                if ready:
                    await ws.send_json({"op": 0, "s": 1, "t": "READY", "d": {
                        "v": 10, "user": USER, "guilds": [], "session_id": "wire", "shard": [0, 1],
                        "resume_gateway_url": f"ws://127.0.0.1:{wire.port}/gateway",
                        "application": {"id": BOT_ID, "flags": 0}}})
        return ws

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/oauth2/applications/@me", application)
    app.router.add_get("/gateway", gateway)
    app.router.add_route("*", "/{tail:.*}", other)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    wire.port = int(runner.addresses[0][1])
    try:
        yield wire
    finally:
        await runner.cleanup()


async def start_bot(db: Path, wire: Wire, **env: str) -> asyncio.subprocess.Process:
    """``python -m bot`` on ``db`` against ``wire`` (stderr piped: its log)."""
    full = {**os.environ, "DISCORD_TOKEN": "x" * 40, "DATABASE_PATH": str(db), "LOG_LEVEL": "INFO",
            "PYTHONPATH": str(ROOT), **wire.env, **env}
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "--env-file", os.devnull,
                                                cwd=ROOT, env=full, stdin=asyncio.subprocess.DEVNULL,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def read_until(stream: asyncio.StreamReader, words: str, seen: list[str], timeout: float = 60) -> None:
    """Read lines of ``stream`` into ``seen`` until one contains ``words``."""
    async def scan() -> None:
        while True:
            line = await stream.readline()
            if not line:
                raise AssertionError(f"the bot ended before logging {words!r}:\n" + "".join(seen[-40:]))
            seen.append(line.decode(errors="replace"))
            if words in seen[-1]:
                return

    await asyncio.wait_for(scan(), timeout)


async def read_rest(stream: asyncio.StreamReader, seen: list[str]) -> None:
    """Read the rest of ``stream`` into ``seen`` (until cancelled)."""
    while line := await stream.readline():
        seen.append(line.decode(errors="replace"))


async def ended(process: asyncio.subprocess.Process, within: float) -> int:
    """The exit code of ``process`` once it has ended (``wait()`` would also wait for its pipes, which
    processes it left behind may hold open)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while process.returncode is None:
        if loop.time() >= end:
            raise AssertionError(f"the bot did not end within {within} s")
        await asyncio.sleep(0.05)
    return process.returncode


# --- the process tree ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Proc:
    """A process, told apart from a later one with the same pid by its start time."""

    pid: int
    start: str
    cmdline: str

    def alive(self) -> bool:
        stat = _stat(self.pid)
        return stat is not None and stat[21] == self.start and stat[2] not in ("Z", "X")


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    head, _, rest = text.rpartition(")")
    return [str(pid), head.partition("(")[2], *rest.split()]


def descendants(pid: int) -> list[Proc]:
    """Every living process below ``pid`` (children, their children, ...)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[2] not in ("Z", "X"):
                parents[int(entry)] = int(stat[3])
    found: list[Proc] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, ppid in parents.items():
            if ppid == parent:
                stat = _stat(child)
                if stat is None:
                    continue
                try:
                    cmd = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
                found.append(Proc(child, stat[21], cmd))
                frontier.append(child)
    return found


async def survivors(procs: list[Proc], within: float) -> list[Proc]:
    """The processes of ``procs`` still alive after ``within`` seconds (checked as they end)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + within
    while True:
        left = [p for p in procs if p.alive()]
        if not left or loop.time() >= end:
            return left
        await asyncio.sleep(0.1)


def describe(procs: list[Any]) -> str:
    return "; ".join(f"{p.pid}: {p.cmdline[:120]}" for p in procs)
