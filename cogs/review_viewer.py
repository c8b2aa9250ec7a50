"""The review inside the replay viewer (``cogs.replays``): at each step the label of the move played there, the
move the strong player preferred (where the reader may know it: ``bot.review_text.preferred_words``), the
mover's chance to win before and after; buttons to the previous and next mistake of a seat (the presser's own
by default, another chosen in a select); 📈 Review while the game has no review yet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.replays import ReplayGame
from bot.review_text import label_text, mistakes_of, pct, preferred_words
from rules.i18n import t

from .components import ReplayButton
from .menus import MAX_LABEL
from .review_items import ReviewButton, ReviewSeatSelect

JUMP_ROW, SEAT_ROW = 2, 3


def review_step_lines(review: dict[str, Any], r: ReplayGame, step: int, names: Sequence[str], lang: str,
                      reader: int | None) -> list[str]:
    """What the review says of the action that led to ``step``."""
    idx = step - 1
    d = next((x for x in review["decisions"] if int(x["index"]) == idx), None)
    if d is None:
        return [t("bot.review_step_forced", lang)]
    lines = [t("bot.review_step", lang, label=label_text(d["label"], lang), before=pct(d["before"]),
               after=pct(d["after"]))]
    if d["preferred"] != d["played"]:
        words = preferred_words(d, r.state(idx), lang, reader)
        if words is not None:
            lines.append(t("bot.review_step_preferred", lang, preferred=words))
    return lines


def add_review_controls(view: discord.ui.View, r: ReplayGame, step: int, lang: str, names: Sequence[str],
                        review: dict[str, Any] | None, seat: int) -> None:
    """The viewer's review buttons: 📈 Review (no review yet), or the jumps to ``seat``'s mistakes and the
    choice of the seat."""
    if review is None:
        review_button = ReviewButton(r.game_id, t("bot.button_review", lang))
        review_button.row = 1
        view.add_item(review_button)
        return
    seat = seat if 0 <= seat < len(names) else 0
    at = [int(d["index"]) + 1 for d in mistakes_of(review, seat)]
    before = max((k for k in at if k < step), default=None)
    after = min((k for k in at if k > step), default=None)
    for go, target, emoji in (("mprev", before, "⏪"), ("mnext", after, "⏩")):
        button = ReplayButton(r.game_id, step if target is None else target, go, t(f"bot.review_{go}", lang),
                              emoji=emoji, disabled=target is None, seat=seat)
        button.row = JUMP_ROW
        view.add_item(button)
    opts = [discord.SelectOption(label=t("bot.review_mistakes_of", lang, player=name)[:MAX_LABEL], value=str(s),
                                 default=s == seat) for s, name in enumerate(names)]
    choose = ReviewSeatSelect(r.game_id, step, opts, t("bot.select_review_seat", lang))
    choose.row = SEAT_ROW
    view.add_item(choose)
