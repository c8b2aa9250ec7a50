"""Who is playing live: people at the board are not pinged at every turn.

A player counts as playing live in a game while they were seen in it within the last ``LIVE_MINUTES``
(5 by default): they acted in the game (its action log, in the database, so this survives restarts and is
shared by processes), or, as this process saw it, used any of the bot's commands, buttons or menus in the
game's channel (also autocomplete while typing a command) or wrote a message there. The board poster then
leaves out the turn message's ping when the turn reaches them (the board itself says whose turn it is) and
pings them once the live window has passed without a move from them; a player who is away is pinged at
once, and reminders and time-outs run for every player alike.
"""

from __future__ import annotations

from collections.abc import Callable

PRUNE_AT = 10_000  # entries before the ones older than the window are dropped


class Presence:
    """When each person was last seen in each channel (this process's memory; see the module docstring)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._seen: dict[tuple[int, int], float] = {}

    def saw(self, channel_id: int | None, user_id: int) -> None:
        if channel_id is None:
            return
        now = self.clock()
        self._seen[(channel_id, user_id)] = now
        if len(self._seen) > PRUNE_AT:  # forget people long gone (nobody is live for a day)
            self._seen = {k: at for k, at in self._seen.items() if at > now - 86_400}

    def last_seen(self, channel_id: int, user_id: int) -> float | None:
        return self._seen.get((channel_id, user_id))
