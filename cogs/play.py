"""Taking turns: the "Your move" menu, its selects and buttons, and the playing commands with autocomplete.

Every way to act carries the game version it was chosen against: the private menu's components in their
custom ids, autocomplete values as ``v<version> <notation>``; a typed value without one is checked
against the newest board the player may have seen (the channel's, from its edit on, or their private menu:
``cogs.seen``). The service refuses an action against an older version (a repeated
one as ``already_done``). No rules here: choices come from ``rules.legal_moves``, actions are validated by
``rules.apply``.
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot import images
from bot.service import UserError
from bot.store import ACTIVE, Game
from bot.texts import describe_action, hand_text
from bot.translator import locale_str as _
from rules import Action, GameState, RuleError, format_action, legal_moves, view
from rules.i18n import card_name, error_text, t
from rules.view import unseen

from .base import CogBase, Interaction
from .components import GROUP, decode
from .menus import move_view, target_moves, target_view
from .takeback import offers_takeback, with_takeback

log = logging.getLogger(__name__)

VERSIONED = re.compile(r"^v(\d+) (.*)$")
# The kinds of a normal turn that have commands of their own; ``/petersburg decide`` offers every other
# legal move: whatever decision is pending (the Observatory's drawn card, the Pub, the Market's "?" good
# and crates, and any decision an expansion or module adds), and turn actions an expansion adds. The
# group is at Discord's limit of 25 subcommands, so no decision gets a command of its own.
TURN_KINDS = frozenset({"buy", "take", "play", "pass", "observe"})


def versioned(value: str) -> tuple[int | None, str]:
    """An autocomplete value ``v<version> <notation>`` split; a typed value has no version."""
    m = VERSIONED.match(value.strip())
    return (int(m.group(1)), m.group(2)) if m else (None, value.strip())


def _card_command(kind: str) -> app_commands.Command[Any, ..., None]:
    """``/petersburg <kind> card``, a playing command for one kind of move (buy, take, play), with its
    autocomplete: a method of ``PlayCommands``."""

    async def command(self: PlayCommands, interaction: Interaction, card: str) -> None:
        await self.play_text(interaction, kind, card)

    async def autocomplete(self: PlayCommands, interaction: Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, current, (kind,))

    # named as methods of the class, so that discord.py hands them the cog (``discord.utils.is_inside_class``)
    command.__qualname__, autocomplete.__qualname__ = f"PlayCommands.{kind}", f"PlayCommands.{kind}_ac"
    cmd = app_commands.command(name=kind, description=_(f"cmd.{kind}"))(
        app_commands.describe(card=_("opt.move"))(command))
    cmd.autocomplete("card")(autocomplete)
    return cmd


class PlayCommands(CogBase):
    """The acting part of the ``/petersburg`` cog."""

    # --- acting -------------------------------------------------------------------------------------
    async def act(self, interaction: Interaction, game_id: int, action: Action | str, version: int | None,
                  lang: str) -> None:
        """Apply one action for the interaction's user (acknowledged already); answer privately."""
        started = time.perf_counter()

        async def work() -> None:
            out = await self.service.act(game_id, interaction.user.id, action, version=version)
            self.poster.kick(game_id)
            self.bot.record_timing(started)
            for seat in out.all_changed_hands():
                await self.push_hand(out.game, out.state, seat)
            own = view(out.before, out.seat) if out.action.kind == "assignment" else None  # its value (private)
            done = t("bot.done", lang, action=describe_action(out.action, out.state.ruleset.edition, lang, out.price,
                                                               seats=out.state.seats, view=own))
            menu = None
            game = out.game
            if not out.state.finished and game.user_at(out.state.decider) == interaction.user.id:
                done = t("bot.done_next", lang, action=done.removeprefix("✅ ")) + "\n" + hand_text(
                    view(out.state, out.state.decider), lang)  # as the "Your move" menu shows it
                menu = move_view(game.id, game.version, out.state, lang)
                self.poster.seen.told(game.id, interaction.user.id, game.version)
            if offers_takeback(out) and await self.service.takeback_allowed(game):
                menu = with_takeback(menu, game.id, game.version, lang)
            await self.after_commit(interaction, done, menu)
            if out.back and game.guild_id is not None:  # back: their other games' boards lose the 🏖️ mark
                await self.refresh_boards(game.guild_id, interaction.user.id)

        await self.guard(interaction, lang, work)

    async def on_your_move(self, interaction: Interaction, game_id: int) -> None:
        """The public board's "Your move": the mover's legal moves, prices and hand, privately."""
        await self.on_game(interaction, game_id, lambda game, lang: self._menu(interaction, game))

    def _seated(self, interaction: Interaction, game: Game, version: int | None) -> int:
        """The user's seat in the game, for a private menu; UserError when the game is not in play, the user has
        no seat in it, or ``version`` (None: any) is not the board's."""
        seat = self.service.seat_in_play(game, interaction.user.id)
        if version is not None and game.version != version:
            raise UserError("stale_board")
        return seat

    async def _menu(self, interaction: Interaction, game: Game, page: int = 0, version: int | None = None) -> None:
        """The private menu (its ``page``); ``version``: the board the page button belongs to (stale if older)."""
        seat = self._seated(interaction, game, version)
        st = self.service.state(game)
        lang = game.lang
        back = await self.service.can_take_back(game, interaction.user.id)  # the window is open
        if st.decider != seat:
            text = t("bot.not_your_move", lang, player=game.seats[st.decider].name)
            await self.private(interaction, text + ("\n" + t("bot.takeback_open", lang) if back else ""),
                               view=with_takeback(None, game.id, game.version, lang) if back else None)
            return
        text = t("bot.your_move_intro", lang, player=game.seats[seat].name) + "\n" + hand_text(view(st, seat), lang)
        self.poster.seen.told(game.id, interaction.user.id, game.version)
        menu = move_view(game.id, game.version, st, lang, page)
        await self.private(interaction, text, view=with_takeback(menu, game.id, game.version, lang) if back else menu)

    async def on_menu_page(self, interaction: Interaction, game_id: int, version: int, page: int) -> None:
        """A page button of the private menu: the same menu, another page of its selects (edited in place)."""
        await self.on_game(interaction, game_id, lambda game, lang: self._menu(interaction, game, page, version),
                           in_place=True)

    async def on_choice(self, interaction: Interaction, game_id: int, version: int, value: str) -> None:
        """A select option or button of a private menu (or of the trading-card target choice)."""
        game, lang = await self.component_game(interaction, game_id, in_place=True)
        if value.startswith(GROUP):
            await self.guard(interaction, lang, lambda: self._ask_target(interaction, game, version, value[1:]))
            return
        try:
            action = decode(value)
        except ValueError:
            await self.safe_private(interaction, error_text("stale_board", lang))
            return
        await self.act(interaction, game_id, action, version, lang)

    async def _ask_target(self, interaction: Interaction, game: Game | None, version: int, value: str) -> None:
        """A trading card with several possible targets: offer them (with prices) privately."""
        game = self.service.found(game)
        seat = self._seated(interaction, game, version)
        st = self.service.state(game)
        if st.decider != seat:
            raise RuleError("not_your_turn", to_move=st.seats[st.decider])
        moves = target_moves(st, value)
        if not moves:
            raise UserError("stale_board")
        await self.private(interaction, t("bot.pick_target", game.lang),
                           view=target_view(game.id, game.version, moves, st.ruleset.edition, game.lang))

    async def on_stacks_button(self, interaction: Interaction, game_id: int) -> None:
        """What the clicker cannot see, per stack (UI-05/06): counts by card type, never the order."""
        await self.on_game(interaction, game_id, lambda game, lang: self._stacks(interaction, game))

    async def _stacks(self, interaction: Interaction, game: Game) -> None:
        st = self.service.state(game)
        ed, lang = st.ruleset.edition, game.lang
        lines = [t("bot.stacks_title", lang)]
        for deck, counts in unseen(st, game.seat_of(interaction.user.id)).items():
            cards = ", ".join(f"{card_name(c, ed, lang)} ×{n}" for c, n in counts.items()) or "—"
            lines.append(f"**{t(f'deck.{deck}', lang).capitalize()} ({sum(counts.values())})**: {cards}")
        await self.private(interaction, "\n".join(lines))

    async def on_hand_button(self, interaction: Interaction, game_id: int) -> None:
        await self.on_game(interaction, game_id, lambda game, lang: self.show_hand(interaction, game))

    async def show_hand(self, interaction: Interaction, game: Game) -> None:
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("not_in_game")
        await self.dms.clear(interaction.user.id)  # the player is here: DMs may be tried again
        st = self.service.state(game)
        v = view(st, seat)
        file = None
        if self.bot.config.render_images:
            png = await images.hand_png(v, game.lang)
            if png is not None:
                file = discord.File(io.BytesIO(png), filename="hand.png")
        await self.private(interaction, hand_text(v, game.lang), file=file)

    # --- commands -------------------------------------------------------------------------------------
    async def play_text(self, interaction: Interaction, kind: str, text: str) -> None:
        """A playing command: ``text`` is an autocomplete value (with its version) or typed notation."""
        game, lang = await self.channel_game(interaction)
        if game is None:
            return
        version, text = versioned(text)
        if version is None:  # typed: against the newest board the player may have seen (cogs.seen)
            version = self.poster.seen.typed_version(game, interaction.user.id)
        if kind and not text.casefold().startswith(kind + " ") and text.casefold() != kind:
            text = f"{kind} {text}"
        await self.act(interaction, game.id, text, version, lang)

    async def complete(self, interaction: Interaction, current: str,
                       kinds: Sequence[str] | None) -> list[app_commands.Choice[str]]:
        """Autocomplete: the user's legal moves of these kinds with prices; values carry the game version.
        ``kinds=None``: the decision's choices (every legal move while a decision is pending, else the
        moves no turn command offers)."""
        try:
            game = await self.store.open_game_in_channel(self.cid(interaction))
            if game is None or game.status != ACTIVE or game.seat_of(interaction.user.id) is None:
                return []
            st = GameState.from_json(game.state or {})
            if st.decider != game.seat_of(interaction.user.id):
                return []
            ed = st.ruleset.edition
            needle = versioned(current)[1].casefold()
            out = []
            own = view(st, st.decider)  # the user's own (the decider's): names, an assignment's value now
            for m in legal_moves(st):
                if kinds is None:
                    if st.pending is None and m.action.kind in TURN_KINDS:
                        continue
                elif m.action.kind not in kinds:
                    continue
                label = describe_action(m.action, ed, game.lang, m.price, st.ruleset.catalogue, view=own)
                notation = format_action(m.action, st.ruleset.catalogue, seats=st.seats)
                if needle and needle not in label.casefold() and needle not in notation.casefold():
                    continue
                out.append(app_commands.Choice(name=label[:100], value=f"v{game.version} {notation}"[:100]))
            return out[:25]
        except Exception as e:  # autocomplete must never fail loudly
            log.exception("autocomplete failed")
            self.bot.record_bug(e)
            return []

    buy = _card_command("buy")
    take = _card_command("take")
    play = _card_command("play")

    @app_commands.command(name="observatory", description=_("cmd.observatory"))
    @app_commands.describe(stack=_("opt.stack"))
    async def observatory(self, interaction: Interaction, stack: str) -> None:
        version, text = versioned(stack)
        text = text.removeprefix("observe ")
        await self.play_text(interaction, "observe", f"v{version} {text}" if version is not None else text)

    @observatory.autocomplete("stack")
    async def stack_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, current, ("observe",))

    @app_commands.command(name="decide", description=_("cmd.decide"))
    @app_commands.describe(choice=_("opt.choice"))
    async def decide(self, interaction: Interaction, choice: str) -> None:
        """Any pending decision (X-07): the Observatory's drawn card, the Pub, the Market's "?" good and
        crates, and every decision of the expansions and modules, by its record notation."""
        await self.play_text(interaction, "", choice)

    @decide.autocomplete("choice")
    async def decide_ac(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.complete(interaction, current, None)
