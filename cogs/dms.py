"""Direct messages: a push that may fail and never stalls a game.

Only Discord's 50007 ("Cannot send messages to this user": DMs closed) marks a user unreachable, stored
in the database with the time; a later successful DM or the user's own ``/petersburg hand`` clears it.
Transient failures (rate limits, 5xx) are retried a few times with backoff in the background; any other
error is logged and the DM dropped, without marking anybody.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.client import PetersburgBot

log = logging.getLogger(__name__)

DMS_CLOSED = 50007  # Discord: Cannot send messages to this user
RETRY_DELAYS = (2.0, 10.0, 60.0)  # seconds before the 2nd, 3rd and 4th try of a transient failure

Attachment = tuple[str, bytes]  # (file name, PNG bytes)


def transient(error: discord.HTTPException) -> bool:
    """Worth trying again: rate limited or Discord's own trouble (5xx)."""
    return error.status == 429 or error.status >= 500


class DirectMessages:
    """Sends DMs for the cog; remembers closed DMs in the store."""

    def __init__(self, bot: PetersburgBot) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[bool]] = set()

    async def reachable(self, user_id: int) -> bool:
        """False while the user's DMs are known to be closed."""
        assert self.bot.store is not None
        return await self.bot.store.dm_unreachable_since(user_id) is None

    async def clear(self, user_id: int) -> None:
        """The user showed up (``/petersburg hand``): try DMs again."""
        assert self.bot.store is not None
        if not await self.reachable(user_id):
            await self.bot.store.set_dm_unreachable(user_id, False)

    async def send(self, user_id: int, text: str, attachment: Attachment | None = None, *,
                   force: bool = False) -> bool:
        """One DM now; a transient failure is retried in the background. Returns whether it arrived now.

        ``force``: try even when the user's DMs were closed (an explicit event such as a reminder); success
        clears the mark."""
        if not force and not await self.reachable(user_id):
            return False
        try:
            await self._send(user_id, text, attachment)
        except discord.HTTPException as e:
            await self._failed(user_id, e, lambda: self._send(user_id, text, attachment))
            return False
        await self._arrived(user_id)
        return True

    def push(self, user_id: int, text: str, attachment: Attachment | None = None,
             draw: Callable[[], Awaitable[Attachment | None]] | None = None) -> None:
        """Send in the background (the caller waits neither for Discord nor for ``draw``, which makes the
        attachment first when given)."""
        async def deliver() -> bool:
            return await self.send(user_id, text, await draw() if draw is not None else attachment)

        task = asyncio.create_task(deliver())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, user_id: int, text: str, attachment: Attachment | None) -> None:
        channel = await self.bot.create_dm(discord.Object(id=user_id))
        if attachment is None:
            await channel.send(text[:2000])
        else:
            await channel.send(text[:2000], file=discord.File(io.BytesIO(attachment[1]), filename=attachment[0]))

    async def _arrived(self, user_id: int) -> None:
        if not await self.reachable(user_id):
            assert self.bot.store is not None
            await self.bot.store.set_dm_unreachable(user_id, False)

    async def _failed(self, user_id: int, error: discord.HTTPException, again: Callable[[], Awaitable[None]]) -> None:
        assert self.bot.store is not None
        if error.code == DMS_CLOSED:
            log.info("user %s does not accept DMs", user_id)
            await self.bot.store.set_dm_unreachable(user_id, True)
        elif transient(error):
            task = asyncio.create_task(self._retry(user_id, again))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            log.warning("DM to user %s failed: %s", user_id, error)

    async def _retry(self, user_id: int, again: Callable[[], Awaitable[None]]) -> bool:
        for delay in RETRY_DELAYS:
            await asyncio.sleep(delay)
            try:
                await again()
            except discord.HTTPException as e:
                if e.code == DMS_CLOSED:
                    assert self.bot.store is not None
                    await self.bot.store.set_dm_unreachable(user_id, True)
                    return False
                if not transient(e):
                    log.warning("DM to user %s failed: %s", user_id, e)
                    return False
                continue
            await self._arrived(user_id)
            return True
        log.warning("DM to user %s failed %d times; dropped", user_id, len(RETRY_DELAYS) + 1)
        return False
