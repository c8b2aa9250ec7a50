"""What keeps a game's channel from being brought up to date, told once to people (part of the board poster,
``cogs.board``).

A failure of Discord is a ``Problem``: transient ones (5xx, 429) are retried quietly; lasting ones (a missing
permission, the channel gone) are told once per kind to the channel, or to the host by DM when the channel
itself is unusable. The missing permissions are named when the bot can see them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.store import Game
from rules.i18n import t

if TYPE_CHECKING:
    from bot.client import PetersburgBot

NO_PINGS = discord.AllowedMentions.none()
MISSING_ACCESS, MISSING_PERMISSIONS, UNKNOWN_CHANNEL, UNKNOWN_MESSAGE = 50001, 50013, 10003, 10008
NEEDED = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


class Problem(Exception):
    """The channel could not be brought up to date; ``text`` says why for people."""

    def __init__(self, key: str, text: str, *, channel_usable: bool = True) -> None:
        super().__init__(key)
        self.key, self.text, self.channel_usable = key, text, channel_usable


class BoardProblems:
    """The board poster's part that names and tells problems (``BoardPoster`` is made of it)."""

    bot: PetersburgBot

    @property
    def store(self) -> Any:
        assert self.bot.store is not None
        return self.bot.store

    def _problem(self, channel: discord.PartialMessageable, e: discord.HTTPException) -> Problem:
        if e.status == 404 or e.code in (MISSING_ACCESS, UNKNOWN_CHANNEL):
            return Problem("channel", f"{e.status} {e.code}", channel_usable=False)
        if e.status == 403:
            missing = self._missing(channel.id)
            return Problem("perm:" + ",".join(missing), f"{e.status} {e.text or e.code}",
                           channel_usable=bool(missing) and "send_messages" not in missing
                           and "view_channel" not in missing)
        return Problem(f"http:{e.status}", f"{e.status} {e.code}")

    def _missing(self, channel_id: int) -> list[str]:
        """The permissions the bot lacks in the channel (when the channel is cached), in Discord's words."""
        ch = self.bot.get_channel(channel_id)
        guild = getattr(ch, "guild", None)
        me = getattr(guild, "me", None)
        if ch is None or me is None or not hasattr(ch, "permissions_for"):
            return []
        perms = ch.permissions_for(me)
        return [p for p in NEEDED if not getattr(perms, p)]

    @staticmethod
    def _reason(p: Problem, lang: str) -> str:
        """Why, for people: the missing permissions by name; when the bot cannot see which (its view of the
        channel's permissions allows everything, e.g. an overwrite it has not seen), Discord's answer and the
        permissions it needs."""
        key = p.key.removeprefix("turn:")
        if not key.startswith("perm:"):
            return p.text
        missing = [x for x in key.removeprefix("perm:").split(",") if x] or list(NEEDED)
        names = ", ".join(t(f"perm.{x}", lang) for x in missing)
        return names if key != "perm:" else t("bot.perm_unknown", lang, error=p.text, needed=names)

    async def _tell(self, game: Game, channel: discord.PartialMessageable, p: Problem) -> None:
        """Say once (per kind of problem) what keeps the board from showing: in the channel if it can be used,
        else to the host by DM."""
        if game.board_problem == p.key or p.key.removeprefix("turn:").startswith("http:5"):
            return  # told already, or Discord's own trouble (retried quietly)
        await self.store.set_board_problem(game.id, p.key)
        game.board_problem = p.key
        text = t("bot.turn_problem" if p.key.startswith("turn:") else "bot.board_problem", game.lang, game=game.id,
                 channel=f"<#{game.channel_id}>", problem=self._reason(p, game.lang))
        if p.channel_usable:
            try:
                await channel.send(text[:2000], allowed_mentions=NO_PINGS)
                return
            except discord.HTTPException:
                pass
        cog = self.bot.get_cog("Petersburg")
        dms = getattr(cog, "dms", None)
        if dms is not None:
            await dms.send(game.host_id, text, force=True)
