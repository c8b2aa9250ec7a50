"""The mover's private menu ("Your move") and its follow-up, the card a trading card displaces.

One select per kind of legal move (several where a kind has more than 25 choices), each option in words with
its price; pass and discard as buttons. Every legal move is in the menu: when the selects do not fit one
message (Discord allows 5 rows), the menu has pages of four selects, turned with buttons in the last row that
name what the other page offers (``PageButton``). Choices come only from ``rules.legal_moves``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot.texts import describe_action, has_text, rubles
from rules import GameState, Move, legal_moves
from rules import view as view_of
from rules.cards import Catalogue
from rules.i18n import t

from .components import GROUP, ActionButton, ActionSelect, PageButton, decode, encode, slot

SELECT_KINDS = ("buy", "take", "play", "observe", "pub")  # first, in this order; the others as they come
# Discord's limits: rows in a message, options in a select, buttons in a row, characters in a label, an
# option's words and a placeholder
MAX_ROWS = 5
MAX_OPTIONS = 25
MAX_BUTTONS = 5
MAX_BUTTON_LABEL = 80
MAX_LABEL = 100
MAX_PLACEHOLDER = 150
BUTTON_ROW = MAX_ROWS - 1  # pass, discard and the page buttons
PAGE_BUTTONS = 2  # back and more


class MenuItems:
    """The items a menu is made of: the live game's (its selects and buttons commit a move to the game at
    ``version``). The review's puzzle (``cogs.review_items.PuzzleItems``) makes the same menu of items that
    answer off the game."""

    def __init__(self, game_id: int, version: int) -> None:
        self.game_id, self.version = game_id, version

    def select(self, slot: str, options: list[discord.SelectOption], placeholder: str) -> discord.ui.Item[Any]:
        return ActionSelect(self.game_id, self.version, slot, options, placeholder)

    def button(self, value: str, label: str, style: discord.ButtonStyle, emoji: str) -> discord.ui.Item[Any]:
        return ActionButton(self.game_id, self.version, value, label, style=style, emoji=emoji)

    def page(self, page: int, label: str, emoji: str) -> discord.ui.Item[Any]:
        return PageButton(self.game_id, self.version, page, label, emoji=emoji)


@dataclass(frozen=True)
class MenuSelect:
    """One select of the private menu: the ``n``-th of ``of`` selects of a kind, with its groups of moves
    (one option each)."""

    kind: str
    n: int
    of: int
    groups: list[list[Move]]


def _option(moves: list[Move], edition: int, lang: str, cat: Catalogue | None = None,
            own: dict[str, Any] | None = None) -> discord.SelectOption:
    """One select option for the moves of one card (several when a trading card has several targets);
    ``own``: the mover's own view (players' names, an assignment's value now)."""
    first = moves[0]
    if len(moves) == 1:
        label = describe_action(first.action, edition, lang, first.price, cat, view=own)
        return discord.SelectOption(label=label[:MAX_LABEL], value=encode(first.action))
    bare = first.action._replace(target="")
    cheapest = min(m.price for m in moves)
    label = describe_action(bare, edition, lang) + ": " + t("bot.from_price", lang, price=rubles(cheapest, lang))
    return discord.SelectOption(label=label[:MAX_LABEL], value=GROUP + encode(bare),
                                description=t("bot.choose_target", lang)[:MAX_LABEL])


def as_buttons(moves: Iterable[Move], room: int = MAX_BUTTONS) -> list[Move]:
    """The moves shown as buttons: pass, and discard where there are few (an Observatory's one card); the
    Black Market's and Debtor's Prison's "put back" of many cards goes into a select. ``room``:
    the buttons the row has for them."""
    buttons = [m for m in moves if m.action.kind in ("pass", "discard")]
    if len(buttons) <= room:
        return buttons
    return [m for m in buttons if m.action.kind == "pass"]


def grouped(moves: Iterable[Move], buttons: list[Move] | None = None) -> dict[str, list[list[Move]]]:
    """Legal moves per select kind, one entry per card/row (trading-card targets grouped together); the
    moves shown as ``buttons`` (default: ``as_buttons``) are left out."""
    moves = list(moves)
    shown = as_buttons(moves) if buttons is None else buttons
    out: dict[str, dict[tuple[str, int, int, str], list[Move]]] = {k: {} for k in SELECT_KINDS}
    for m in moves:
        a = m.action
        if m in shown:
            continue
        out.setdefault(a.kind, {}).setdefault((a.card, a.row, a.amount, a.good), []).append(m)
    return {k: list(v.values()) for k, v in out.items()}


def _selects(moves: list[Move], buttons: list[Move]) -> list[MenuSelect]:
    out = []
    for kind, groups in grouped(moves, buttons).items():
        chunks = [groups[i:i + MAX_OPTIONS] for i in range(0, len(groups), MAX_OPTIONS)]
        out += [MenuSelect(kind, n, len(chunks), chunk) for n, chunk in enumerate(chunks)]
    return out


