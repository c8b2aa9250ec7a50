"""Turn timers: when to remind the player to decide and when to act for an absent one.

Pure functions (no Discord, no SQLite). Settings are minutes (0 = off) and resolve game > server >
global default (``.env``). A turn's timers are rows due at ``since + minutes``; the reminder repeats
every ``interval`` minutes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

KEYS = ("reminder", "interval", "autopass")
REMIND, AUTOPASS = "remind", "autopass"
MAX_MINUTES = 43200  # 30 days
OFF_WORDS = frozenset({"off", "aus", "none", "never", "nie", "-"})
_DURATION = re.compile(r"^\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*(?:m|min)?)?\s*$", re.I)


@dataclass(frozen=True, slots=True)
class Timing:
    """Effective timer settings of a game, in minutes (0 = off)."""

    reminder: int
    interval: int
    autopass: int

    def to_json(self) -> dict[str, int]:
        return {"reminder": self.reminder, "interval": self.interval, "autopass": self.autopass}


@dataclass(frozen=True, slots=True)
class Timer:
    """One due row for the current turn: ``kind`` remind or autopass, for ``seat``, at ``due_at``."""

    kind: str
    seat: int
    due_at: float
    sent: int = 0


def parse_minutes(text: str) -> int:
    """``90``, ``90m``, ``2h``, ``1d``, ``1h30m`` or ``off`` as minutes; ValueError otherwise."""
    s = text.strip().lower()
    if s in OFF_WORDS:
        return 0
    m = _DURATION.match(s)
    if not s or m is None or not any(m.groups()):
        raise ValueError(f"not a duration: {text!r}")
    d, h, mins = (int(g) if g else 0 for g in m.groups())
    total = d * 1440 + h * 60 + mins
    if total > MAX_MINUTES:
        raise ValueError(f"at most {MAX_MINUTES} minutes")
    return total


def resolve(game: Mapping[str, Any] | None, server: Mapping[str, Any] | None, default: Timing) -> Timing:
    """Each setting from the game's own settings, else the server's, else the global default."""
    values = {}
    for key in KEYS:
        value = getattr(default, key)
        for layer in (server, game):
            if layer is not None and isinstance(layer.get(key), int):
                value = layer[key]
        values[key] = value
    return Timing(**values)


def plan(seat: int, has_user: bool, timing: Timing, since: float, sent: int = 0) -> list[Timer]:
    """The timers of a turn that began at ``since`` (wall-clock seconds).

    A reminder only for a seat with a member (``sent`` reminders already went out: the next one is
    one interval after the last); the time-out also for an empty seat, so it cannot stall the game.
    """
    out: list[Timer] = []
    if has_user and timing.reminder > 0 and (sent == 0 or timing.interval > 0):
        out.append(Timer(REMIND, seat, since + 60 * (timing.reminder + sent * timing.interval), sent))
    if timing.autopass > 0:
        out.append(Timer(AUTOPASS, seat, since + 60 * timing.autopass))
    return out
