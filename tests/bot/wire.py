"""Running the real ``python -m bot`` process for process tests: a minimal Discord on the wire (the REST calls
of logging in, and a gateway that says hello and keeps the connection open), and the process tree the bot
starts (its worker processes).

The bot logs in through ``DISCORD_REST_PROXY`` and connects to ``DISCORD_GATEWAY_URL``, both pointed here; it
then runs as in production, waiting for events that never come. With ``messages`` the wire also keeps the
channels' messages as Discord does (posted, edited, deleted, read back; DMs too), so the bot's boards show,
and makes threads (a tournament's tables: made, listed, deleted; one may be left without its answer, as in a
process killed while it waited); with ``shard`` it is the gateway of one shard of a sharded bot (one wire per
bot process: each wire's ``calls`` are what that process did).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import sys
import time
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
    tokens: list[str] = field(default_factory=list)  # the Authorization header of every login
    identified: asyncio.Event = field(default_factory=asyncio.Event)
    calls: list[tuple[str, str]] = field(default_factory=list)  # (method, path) of every message call
    channels: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # channel -> its messages, in order
    hold: dict[int, asyncio.Event] = field(default_factory=dict)  # channel -> posts, edits wait for the event
    held: asyncio.Event = field(default_factory=asyncio.Event)  # a post is waiting in ``hold``
    threads: dict[int, dict[str, Any]] = field(default_factory=dict)  # thread id -> the thread, as made
    stall_thread: int | None = None  # the n-th thread made (1, 2 …) is kept but never answered (``stalled``)
    stalled: asyncio.Event = field(default_factory=asyncio.Event)
    unstall: asyncio.Event = field(default_factory=asyncio.Event)  # set when the wire closes

    def touched(self, channel_id: int) -> int:
        """How many message calls the bot made in the channel."""
        return sum(1 for _, path in self.calls if path.startswith(f"/api/v10/channels/{channel_id}/"))

    @property
    def env(self) -> dict[str, str]:
        return {"DISCORD_REST_PROXY": f"http://127.0.0.1:{self.port}/api/v10",
                "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{self.port}/gateway"}


_EPOCH_MS = 1_420_070_400_000
_COUNTER = itertools.count()


def _snowflake() -> int:
    return ((int(time.time() * 1000) - _EPOCH_MS) << 22) | (next(_COUNTER) & 0x3FFFFF)


async def _payload(request: web.Request) -> dict[str, Any]:
    """The JSON of a message call (sent as JSON, or as ``payload_json`` beside files)."""
    if request.content_type == "application/json":
        data = await request.json()
        return data if isinstance(data, dict) else {}
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        return json.loads(raw) if isinstance(raw, str) else {}
    return {}


def _message(channel_id: int, data: dict[str, Any], message_id: int | None = None) -> dict[str, Any]:
    return {"id": str(message_id or _snowflake()), "channel_id": str(channel_id), "author": USER,
            "content": data.get("content") or "", "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
            "mention_roles": [], "attachments": [], "embeds": data.get("embeds") or [], "pinned": False,
            "type": 0, "flags": 0, "components": data.get("components") or []}


def _message_routes(app: web.Application, wire: Wire) -> None:
    """Channels' messages kept as Discord keeps them (``wire_discord(messages=True)``)."""

    async def held(channel: int) -> None:
        if channel in wire.hold:
            wire.held.set()
            await wire.hold[channel].wait()

    async def post(request: web.Request) -> web.Response:
        wire.calls.append((request.method, request.path))
        channel = int(request.match_info["channel"])
        data = await _payload(request)
        await held(channel)
        msg = _message(channel, data)
        wire.channels.setdefault(channel, []).append(msg)
        return _json(msg)

    async def history(request: web.Request) -> web.Response:
        wire.calls.append((request.method, request.path))
        msgs = wire.channels.get(int(request.match_info["channel"]), [])
        return _json(list(reversed(msgs))[:int(request.query.get("limit", "50"))])

    async def one(request: web.Request) -> web.Response:
        wire.calls.append((request.method, request.path))
        edit = await _payload(request) if request.method == "PATCH" else {}
        await held(int(request.match_info["channel"]))
        msgs = wire.channels.get(int(request.match_info["channel"]), [])
        mid = request.match_info["message"]
        found = [m for m in msgs if m["id"] == mid]
        if not found:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        if request.method == "DELETE":
            msgs.remove(found[0])
            return web.Response(status=204)
        found[0].update({k: v for k, v in edit.items() if k in ("content", "embeds", "components")})
        return _json(found[0])

    async def dm(request: web.Request) -> web.Response:
        wire.calls.append((request.method, request.path))
        recipient = str((await request.json()).get("recipient_id"))
        user = {**USER, "id": recipient, "username": f"user{recipient}", "bot": False}
        return _json({"id": str(int(recipient) + 1), "type": 1, "recipients": [user], "last_message_id": None})

    async def thread(request: web.Request) -> web.Response:
        """A public thread made without a message (a tournament's table): kept; the ``stall_thread``-th is made
        but its answer never comes (as a process killed before it read the answer)."""
        wire.calls.append((request.method, request.path))
        data = await _payload(request)
        made = {"id": str(_snowflake()), "type": 11, "name": data.get("name", ""), "parent_id":
                request.match_info["channel"], "guild_id": "1", "owner_id": BOT_ID,
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "locked": False,
                                    "archive_timestamp": "2026-01-01T00:00:00+00:00"}}
        wire.threads[int(made["id"])] = made
        if wire.stall_thread == len(wire.threads):
            wire.stalled.set()
            await wire.unstall.wait()
        return _json(made)

    async def active_threads(request: web.Request) -> web.Response:
        wire.calls.append((request.method, request.path))
        return _json({"threads": list(wire.threads.values()), "members": [], "has_more": False})

    async def delete_channel(request: web.Request) -> web.Response:
        wire.calls.append((request.method, request.path))
        gone = wire.threads.pop(int(request.match_info["channel"]), None)
        return _json(gone) if gone else _json({"message": "Unknown Channel", "code": 10003}, status=404)

    app.router.add_post("/api/v10/channels/{channel}/threads", thread)
    app.router.add_get("/api/v10/guilds/{guild}/threads/active", active_threads)
    app.router.add_route("DELETE", "/api/v10/channels/{channel}", delete_channel)
    app.router.add_post("/api/v10/channels/{channel}/messages", post)
    app.router.add_get("/api/v10/channels/{channel}/messages", history)
    app.router.add_route("PATCH", "/api/v10/channels/{channel}/messages/{message}", one)
    app.router.add_route("DELETE", "/api/v10/channels/{channel}/messages/{message}", one)
    app.router.add_post("/api/v10/users/@me/channels", dm)