def menu_pages(moves: list[Move]) -> tuple[list[Move], list[list[MenuSelect]]]:
    """The buttons and the pages of selects of the private menu. One page when the selects fit beside the
    buttons' row; else pages of four selects, the last row keeping room for the page buttons (pass stays a
    button; discards that do not fit go into a select)."""
    buttons = as_buttons(moves)
    selects = _selects(moves, buttons)
    if len(selects) <= MAX_ROWS - (1 if buttons else 0):
        return buttons, [selects]
    buttons = as_buttons(moves, MAX_BUTTONS - PAGE_BUTTONS)
    selects = _selects(moves, buttons)
    per = MAX_ROWS - 1
    return buttons, [selects[i:i + per] for i in range(0, len(selects), per)]


def select_placeholder(kind: str, lang: str, single: bool = False) -> str:
    """The private menu's select of one kind of move; a kind without words of its own (an expansion's
    decision) gets the general "Decide…". ``single``: the kind offers one choice, worded apart where that
    means something (AMB-17(e): a covered Guild Hall gives only its 4 rubles)."""
    key = f"bot.select_{kind}"
    if single and has_text(f"{key}_single", lang):
        return t(f"{key}_single", lang)
    return t(key, lang) if has_text(key, lang) else t("bot.select_decision", lang)


def _page_label(key: str, page: list[MenuSelect], number: int, pages: int, lang: str) -> str:
    """The next page's button: where it goes and what that page offers ("More (2/2): Grabber: buy …")."""
    kinds = list(dict.fromkeys(s.kind for s in page))
    what = ", ".join(select_placeholder(k, lang).rstrip("…?. ") for k in kinds)
    label = t(key, lang, page=number, pages=pages, what=what)
    return label if len(label) <= MAX_BUTTON_LABEL else label[:MAX_BUTTON_LABEL - 1] + "…"


def move_view(game_id: int, version: int, st: GameState, lang: str, page: int = 0,
              items: MenuItems | None = None) -> discord.ui.View:
    """The mover's private menu, its ``page`` (the first; one out of range shows the last): one select per
    kind of legal move (with prices), pass/discard buttons, and buttons to the other pages if there are.
    ``items``: what the menu is made of (default: the live game's at ``version``)."""
    make = items if items is not None else MenuItems(game_id, version)
    view = discord.ui.View(timeout=None)
    ed = st.ruleset.edition
    moves = legal_moves(st)
    own = view_of(st, st.decider)  # the mover's: the menu is private
    buttons, pages = menu_pages(moves)
    page = max(0, min(page, len(pages) - 1))
    for row, sel in enumerate(pages[page]):
        single = sel.of == 1 and len(sel.groups) == 1 and len(sel.groups[0]) == 1
        placeholder = select_placeholder(sel.kind, lang, single) + (f" ({sel.n + 1}/{sel.of})" if sel.of > 1 else "")
        opts = [_option(g, ed, lang, st.ruleset.catalogue, own) for g in sel.groups]
        item = make.select(slot(sel.kind, sel.n), opts, placeholder[:MAX_PLACEHOLDER])
        item.row = row
        view.add_item(item)
    controls: list[discord.ui.Item[Any]] = []
    if page > 0:
        back = t("bot.button_page_back", lang, page=page, pages=len(pages))
        controls.append(make.page(page - 1, back[:MAX_BUTTON_LABEL], "◀️"))
    for m in buttons:
        if m.action.kind == "pass":
            controls.append(make.button(encode(m.action), t("bot.button_pass", lang), discord.ButtonStyle.secondary,
                                        "⏭️"))
        elif m.action.kind == "discard":
            controls.append(make.button(encode(m.action), t("bot.button_discard", lang), discord.ButtonStyle.danger,
                                        "🗑️"))
    if page < len(pages) - 1:
        controls.append(make.page(page + 1, _page_label(
            "bot.button_page_more", pages[page + 1], page + 2, len(pages), lang), "▶️"))
    for b in controls:
        b.row = BUTTON_ROW
        view.add_item(b)
    return view


def target_moves(st: GameState, value: str) -> list[Move]:
    """The legal moves of a grouped option (``GROUP`` + a trading card's move without its target): one per
    card it may displace."""
    bare = decode(value.removeprefix(GROUP))
    return [m for m in legal_moves(st) if m.action._replace(target="") == bare]


def target_view(game_id: int, version: int, moves: list[Move], edition: int, lang: str,
                items: MenuItems | None = None) -> discord.ui.View:
    """The ephemeral follow-up: which card the chosen trading card displaces (with prices)."""
    make = items if items is not None else MenuItems(game_id, version)
    view = discord.ui.View(timeout=None)
    for n in range(0, min(len(moves), MAX_OPTIONS * MAX_ROWS), MAX_OPTIONS):
        opts = [discord.SelectOption(label=describe_action(m.action, edition, lang, m.price)[:MAX_LABEL],
                                     value=encode(m.action)) for m in moves[n:n + MAX_OPTIONS]]
        placeholder = t("bot.select_target", lang)[:MAX_PLACEHOLDER]
        view.add_item(make.select(slot("target", n // MAX_OPTIONS), opts, placeholder))
    return view
