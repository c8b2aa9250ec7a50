"""Persistent buttons and select menus (``discord.ui.DynamicItem``): they carry the game id and the board
version in their custom_id, so they keep working after a restart and a stale board is recognised.

Choices come only from ``rules.legal_moves``; a chosen value is an encoded Action that the game service
validates again with the rules core.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.texts import describe_action, has_text, rubles
from rules import Action, GameState, Move, legal_moves
from rules import view as view_of
from rules.cards import Catalogue
from rules.expansions import offered
from rules.i18n import t

if TYPE_CHECKING:
    from .petersburg import Petersburg

SELECT_KINDS = ("buy", "take", "play", "observe", "pub")
MAX_OPTIONS = 25
MAX_SELECT_ROWS = 4  # the fifth row holds the buttons
MAX_BUTTONS = 5  # in a row
GROUP = "?"  # a select value starting with this asks for the card to displace next


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


def _cog(interaction: discord.Interaction[Any]) -> Petersburg:
    cog = cast(Any, interaction.client).get_cog("Petersburg")
    if cog is None:
        raise RuntimeError("the Petersburg cog is not loaded")
    return cast("Petersburg", cog)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"pb:s:(?P<game>\d+):(?P<ver>\d+):(?P<slot>[a-z]+\d*)"):
    """A select of legal moves of one kind on the board (or the ephemeral target choice)."""

    def __init__(self, game_id: int, version: int, slot: str, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        self.game_id, self.version, self.slot = game_id, version, slot
        opts = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"pb:s:{game_id}:{version}:{slot}", options=opts,
                                           placeholder=placeholder, min_values=1, max_values=1))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionSelect:
        return cls(int(match["game"]), int(match["ver"]), match["slot"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = cast(dict[str, Any], interaction.data or {}).get("values") or []
        await _cog(interaction).on_choice(interaction, self.game_id, self.version, str(values[0]) if values else "")


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"pb:b:(?P<game>\d+):(?P<ver>\d+):(?P<act>[a-z_|0-9-]+)"):
    """A button that takes one legal action (pass, discard the drawn card)."""

    def __init__(self, game_id: int, version: int, value: str, label: str = "-",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None) -> None:
        self.game_id, self.version, self.value = game_id, version, value
        super().__init__(discord.ui.Button(custom_id=f"pb:b:{game_id}:{version}:{value}", label=label,
                                           style=style, emoji=emoji))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        return cls(int(match["game"]), int(match["ver"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_choice(interaction, self.game_id, self.version, self.value)


class YourMoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"pb:y:(?P<game>\d+):(?P<ver>\d+)"):
    """"Your move" on the public board: opens the mover's legal moves, prices and hand privately (nothing
    secret is on the public message). The version says which board it belongs to."""

    def __init__(self, game_id: int, version: int, label: str = "-") -> None:
        self.game_id, self.version = game_id, version
        super().__init__(discord.ui.Button(custom_id=f"pb:y:{game_id}:{version}", label=label, emoji="▶️",
                                           style=discord.ButtonStyle.success))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> YourMoveButton:
        return cls(int(match["game"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_your_move(interaction, self.game_id)


class StacksButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pb:k:(?P<game>\d+)"):
    """"Stacks": what the clicker cannot see, per stack, as counts by card type (UI-05/06), privately."""

    def __init__(self, game_id: int, label: str = "-") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(custom_id=f"pb:k:{game_id}", label=label, emoji="📚",
                                           style=discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> StacksButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_stacks_button(interaction, self.game_id)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pb:h:(?P<game>\d+)"):
    """"My hand": shows the clicking player's hand privately, any time."""

    def __init__(self, game_id: int, label: str = "-") -> None:
        self.game_id = game_id
        super().__init__(discord.ui.Button(custom_id=f"pb:h:{game_id}", label=label, emoji="🃏",
                                           style=discord.ButtonStyle.primary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_hand_button(interaction, self.game_id)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"pb:l:(?P<game>\d+):(?P<what>join|leave|start)"):
    """Join, leave or start from the lobby message."""

    def __init__(self, game_id: int, what: str, label: str = "-",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        self.game_id, self.what = game_id, what
        super().__init__(discord.ui.Button(custom_id=f"pb:l:{game_id}:{what}", label=label, style=style))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["game"]), match["what"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_lobby_button(interaction, self.game_id, self.what)


class PassModeSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pb:m:(?P<game>\d+)"):
    """Anyone in the game: pass my next turn / until the display changes / for the rest of this phase, or
    cancel. It carries no version: the mode is armed against the game as it is when chosen."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        self.game_id = game_id
        opts = [discord.SelectOption(label=t(f"bot.option_pass_{mode}", lang)[:100], value=mode, emoji=emoji)
                for mode, emoji in PASS_MODE_OPTIONS]
        super().__init__(discord.ui.Select(custom_id=f"pb:m:{game_id}", options=opts, min_values=1, max_values=1,
                                           placeholder=t("bot.select_pass_mode", lang)[:150]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PassModeSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = cast(dict[str, Any], interaction.data or {}).get("values") or []
        await _cog(interaction).on_pass_mode(interaction, self.game_id, str(values[0]) if values else "")


class ComputerSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pb:c:(?P<game>\d+)"):
    """The lobby's computer players (host): add one of a level, or remove the last one."""

    def __init__(self, game_id: int, lang: str = "en") -> None:
        self.game_id = game_id
        opts = [discord.SelectOption(label=t("bot.option_add_computer", lang, level=t(f"bot.level_{lv}", lang))[:100],
                                     value=lv, emoji="🤖") for lv in ("easy", "normal", "strong")]
        opts.append(discord.SelectOption(label=t("bot.option_remove_computer", lang)[:100], value="remove",
                                         emoji="✖️"))
        super().__init__(discord.ui.Select(custom_id=f"pb:c:{game_id}", options=opts, min_values=1, max_values=1,
                                           placeholder=t("bot.select_computer", lang)[:150]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ComputerSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = cast(dict[str, Any], interaction.data or {}).get("values") or []
        await _cog(interaction).on_lobby_computer(interaction, self.game_id, str(values[0]) if values else "")


class PartsSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"pb:x:(?P<game>\d+)"):
    """The lobby's expansions and modules (host): every one the edition has, each with a line of help;
    the rules core accepts or refuses the combination chosen (X-02)."""

    def __init__(self, game_id: int, lang: str = "en", edition: int = 2, chosen: Iterable[str] = ()) -> None:
        self.game_id = game_id
        picked = set(chosen)
        opts = [discord.SelectOption(label=t(f"bot.part_{e.key}", lang)[:100], value=e.key,
                                     description=t(f"bot.part_help_{e.key}", lang)[:100], default=e.key in picked)
                for e in offered(edition)] or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=f"pb:x:{game_id}", options=opts, min_values=0,
                                           max_values=len(opts), placeholder=t("bot.select_parts", lang)[:150]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PartsSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = cast(dict[str, Any], interaction.data or {}).get("values") or []
        await _cog(interaction).on_lobby_parts(interaction, self.game_id, [str(v) for v in values])


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"pb:r:(?P<game>\d+):(?P<step>\d+):(?P<go>[a-z]+)"):
    """▶️ Replay on the final scores and the history (``go`` "open": a private viewer at ``step``), and the
    viewer's own buttons (``step``: the step they show; ``go`` tells them apart). Anyone in the server."""

    def __init__(self, game_id: int, step: int, go: str, label: str = "-", emoji: str | None = None,
                 disabled: bool = False) -> None:
        self.game_id, self.step, self.go = game_id, step, go
        super().__init__(discord.ui.Button(custom_id=f"pb:r:{game_id}:{step}:{go}", label=label, emoji=emoji,
                                           disabled=disabled, style=discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ReplayButton:
        return cls(int(match["game"]), int(match["step"]), match["go"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_replay(interaction, self.game_id, self.step, opening=self.go == "open")


PASS_MODE_OPTIONS = (("turn", "⏭️"), ("display", "🔁"), ("phase", "⏩"), ("off", "✖️"))
DYNAMIC_ITEMS = (ActionSelect, ActionButton, YourMoveButton, HandButton, StacksButton, LobbyButton, PassModeSelect,
                 ComputerSelect, PartsSelect, ReplayButton)


# --- building the controls ------------------------------------------------------------------------
def _option(moves: list[Move], edition: int, lang: str, cat: Catalogue | None = None,
            own: dict[str, Any] | None = None) -> discord.SelectOption:
    """One select option for the moves of one card (several when a trading card has several targets);
    ``own``: the mover's own view (players' names, an assignment's value now)."""
    first = moves[0]
    if len(moves) == 1:
        label = describe_action(first.action, edition, lang, first.price, cat, view=own)
        return discord.SelectOption(label=label[:100], value=encode(first.action))
    bare = first.action._replace(target="")
    cheapest = min(m.price for m in moves)
    label = describe_action(bare, edition, lang) + ": " + t("bot.from_price", lang, price=rubles(cheapest, lang))
    return discord.SelectOption(label=label[:100], value=GROUP + encode(bare),
                                description=t("bot.choose_target", lang)[:100])


def as_buttons(moves: Iterable[Move]) -> list[Move]:
    """The moves shown as buttons: pass, and discard where there are few (an Observatory's one card); the
    Black Market's and Debtor's Prison's "put back" of many cards goes into a select (issue 16)."""
    buttons = [m for m in moves if m.action.kind in ("pass", "discard")]
    if len(buttons) <= MAX_BUTTONS:
        return buttons
    return [m for m in buttons if m.action.kind == "pass"]


def grouped(moves: Iterable[Move]) -> dict[str, list[list[Move]]]:
    """Legal moves per select kind, one entry per card/row (trading-card targets grouped together)."""
    moves = list(moves)
    buttons = as_buttons(moves)
    out: dict[str, dict[tuple[str, int, int, str], list[Move]]] = {k: {} for k in SELECT_KINDS}
    for m in moves:
        a = m.action
        kind = a.kind
        if m in buttons:
            continue
        out.setdefault(kind, {}).setdefault((a.card, a.row, a.amount, a.good), []).append(m)
    return {k: list(v.values()) for k, v in out.items()}


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


def select_placeholder(kind: str, lang: str) -> str:
    """The private menu's select of one kind of move; a kind without words of its own (an expansion's
    decision) gets the general "Decide…"."""
    key = f"bot.select_{kind}"
    return t(key, lang) if has_text(key, lang) else t("bot.select_decision", lang)


def move_view(game_id: int, version: int, st: GameState, lang: str) -> discord.ui.View:
    """The mover's private menu: one select per kind of legal move (with prices) and pass/discard buttons."""
    view = discord.ui.View(timeout=None)
    ed = st.ruleset.edition
    moves = legal_moves(st)
    own = view_of(st, st.decider)  # the mover's: the menu is private
    rows = 0
    for kind, groups in grouped(moves).items():
        chunks = [groups[i:i + MAX_OPTIONS] for i in range(0, len(groups), MAX_OPTIONS)]
        for n, chunk in enumerate(chunks):
            if rows >= MAX_SELECT_ROWS:
                break  # never in practice; the slash commands still offer every move
            placeholder = select_placeholder(kind, lang) + (f" ({n + 1}/{len(chunks)})" if len(chunks) > 1 else "")
            opts = [_option(g, ed, lang, st.ruleset.catalogue, own) for g in chunk]
            item = ActionSelect(game_id, version, f"{kind}{n}", opts, placeholder[:150])
            item.item.row = rows
            view.add_item(item)
            rows += 1
    for m in as_buttons(moves):
        if m.action.kind == "pass":
            b = ActionButton(game_id, version, encode(m.action), t("bot.button_pass", lang), emoji="⏭️")
        elif m.action.kind == "discard":
            b = ActionButton(game_id, version, encode(m.action), t("bot.button_discard", lang),
                             style=discord.ButtonStyle.danger, emoji="🗑️")
        else:
            continue
        b.item.row = 4
        view.add_item(b)
    return view


def target_view(game_id: int, version: int, moves: list[Move], edition: int, lang: str) -> discord.ui.View:
    """The ephemeral follow-up: which card the chosen trading card displaces (with prices)."""
    view = discord.ui.View(timeout=None)
    for n in range(0, min(len(moves), MAX_OPTIONS * 5), MAX_OPTIONS):
        opts = [discord.SelectOption(label=describe_action(m.action, edition, lang, m.price)[:100],
                                     value=encode(m.action)) for m in moves[n:n + MAX_OPTIONS]]
        view.add_item(ActionSelect(game_id, version, f"target{n // MAX_OPTIONS}", opts,
                                   t("bot.select_target", lang)[:150]))
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
