"""What every seat may see: the public board message, the turn message and stored notices, built from the
spectator's view only (``rules.view(st, None)``). ``tests/bot/test_leaks.py`` proves these do not change when
any seat's secrets (money, hand) do."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.store import ACTIVE, Game, Notice
from bot.texts import BoardText, action_headline, board_text, event_lines
from rules import GameState, view
from rules.autopass import AutoPass, expired
from rules.i18n import t

from .components import board_view

MAX_BOARD_LINES = 12
RECENT_ACTIONS = 6  # actions whose events the board lists (the rest: /petersburg log)


def embed_of(bt: BoardText, colour: int = 0x2B6CB0) -> discord.Embed:
    e = discord.Embed(title=bt.title[:256], description=bt.description or None, colour=colour)
    for name, value in bt.fields[:25]:
        e.add_field(name=name, value=value or "—", inline=True)
    if bt.footer:
        e.set_footer(text=bt.footer[:2048])
    return e


def names_of(game: Game) -> list[str]:
    return [s.name for s in game.seats]


def mentions_of(game: Game) -> list[str]:
    """How the board names each seat as the one to decide: a person's mention, a computer player's name, or
    the name of a seat that waits for a new player."""
    return [f"<@{s.user_id}>" if s.user_id else s.name if s.computer else
            f"{s.name} ({t('bot.seat_empty', game.lang)})" for s in game.seats]


@dataclass(slots=True)
class PublicBoard:
    """Everything of one board message except its picture: what every seat may see."""

    embed: discord.Embed
    view: discord.ui.View
    spectator: dict[str, Any]  # the view the picture is drawn from
    last_action: str | None


def public_board(game: Game, st: GameState, recent: Sequence[tuple[Sequence[dict[str, Any]], str | None]],
                 modes: dict[int, AutoPass], away: dict[int, str] | None = None) -> PublicBoard:
    """The board message of ``game`` at ``st``: the spectator's view, the recent actions in words (money
    hidden where the ruleset hides it) and controls that are the same for every seat. ``away``: seat -> the
    day its member is back (public: marked 🏖️ in the text and in the picture's view)."""
    lang, ed = game.lang, st.ruleset.edition
    spectator = view(st, None)
    marks = {seat: day for seat, day in (away or {}).items() if seat < st.n and not st.finished}
    for seat, day in marks.items():
        spectator["players"][seat]["away"] = day
    shown = [f"{name} {t('bot.away_mark', lang, date=marks[n])}" if n in marks else name
             for n, name in enumerate(names_of(game))]
    hidden = range(st.n) if not st.ruleset.open_money and not st.finished else ()
    lines: list[str] = []
    for events, auto in recent:
        lines.extend(event_lines(events, names_of(game), ed, lang, auto=auto, hidden=hidden))
    if len(lines) > MAX_BOARD_LINES:
        lines = [t("bot.more_in_log", lang, n=len(lines) - MAX_BOARD_LINES + 1), *lines[-(MAX_BOARD_LINES - 1):]]
    bt = board_text(spectator, lang, names=shown, mentions=mentions_of(game), last=lines)
    on = [f"{game.seats[seat].name} ({t(f'bot.mode_{ap.mode}', lang)})"
          for seat, ap in sorted(modes.items()) if not st.finished and not expired(st, ap)]
    if on:
        bt.description = (bt.description + "\n" + t("bot.pass_modes_line", lang, players=", ".join(on)))[:4000]
    last = action_headline(recent[-1][0], names_of(game), ed, lang) if recent else None
    playing = game.status == ACTIVE and not st.finished
    return PublicBoard(embed_of(bt), board_view(game.id, game.version, lang, playing=playing), spectator, last)


def turn_text(game: Game, st: GameState) -> tuple[str | None, int | None]:
    """The turn message (and whom it pings): the player to decide, or the empty seat that waits; none while
    a computer player decides (it moves by itself)."""
    seat = st.decider
    uid = game.user_at(seat)
    if uid is None:
        if game.computer_at(seat) is not None:
            return None, None
        return t("bot.seat_waiting", game.lang, seat=seat + 1), None
    return t("bot.turn_ping", game.lang, mention=f"<@{uid}>"), uid


def notice_text(game: Game, notice: Notice) -> str:
    """A stored notice in the game's language; user ids become mentions."""
    params = {k: (f"<@{v}>" if k in ("player", "old", "new") and isinstance(v, int) else v)
              for k, v in notice.params.items()}
    return t(notice.key, game.lang, **params)
