"""The tournament's persistent sign-up button (a ``DynamicItem``: it carries the tournament, and works after a
restart)."""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from .components import _checked, _cog


class SignUpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pb:tj:(?P<tid>\d+)"):
    """🏆 Sign up, on the tournament's announcement: the clicker joins (privately told why not)."""

    def __init__(self, tournament_id: int, label: str = "-") -> None:
        self.tournament_id = tournament_id
        super().__init__(discord.ui.Button(custom_id=_checked(type(self), f"pb:tj:{tournament_id}"), label=label,
                                           emoji="🏆", style=discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(int(match["tid"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_tournament_join(interaction, self.tournament_id)


def sign_up_view(tournament_id: int, label: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SignUpButton(tournament_id, label))
    return view


TOURNAMENT_ITEMS = (SignUpButton,)
