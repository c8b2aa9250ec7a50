"""Computer players at the table: adding them in the lobby, their moves, and ``/petersburg hint``.

A computer's move is thought in a worker process (``bot.thinking`` in ``THINK``), never on the event loop,
after a short pause so people can follow; it is applied through the same locked, transactional path as a
person's action (``GameService.computer_act``), then the board poster shows it like any move, marked as the
computer's. Several computers in a row play on by themselves; after a restart, ``catch_up`` resumes a
computer whose turn it is.
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from typing import TYPE_CHECKING

from discord import app_commands

from bot import thinking
from bot.lobby import COMPUTER_LEVELS
from bot.service import UserError
from bot.store import ACTIVE, DatabaseLost, Game
from bot.texts import describe_action
from bot.translator import locale_str as _
from rules import view
from rules.i18n import t

from .base import HOST, CogBase, Interaction
from .runner import PerGame

if TYPE_CHECKING:
    from bot.client import PetersburgBot

log = logging.getLogger(__name__)

THINK = thinking.THINK


def computer_name(level: str, lang: str) -> str:
    return t("bot.computer_name", lang, level=t(f"bot.level_{level}", lang))


def _seed(game_id: int, version: int) -> int:
    """The computer's random choices: reproducible per game and turn, unrelated to the stacks' order."""
    return zlib.crc32(f"{game_id}:{version}".encode())


class ComputerPlayers(PerGame):
    """Plays the computers' turns (``kick``: if a computer is to decide in the game, in the background)."""

    def __init__(self, bot: PetersburgBot, cog: CogBase) -> None:
        super().__init__()
        self.bot, self.cog = bot, cog

    async def catch_up(self) -> None:
        """At startup: every game in play whose player to decide is a computer (of the servers of this
        process's shards: another process plays the others)."""
        assert self.bot.store is not None
        for game in await self.bot.store.list_games(status=ACTIVE, limit=10_000, shards=self.bot.shard_filter()):
            if game.state is not None and any(s.computer for s in game.seats):
                self.kick(game.id)

    def shown(self, game: Game) -> None:
        """A board of ``game`` was shown: its computers' turn may have come (a game without computer players is
        not read again for that)."""
        if any(s.computer for s in game.seats):
            self.kick(game.id)

    async def run(self, game_id: int) -> None:
        try:
            while True:
                self.again(game_id)  # the kicks so far are served by this round
                if not await self._move(game_id) and not self.again(game_id):
                    return
        except DatabaseLost:  # logged once by the store
            return
        except Exception as e:  # a bug: logged; the next commit in this game tries again
            log.exception("computer player of game %s failed", game_id)
            self.bot.record_bug(e)

    async def _move(self, game_id: int) -> bool:
        """One computer move if a computer is to decide; whether one was made."""
        service, store = self.cog.service, self.cog.store
        game = await store.get_game(game_id)
        if game is None or game.status != ACTIVE or game.state is None:
            return False
        st = service.state(game)
        level = game.computer_at(st.decider)
        if level is None:
            return False
        await asyncio.sleep(self.bot.config.computer_pause)
        cfg = self.bot.config
        action = await THINK.run(thinking.think, game.state, st.decider, level, _seed(game.id, game.version),
                                 cfg.computer_seconds, game.id)
        out = await service.computer_act(game.id, st.decider, game.version, action)
        if out is None:
            return True  # the game moved on meanwhile: look again
        self.cog.poster.kick(game.id)
        for seat in out.all_changed_hands():
            await self.cog.push_hand(out.game, out.state, seat)
        return True


class ComputerCommands(CogBase):
    """``host addbot`` and ``hint`` in the ``/petersburg`` group (the lobby's computer menu also removes one: a
    group holds at most 25 commands)."""

    computers: ComputerPlayers

    @HOST.command(name="addbot", description=_("cmd.addbot"))
    @app_commands.describe(level=_("opt.level"))
    @app_commands.choices(level=[app_commands.Choice(name=_(f"choice.level_{lv}"), value=lv)
                                 for lv in COMPUTER_LEVELS])
    async def addbot(self, interaction: Interaction, level: str = "normal") -> None:
        """Host: a computer player takes the next seat of the lobby."""
        await self.defer(interaction)
        lang = await self.channel_lang(interaction)
        await self.guard(interaction, lang, lambda: self.add_computer(interaction, level, lang))

    async def add_computer(self, interaction: Interaction, level: str, lang: str) -> None:
        game = await self.service.game_in_channel(self.cid(interaction))
        game = await self.service.add_computer(game.channel_id, interaction.user.id, level,
                                               computer_name(level, game.lang))
        await self.refresh_lobby(game)
        await self.private(interaction, t("bot.computer_added", lang, name=game.seats[-1].name, n=len(game.seats)))

    @app_commands.command(name="hint", description=_("cmd.hint"))
    async def hint(self, interaction: Interaction) -> None:
        """The strong computer player's move for you, privately, with how sure it is."""
        async def work(game: Game, lang: str) -> None:
            seat = self.service.seat_in_play(game, interaction.user.id)
            if not game.settings.get("hints", 1):
                raise UserError("hints_off")
            st = self.service.state(game)
            if st.decider != seat:
                raise UserError("hint_not_your_turn", player=game.seats[st.decider].name)
            action, share, searched = await THINK.run(thinking.suggest, game.state, seat,
                                                      _seed(game.id, game.version), self.bot.config.hint_seconds)
            move = describe_action(action, st.ruleset.edition, lang, view=view(st, seat))  # private: the seat's own
            await self.private(interaction, t("bot.hint", lang, move=move, share=round(100 * share),
                                              searched=searched))

        await self.on_channel_game(interaction, work)
