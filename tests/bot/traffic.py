"""What the bot sent to a channel, read from SimCord's log of REST calls: every public text (also of messages
deleted again), the messages posted and deleted, and the mentions that notify someone. Used
by the tests and by ``benchmarks/bench_noise.py``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import simcord

MENTION = re.compile(r"<@!?(\d+)>")


def _text(payload: dict[str, Any]) -> str:
    parts = [payload.get("content") or ""]
    for e in payload.get("embeds") or []:
        parts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
    return "\n".join(p for p in parts if p)


def pings(payload: dict[str, Any]) -> list[int]:
    """The users a new message notifies: mentions in its content that its allowed mentions let through (the
    bot's default, when it names none, lets users through)."""
    ids = [int(x) for x in MENTION.findall(payload.get("content") or "")]
    allowed = payload.get("allowed_mentions")
    if allowed is None:
        return ids
    if "users" in (allowed.get("parse") or []):
        return ids
    listed = {int(u) for u in allowed.get("users") or []}
    return [i for i in ids if i in listed]


@dataclass
class Traffic:
    """The bot's requests to one channel (failed ones included, as Discord saw them)."""

    posted: list[dict[str, Any]] = field(default_factory=list)  # POST .../messages payloads
    edited: list[dict[str, Any]] = field(default_factory=list)  # PATCH .../messages/<id> payloads
    deleted: int = 0

    def texts(self) -> list[str]:
        """Every public text sent: new messages and edits."""
        return [_text(p) for p in [*self.posted, *self.edited]]

    def mentions(self) -> list[int]:
        """Every notifying mention of a posted message (one entry per user and message)."""
        return [u for p in self.posted for u in pings(p)]


def traffic(env: simcord.Env, channel_id: int, since: int = 0) -> Traffic:
    """The bot's requests to ``channel_id`` from the ``since``-th REST call on."""
    out = Traffic()
    base = f"/channels/{channel_id}/messages"
    for r in env.http_requests[since:]:
        if r.path == base and r.method == "POST":
            out.posted.append(r.json if isinstance(r.json, dict) else {})
        elif r.path.startswith(base + "/") and r.path.count("/") == 4:
            if r.method == "PATCH":
                out.edited.append(r.json if isinstance(r.json, dict) else {})
            elif r.method == "DELETE":
                out.deleted += 1
    return out
