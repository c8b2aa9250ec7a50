"""Persistent buttons and select menus (``discord.ui.DynamicItem``): they carry the game id and the board
version in their custom_id, so they keep working after a restart and a stale board is recognised.

Every custom id is built from the same parts that the items' templates are built from (``GAME``, ``VERSION``,
``SLOT``, ``ACT``), and each item checks its own id against its template when it is made: discord.py drops a
click whose id no template matches, without a word to the player or the log. A select's slot names its kind
of move as a token (``token``): any kind an expansion adds gets one the template accepts.

Choices come only from ``rules.legal_moves``; a chosen value is an encoded Action that the game service
validates again with the rules core. The private menu shows every legal move: when its kinds of move need
more selects than a message has rows, it has pages, turned with buttons that say what the other page offers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

import discord

from rules import Action
from rules.expansions import offered
from rules.i18n import t

if TYPE_CHECKING:
    from .petersburg import Petersburg

MAX_CUSTOM_ID = 100  # Discord's limit
GROUP = "?"  # a select value starting with this asks for the card to displace next

# The parts of the custom ids, shared by the templates and the code that writes the ids
GAME = r"(?P<game>\d+)"
VERSION = r"(?P<ver>\d+)"
TOKEN = "[a-z0-9_]+"
# a select: its kind as a token, then its number; a private menu sent before the number had its dash (buy0)
# still routes (its values carry the actions, its version tells whether it is stale)
SLOT = rf"(?P<slot>{TOKEN}(?:-\d+)?)"
ACT = r"(?P<act>.+)"  # a button's encoded action (``encode``): the rest of the id, whatever its fields hold
_PLAIN = re.compile(TOKEN)


def token(kind: str) -> str:
    """A kind of move as a custom-id token: itself when it is made of lowercase letters, digits and
    underscores (every kind so far), else ``x`` and the hex digits of its UTF-8 (any other an expansion adds)."""
    return kind if _PLAIN.fullmatch(kind) else "x" + kind.encode().hex()


def slot(kind: str, n: int) -> str:
    """The slot of the ``n``-th select of a kind (``guild_hall-0``); the kind's token never runs into the
    number."""
    return f"{token(kind)}-{n}"


def _checked(item: type[discord.ui.DynamicItem[Any]], custom_id: str) -> str:
    """``custom_id`` if ``item``'s template routes it (discord.py drops a click on any other, silently) and it
    fits Discord's 100 characters; ValueError (a bug, logged) otherwise."""
    if len(custom_id) > MAX_CUSTOM_ID or not item.__discord_ui_compiled_template__.fullmatch(custom_id):
        raise ValueError(f"{item.__name__} cannot route the custom id {custom_id!r}")
    return custom_id


def one_choice(item: type[discord.ui.DynamicItem[Any]], custom_id: str, options: list[discord.SelectOption] | None,
               placeholder: str | None, empty: str = "-") -> discord.ui.Select[Any]:
    """The select of a ``DynamicItem`` of which one value is chosen. Without ``options`` (an item rebuilt from
    its custom id, to route a click) it holds one option of value ``empty``."""
    opts = options or [discord.SelectOption(label="-", value=empty)]
    return discord.ui.Select(custom_id=_checked(item, custom_id), options=opts, placeholder=placeholder,
                             min_values=1, max_values=1)


_BASE_FIELDS = 5  # kind, card, row, target, amount: always written, so base-game values keep their form


def encode(action: Action) -> str:
    """An Action as a compact string (select value or custom_id part): its fields in order, those after
    ``amount`` (the market roundel, and any an expansion adds) only up to the last one that is set."""
    parts = [str(v) for v in action]
    defaults = [str(action._field_defaults.get(f, "")) for f in action._fields]
    end = len(parts)
    while end > _BASE_FIELDS and parts[end - 1] == defaults[end - 1]:
        end -= 1
    return "|".join(parts[:end])


