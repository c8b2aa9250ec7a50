"""The review's persistent buttons and selects (``DynamicItem``s: they carry the game, and work after a restart).

📈 Review (``ReviewButton``) sits on the final scores, on each game of ``/petersburg history`` and in the replay
viewer; the viewer's choice of whose mistakes to jump to (``ReviewSeatSelect``); a member's own mistakes to take
as a puzzle (``PuzzleSelect``), and the puzzle's menu (``PuzzleItems``: the private menu of ``cogs.menus`` made
of items that answer off the game, never committing a move to it).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from .components import GAME, SLOT, GameButton, _checked, _cog, first_selected, one_choice
from .menus import MenuItems

IDX = r"(?P<idx>\d+)"


class ReviewButton(GameButton, template=rf"pb:v:{GAME}"):
    """📈 Review: the first press starts the game's review, later presses (anyone in the server) open it."""

    PREFIX, EMOJI = "v", "📈"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_review(interaction, self.game_id)


class ReviewSeatSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                       template=rf"pb:w:{GAME}:(?P<step>\d+)"):
    """The replay viewer: whose mistakes its jump buttons go to (the viewer stays at ``step``)."""

    def __init__(self, game_id: int, step: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        self.game_id, self.step = game_id, step
        super().__init__(one_choice(ReviewSeatSelect, f"pb:w:{game_id}:{step}", options, placeholder, empty="0"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReviewSeatSelect:
        return cls(int(match["game"]), int(match["step"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        value = first_selected(interaction)
        seat = int(value) if value.isdigit() else 0
        await _cog(interaction).on_replay(interaction, self.game_id, self.step, opening=False, seat=seat)


class PuzzleSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"pb:z:{GAME}"):
    """A member's own reviewed mistakes (values: the actions' indices): the one picked opens as a puzzle."""

    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        self.game_id = game_id
        super().__init__(one_choice(PuzzleSelect, f"pb:z:{game_id}", options, placeholder, empty="0"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PuzzleSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        value = first_selected(interaction)
        idx = int(value) if value.isdigit() else 0
        await _cog(interaction).on_puzzle(interaction, self.game_id, idx)


class PuzzleMoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"pb:q:{GAME}:{IDX}:{SLOT}"):
    """A select of the puzzle's menu: a legal move of the position before the game's action ``idx``."""

    def __init__(self, game_id: int, idx: int, slot: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        self.game_id, self.idx = game_id, idx
        super().__init__(one_choice(PuzzleMoveSelect, f"pb:q:{game_id}:{idx}:{slot}", options, placeholder))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PuzzleMoveSelect:
        return cls(int(match["game"]), int(match["idx"]), match["slot"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_puzzle_move(interaction, self.game_id, self.idx, first_selected(interaction))


class PuzzleMoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"pb:qb:{GAME}:{IDX}:(?P<act>.+)"):
    """A button of the puzzle's menu (pass, discard)."""

    def __init__(self, game_id: int, idx: int, value: str, label: str = "-",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None) -> None:
        self.game_id, self.idx, self.value = game_id, idx, value
        super().__init__(discord.ui.Button(custom_id=_checked(PuzzleMoveButton, f"pb:qb:{game_id}:{idx}:{value}"),
                                           label=label, style=style, emoji=emoji))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PuzzleMoveButton:
        return cls(int(match["game"]), int(match["idx"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_puzzle_move(interaction, self.game_id, self.idx, self.value)


class PuzzlePageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=rf"pb:qp:{GAME}:{IDX}:(?P<page>\d+)"):
    """Turns the puzzle's menu to another page."""

    def __init__(self, game_id: int, idx: int, page: int, label: str = "-", emoji: str | None = None) -> None:
        self.game_id, self.idx, self.page = game_id, idx, page
        super().__init__(discord.ui.Button(custom_id=_checked(PuzzlePageButton, f"pb:qp:{game_id}:{idx}:{page}"),
                                           label=label, emoji=emoji, style=discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PuzzlePageButton:
        return cls(int(match["game"]), int(match["idx"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_puzzle(interaction, self.game_id, self.idx, page=self.page)


class PuzzleItems(MenuItems):
    """The puzzle's menu items: the position before the game's action ``idx``; nothing goes to the game."""

    def __init__(self, game_id: int, idx: int) -> None:
        super().__init__(game_id, 0)
        self.idx = idx

    def select(self, slot: str, options: list[discord.SelectOption], placeholder: str) -> discord.ui.Item[Any]:
        return PuzzleMoveSelect(self.game_id, self.idx, slot, options, placeholder)

    def button(self, value: str, label: str, style: discord.ButtonStyle, emoji: str) -> discord.ui.Item[Any]:
        return PuzzleMoveButton(self.game_id, self.idx, value, label, style=style, emoji=emoji)

    def page(self, page: int, label: str, emoji: str) -> discord.ui.Item[Any]:
        return PuzzlePageButton(self.game_id, self.idx, page, label, emoji=emoji)


REVIEW_ITEMS = (ReviewButton, ReviewSeatSelect, PuzzleSelect, PuzzleMoveSelect, PuzzleMoveButton, PuzzlePageButton)