@asynccontextmanager
async def wire_discord(*, ready: bool = False, refuse_token: bool = False, messages: bool = False,
                       shard: tuple[int, int] = (0, 1),
                       channels: dict[int, list[dict[str, Any]]] | None = None) -> AsyncIterator[Wire]:
    """A Discord that lets the bot log in and connect (any other call is answered 404 unless ``messages``: see
    the module docstring); ``ready``: the gateway also says READY (in no server), so the bot catches up its
    games as at a start; ``refuse_token``: it answers the login 401 Unauthorized, as Discord does for a wrong
    token; ``shard``: (shard id, shard count) of the bot's one shard; ``channels``: the messages this wire
    shares with others (one Discord for several bot processes)."""
    wire = Wire() if channels is None else Wire(channels=channels)

    async def me(request: web.Request) -> web.Response:
        wire.requests.append(request.path)
        wire.tokens.append(request.headers.get("Authorization", ""))
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
                        "v": 10, "user": USER, "guilds": [], "session_id": "wire", "shard": list(shard),
                        "resume_gateway_url": f"ws://127.0.0.1:{wire.port}/gateway",
                        "application": {"id": BOT_ID, "flags": 0}}})
        return ws

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_get("/api/v10/oauth2/applications/@me", application)
    app.router.add_get("/gateway", gateway)
    if messages:
        _message_routes(app, wire)
    app.router.add_route("*", "/{tail:.*}", other)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    wire.port = int(runner.addresses[0][1])
    try:
        yield wire
    finally:
        for event in [*wire.hold.values(), wire.unstall]:
            event.set()
        await runner.cleanup()


async def start_bot(db: Path, wire: Wire, **env: str) -> asyncio.subprocess.Process:
    """``python -m bot`` on ``db`` against ``wire`` (stderr piped: its log); it builds no compiled core (a current
    build is used: ``bot.corebuild``) unless ``BUILD_COMPILED_CORE`` is given."""
    full = {**os.environ, "DISCORD_TOKEN": "x" * 40, "DATABASE_PATH": str(db), "LOG_LEVEL": "INFO",
            "PYTHONPATH": str(ROOT), "BUILD_COMPILED_CORE": "no", **wire.env, **env}
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


def end_all(bot: asyncio.subprocess.Process, drain: asyncio.Task[None] | None, procs: list[Proc]) -> None:
    """After a test with a bot process, however it went: the bot killed if it still runs, the reading of its
    log stopped, and what of ``procs`` outlived the bot (reported by the test) killed with the test."""
    if bot.returncode is None:
        bot.kill()
    if drain is not None:
        drain.cancel()
    for p in procs:
        if p.alive():
            os.kill(p.pid, signal.SIGKILL)


def describe(procs: list[Any]) -> str:
    return "; ".join(f"{p.pid}: {p.cmdline[:120]}" for p in procs)
