"""↩️ Take back (``bot.takeback``): the button on the private confirmation of a move and on the private menu
while the window is open, and what a take-back shows: the clicker's menu again, the board and the log
("Anna took back: bought the Market for 5"), the hands that changed."""

from __future__ import annotations

import discord

from bot.service import Outcome
from bot.takeback import chain_reveals
from bot.texts import event_lines, hand_text
from rules import view
from rules.i18n import t

from .base import CogBase, Interaction
from .components import TakeBackButton
from .menus import BUTTON_ROW, move_view
from .public import names_of

ROW_ITEMS = 5  # Discord's buttons in one row


def with_takeback(menu: discord.ui.View | None, game_id: int, version: int, lang: str) -> discord.ui.View:
    """``menu`` (None: a new view) with ↩️ Take back on its row of buttons, when that row has room."""
    out = menu or discord.ui.View(timeout=None)
    if sum(1 for item in out.children if item.row == BUTTON_ROW) < ROW_ITEMS and len(out.children) < 25:
        button = TakeBackButton(game_id, version, t("bot.button_takeback", lang))
        button.row = BUTTON_ROW
        out.add_item(button)
    return out


def offers_takeback(out: Outcome) -> bool:
    """Whether the confirmation of the player's action ``out`` offers ↩️ (the click checks everything again):
    the game goes on, and nothing hidden came to light by the action or its automatic passes."""
    if out.state.finished or out.auto is not None:
        return False
    chain = out.chain()
    states = [o.before for o in chain] + [out.state]
    return not chain_reveals([(states[i], states[i + 1], o.events) for i, o in enumerate(chain)])


class TakeBackCommands(CogBase):
    """The take-back part of the ``/petersburg`` cog."""

    async def on_take_back(self, interaction: Interaction, game_id: int, version: int) -> None:
        """↩️ Take back on a private confirmation or menu (edited in place with the answer)."""
        _, lang = await self.component_game(interaction, game_id, in_place=True)

        async def work() -> None:
            out = await self.service.take_back(game_id, interaction.user.id, version)
            self.poster.kick(game_id)
            for seat in out.changed_hands:
                await self.push_hand(out.game, out.state, seat)
            game = out.game
            line = event_lines([out.event], names_of(game), out.state.ruleset.edition, lang)
            text = "\n".join([*line, t("bot.your_move_intro", lang, player=game.seats[out.seat].name),
                              hand_text(view(out.state, out.seat), lang)])
            menu = move_view(game.id, game.version, out.state, lang) if out.state.decider == out.seat else None
            self.poster.seen.told(game.id, interaction.user.id, game.version)
            await self.after_commit(interaction, text, menu)

        await self.guard(interaction, lang, work)