def decode(value: str) -> Action:
    """The Action of ``encode``; ValueError for anything malformed."""
    parts = value.split("|")
    if not _BASE_FIELDS <= len(parts) <= len(Action._fields):
        raise ValueError(f"bad action value {value!r}")
    values: list[Any] = []
    for name, part in zip(Action._fields, parts, strict=False):
        values.append(int(part) if isinstance(Action._field_defaults.get(name), int) else part)
    return Action(*values)


def selected(interaction: discord.Interaction[Any]) -> list[str]:
    """The values a select's interaction carries (none when Discord sent none)."""
    return [str(v) for v in cast(dict[str, Any], interaction.data or {}).get("values") or []]


def first_selected(interaction: discord.Interaction[Any]) -> str:
    """The first value a select's interaction carries ("" when none)."""
    values = selected(interaction)
    return values[0] if values else ""


def _cog(interaction: discord.Interaction[Any]) -> Petersburg:
    cog = cast(Any, interaction.client).get_cog("Petersburg")
    if cog is None:
        raise RuntimeError("the Petersburg cog is not loaded")
    return cast("Petersburg", cog)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"pb:s:{GAME}:{VERSION}:{SLOT}"):
    """A select of legal moves of one kind in the private menu (or the ephemeral target choice); ``slot``:
    ``slot(kind, n)``."""

    def __init__(self, game_id: int, version: int, slot: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        self.game_id, self.version, self.slot = game_id, version, slot
        super().__init__(one_choice(ActionSelect, f"pb:s:{game_id}:{version}:{slot}", options, placeholder))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionSelect:
        return cls(int(match["game"]), int(match["ver"]), match["slot"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_choice(interaction, self.game_id, self.version, first_selected(interaction))


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"pb:b:{GAME}:{VERSION}:{ACT}"):
    """A button that takes one legal action (pass, discard the drawn card)."""

    def __init__(self, game_id: int, version: int, value: str, label: str = "-",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None) -> None:
        self.game_id, self.version, self.value = game_id, version, value
        cid = _checked(ActionButton, f"pb:b:{game_id}:{version}:{value}")
        super().__init__(discord.ui.Button(custom_id=cid, label=label, style=style, emoji=emoji))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        return cls(int(match["game"]), int(match["ver"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_choice(interaction, self.game_id, self.version, self.value)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"pb:p:{GAME}:{VERSION}:(?P<page>\d+)"):
    """Turns the private menu to another page of its selects (when its kinds of move do not fit one message);
    the version is the menu's: a page of an older board is refused as stale."""

    def __init__(self, game_id: int, version: int, page: int, label: str = "-", emoji: str | None = None) -> None:
        self.game_id, self.version, self.page = game_id, version, page
        cid = _checked(PageButton, f"pb:p:{game_id}:{version}:{page}")
        super().__init__(discord.ui.Button(custom_id=cid, label=label, emoji=emoji,
                                           style=discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PageButton:
        return cls(int(match["game"]), int(match["ver"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_menu_page(interaction, self.game_id, self.version, self.page)


class YourMoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"pb:y:{GAME}:{VERSION}"):
    """"Your move" on the public board: opens the mover's legal moves, prices and hand privately (nothing
    secret is on the public message). The version says which board it belongs to."""

    def __init__(self, game_id: int, version: int, label: str = "-") -> None:
        self.game_id, self.version = game_id, version
        super().__init__(discord.ui.Button(custom_id=_checked(YourMoveButton, f"pb:y:{game_id}:{version}"),
                                           label=label, emoji="▶️", style=discord.ButtonStyle.success))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> YourMoveButton:
        return cls(int(match["game"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_your_move(interaction, self.game_id)


class TakeBackButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=rf"pb:u:{GAME}:{VERSION}"):
    """↩️ Take back, on the private confirmation of a move and on the private menu while the clicker may take
    back their last action (``bot.takeback``); the version is the game's when it was offered."""

    def __init__(self, game_id: int, version: int, label: str = "-") -> None:
        self.game_id, self.version = game_id, version
        super().__init__(discord.ui.Button(custom_id=_checked(TakeBackButton, f"pb:u:{game_id}:{version}"),
                                           label=label, emoji="↩️", style=discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TakeBackButton:
        return cls(int(match["game"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_take_back(interaction, self.game_id, self.version)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button that carries its game and nothing else: its custom id is ``pb:<PREFIX>:<game>``, which the
    subclass's template routes (this base routes nothing); a click calls the subclass's ``callback``."""

    PREFIX: ClassVar[str]
    EMOJI: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, game_id: int, label: str = "-") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(custom_id=_checked(type(self), f"pb:{self.PREFIX}:{game_id}"), label=label,
                                           emoji=self.EMOJI, style=self.STYLE))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(int(match["game"]))


class StacksButton(GameButton, template=rf"pb:k:{GAME}"):
    """"Stacks": what the clicker cannot see, per stack, as counts by card type (UI-05/06), privately."""

    PREFIX, EMOJI = "k", "📚"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_stacks_button(interaction, self.game_id)


class HandButton(GameButton, template=rf"pb:h:{GAME}"):
    """"My hand": shows the clicking player's hand privately, any time."""

    PREFIX, EMOJI, STYLE = "h", "🃏", discord.ButtonStyle.primary

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_hand_button(interaction, self.game_id)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"pb:l:{GAME}:(?P<what>join|leave|start)"):
    """Join, leave or start from the lobby message."""

    def __init__(self, game_id: int, what: str, label: str = "-",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.game_id, self.what = game_id, what
        super().__init__(discord.ui.Button(custom_id=_checked(LobbyButton, f"pb:l:{game_id}:{what}"), label=label,
                                           style=style))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_lobby_button(interaction, self.game_id, self.what)


class PassModeSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"pb:m:{GAME}"):
    """Anyone in the game: pass my next turn / until the display changes / for the rest of this phase, or
    cancel. It carries no version: the mode is armed against the game as it is when chosen."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        self.game_id = game_id
        opts = [discord.SelectOption(label=t(f"bot.option_pass_{mode}", lang)[:100], value=mode, emoji=emoji)
                for mode, emoji in PASS_MODE_OPTIONS]
        super().__init__(one_choice(PassModeSelect, f"pb:m:{game_id}", opts, t("bot.select_pass_mode", lang)[:150]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PassModeSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_pass_mode(interaction, self.game_id, first_selected(interaction))


class ComputerSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"pb:c:{GAME}"):
    """The lobby's computer players (host): add one of a level, or remove the last one."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        self.game_id = game_id
        opts = [discord.SelectOption(label=t("bot.option_add_computer", lang, level=t(f"bot.level_{lv}", lang))[:100],
                                     value=lv, emoji="🤖") for lv in ("easy", "normal", "strong")]
        opts.append(discord.SelectOption(label=t("bot.option_remove_computer", lang)[:100], value="remove",
                                         emoji="✖️"))
        super().__init__(one_choice(ComputerSelect, f"pb:c:{game_id}", opts, t("bot.select_computer", lang)[:150]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ComputerSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_lobby_computer(interaction, self.game_id, first_selected(interaction))


class PartsSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"pb:x:{GAME}"):
    """The lobby's expansions and modules (host): every one the edition has, each with a line of help;
    the rules core accepts or refuses the combination chosen (X-02)."""

    def __init__(self, game_id: int, lang: str = "en", edition: int = 2, chosen: Iterable[str] = ()) -> None:
        self.game_id = game_id
        picked = set(chosen)
        opts = [discord.SelectOption(label=t(f"bot.part_{e.key}", lang)[:100], value=e.key,
                                     description=t(f"bot.part_help_{e.key}", lang)[:100], default=e.key in picked)
                for e in offered(edition)] or [discord.SelectOption(label="-", value="-")]
        cid = _checked(PartsSelect, f"pb:x:{game_id}")
        super().__init__(discord.ui.Select(custom_id=cid, options=opts, min_values=0,
                                           max_values=len(opts), placeholder=t("bot.select_parts", lang)[:150]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PartsSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_lobby_parts(interaction, self.game_id, selected(interaction))


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"pb:r:(?P<game>\d+):(?P<step>\d+):(?P<go>[a-z]+)(?::(?P<seat>\d+))?"):
    """▶️ Replay on the final scores and the history (``go`` "open": a private viewer at ``step``), and the
    viewer's own buttons (``step``: the step they show; ``go`` tells them apart; ``seat``: whose reviewed
    mistakes the viewer jumps to). Anyone in the server."""

    def __init__(self, game_id: int, step: int, go: str, label: str = "-", emoji: str | None = None,
                 disabled: bool = False, seat: int | None = None) -> None:
        self.game_id, self.step, self.go, self.seat = game_id, step, go, seat
        cid = f"pb:r:{game_id}:{step}:{go}" + (f":{seat}" if seat is not None else "")
        super().__init__(discord.ui.Button(custom_id=_checked(ReplayButton, cid), label=label, emoji=emoji,
                                           disabled=disabled, style=discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayButton:
        return cls(int(match["game"]), int(match["step"]), match["go"],
                   seat=int(match["seat"]) if match["seat"] is not None else None)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_replay(interaction, self.game_id, self.step, opening=self.go == "open",
                                          seat=self.seat)


class RematchButton(GameButton, template=rf"pb:rm:{GAME}"):
    """🔁 Rematch on the final scores: a player opens the rematch lobby, or is shown the one already open."""

    PREFIX, EMOJI = "rm", "🔁"

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_rematch(interaction, self.game_id)


PASS_MODE_OPTIONS = (("turn", "⏭️"), ("display", "🔁"), ("phase", "⏩"), ("off", "✖️"))
DYNAMIC_ITEMS = (ActionSelect, ActionButton, PageButton, YourMoveButton, HandButton, StacksButton, LobbyButton,
                 PassModeSelect, ComputerSelect, PartsSelect, ReplayButton, RematchButton, TakeBackButton)


# --- the public board's and the lobby's controls (the private menu: ``cogs.menus``) ----------------------
def board_view(game_id: int, version: int, lang: str, *, playing: bool) -> discord.ui.View:
    """The public board's controls, the same for every seat: "Your move" (while the game is on), My hand, and
    the pass modes. Nothing on them depends on a seat's secrets (its money or hand)."""
    view = discord.ui.View(timeout=None)
    if not playing:
        return view
    view.add_item(YourMoveButton(game_id, version, t("bot.button_your_move", lang)))
    view.add_item(HandButton(game_id, t("bot.button_hand", lang)))
    view.add_item(StacksButton(game_id, t("bot.button_stacks", lang)))
    modes = PassModeSelect(game_id, lang)
    modes.item.row = 1
    view.add_item(modes)
    return view


def lobby_view(game_id: int, lang: str, edition: int = 2, parts: Iterable[str] = ()) -> discord.ui.View:
    """The lobby's controls: join, leave, start; computer players; the expansions and modules (``parts``:
    the registry keys chosen so far)."""
    view = discord.ui.View(timeout=None)
    view.add_item(LobbyButton(game_id, "join", t("bot.button_join", lang), discord.ButtonStyle.success))
    view.add_item(LobbyButton(game_id, "leave", t("bot.button_leave", lang)))
    view.add_item(LobbyButton(game_id, "start", t("bot.button_start", lang), discord.ButtonStyle.primary))
    computers = ComputerSelect(game_id, lang)
    computers.item.row = 1
    view.add_item(computers)
    if offered(edition):
        choose = PartsSelect(game_id, lang, edition, parts)
        choose.item.row = 2
        view.add_item(choose)
    return view
