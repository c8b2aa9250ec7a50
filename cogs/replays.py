"""The replay viewer: a private message that steps through a finished game of the server, for anyone in it.

▶️ Replay sits on the final scores and on each game of ``/petersburg history``; it opens the viewer at the
start. The viewer shows, for each step, what the channel showed then: the public board message of that
moment (``cogs.public.public_board`` on the rebuilt state, the spectator's view only: no hands, no hidden
money), its picture drawn exactly as the live board's (``render_board`` with the same arguments, in a replay worker
of its own: ``bot.images.replay_png``), and the action in words;
at the end also the final breakdown. Its buttons go back and forward one action, one phase and one round,
and to the start and the end; they carry the game and the step (``components.ReplayButton``), so they work
after a restart. States and pictures are cached per step (``bot.replays``); the next step is drawn ahead
(in the replay worker: live boards never wait for it).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable

import discord

from bot import images
from bot.replays import ReplayGame, Replays
from bot.service import UserError
from bot.store import FINISHED, ActionRow, Game
from bot.texts import event_lines, final_text
from rules import GameRecord, GameState, view
from rules.i18n import t

from .base import NO_PINGS, CogBase, Interaction
from .components import RematchButton, ReplayButton
from .public import RECENT_ACTIONS, PublicBoard, embed_of, names_of, public_board
from .review_items import ReviewButton
from .review_viewer import add_review_controls, review_step_lines

log = logging.getLogger(__name__)

FINAL_COLOUR = 0xD69E2E  # the final scores' (cogs.board)


def open_view(game_id: int, lang: str) -> discord.ui.View:
    """The final scores' ▶️ Replay, 📈 Review and 🔁 Rematch."""
    view_ = discord.ui.View(timeout=None)
    view_.add_item(ReplayButton(game_id, 0, "open", t("bot.button_replay", lang), emoji="▶️"))
    view_.add_item(ReviewButton(game_id, t("bot.button_review", lang)))
    view_.add_item(RematchButton(game_id, t("bot.button_rematch", lang)))
    return view_


HISTORY_BUTTONS = 5 * 2  # games of the history with buttons: two to a row (▶️ #id beside 📈 #id), five rows


def history_view(game_ids: list[int]) -> discord.ui.View | None:
    """Per game of the history (the first ten), ▶️ #id (replay) beside 📈 #id (review), two games to a row."""
    if not game_ids:
        return None
    view_ = discord.ui.View(timeout=None)
    for n, gid in enumerate(game_ids[:HISTORY_BUTTONS]):
        replay = ReplayButton(gid, 0, "open", f"#{gid}", emoji="▶️")
        review = ReviewButton(gid, f"#{gid}")
        for button in (replay, review):
            button.row = n // 2
            view_.add_item(button)
    return view_


def steps_view(r: ReplayGame, step: int, lang: str, seat: int | None = None) -> discord.ui.View:
    """The viewer's buttons: start, one action back and on, end; one round and one phase back and on (they keep
    ``seat``, whose reviewed mistakes the viewer jumps to)."""
    view_ = discord.ui.View(timeout=None)
    targets = (
        ("first", 0, "⏮️", 0), ("back", max(step - 1, 0), "◀️", 0), ("fwd", min(step + 1, r.last), "▶️", 0),
        ("last", r.last, "⏭️", 0),
        ("rback", r.back(step, phase=False), None, 1), ("pback", r.back(step, phase=True), None, 1),
        ("pfwd", r.forward(step, phase=True), None, 1), ("rfwd", r.forward(step, phase=False), None, 1),
    )
    for go, target, emoji, row in targets:
        button = ReplayButton(r.game_id, target, go, t(f"bot.replay_{go}", lang), emoji=emoji,
                              disabled=target == step, seat=seat)
        button.item.row = row
        view_.add_item(button)
    return view_


class ReplayViewer(CogBase):
    """The replay viewer's handler (a part of ``cogs.petersburg.Petersburg``)."""

    _replays: Replays | None = None

    @property
    def replays(self) -> Replays:
        if self._replays is None:
            self._replays = Replays()
        return self._replays

    async def on_replay(self, interaction: Interaction, game_id: int, step: int, *, opening: bool,
                        seat: int | None = None) -> None:
        """A ▶️ Replay (``opening``: a new private viewer) or a step button of the viewer (it is edited);
        ``seat``: whose reviewed mistakes the viewer jumps to (None: the presser's own, else the first seat's)."""
        await self.defer(interaction, update=not opening)

        async def work() -> None:
            game = await self.store.get_game(game_id)
            if game is None or game.status != FINISHED or game.guild_id != interaction.guild_id:
                raise UserError("replay_unavailable")
            r = await self.replays.game(game.id, lambda: self._load(game))
            await self._show(interaction, game, r, min(step, r.last), seat)

        await self.guard(interaction, await self.game_lang(interaction, game_id), work)

    async def _load(self, game: Game) -> tuple[GameRecord, list[ActionRow]]:
        rows = await self.store.actions(game.id)
        return self.service.record_of(game, rows), rows

    def _board(self, game: Game, r: ReplayGame, step: int, st: GameState | None = None) -> PublicBoard:
        """The board message as the channel showed it after ``step`` actions (the live poster's own function);
        ``st``: that step's state, when rebuilt already."""
        recent = [(row.events, row.auto) for row in r.rows[max(0, step - RECENT_ACTIONS):step]]
        return public_board(game, st if st is not None else r.state(step), recent, {})

    @staticmethod
    def _draw(pb: PublicBoard, lang: str) -> Callable[[], Awaitable[bytes | None]]:
        """Drawing the board picture of ``pb``: ``render_board`` with the live board's arguments."""
        return lambda: images.replay_png("render_board", pb.spectator, lang, pb.last_action)

    async def _show(self, interaction: Interaction, game: Game, r: ReplayGame, step: int,
                    seat: int | None = None) -> None:
        lang = game.lang
        st = r.state(step)
        pb = self._board(game, r, step, st)
        if step == 0:
            lines = [t("bot.replay_at_start", lang, game=game.id, total=r.last)]
        else:
            row = r.rows[step - 1]
            hidden = range(st.n) if not st.ruleset.open_money and not st.finished else ()
            lines = [t("bot.replay_at_step", lang, game=game.id, step=step, total=r.last),
                     *event_lines(row.events, names_of(game), st.ruleset.edition, lang, auto=row.auto, hidden=hidden)]
        review = await self.store.review(game.id)
        reader = game.seat_of(interaction.user.id)
        jumps = seat if seat is not None else reader if reader is not None else 0
        if review is not None and review.finished and review.result is not None and step > 0:
            lines += review_step_lines(review.result, r, step, names_of(game), lang, reader)
        embeds = [pb.embed.copy()]
        files: list[discord.File] = []
        png = await self.replays.image((game.id, step, lang, "board"), self._draw(pb, lang)) \
            if self.bot.config.render_images else None
        if png is not None:
            files.append(discord.File(io.BytesIO(png), filename="board.png"))
            embeds[0].set_image(url="attachment://board.png")
        if step == r.last:
            v = view(st, None)
            final = embed_of(final_text(v, lang, names_of(game)), colour=FINAL_COLOUR)
            if self.bot.config.render_images:
                fpng = await self.replays.image((game.id, step, lang, "final"),
                                                lambda: images.replay_png("render_final", v, lang))
                if fpng is not None:
                    files.append(discord.File(io.BytesIO(fpng), filename="final.png"))
                    final.set_image(url="attachment://final.png")
            embeds.append(final)
            lines.append(t("bot.replay_the_end", lang))
        result = review.result if review is not None and review.finished else None
        steps = steps_view(r, step, lang, jumps if result is not None else None)
        add_review_controls(steps, r, step, lang, names_of(game), result, jumps)
        await self._send(interaction, "\n".join(lines)[:2000], embeds, files, steps)
        if step < r.last and self.bot.config.render_images:  # the likely next click
            self.replays.ahead((game.id, step + 1, lang, "board"), self._draw(self._board(game, r, step + 1), lang))

    async def _send(self, interaction: Interaction, content: str, embeds: list[discord.Embed],
                    files: list[discord.File], steps: discord.ui.View) -> None:
        """Fill the deferred answer (or edit the viewer); pictures too large for Discord: the text alone."""
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(content, embeds=embeds, files=files, view=steps,
                                                        ephemeral=True, allowed_mentions=NO_PINGS)
            else:
                await interaction.edit_original_response(content=content, embeds=embeds, attachments=files,
                                                         view=steps, allowed_mentions=NO_PINGS)
        except discord.HTTPException as e:
            if not files or (e.status != 413 and e.code != 40005):
                raise
            log.info("replay pictures too large for interaction %s; answering with text", interaction.id)
            for embed in embeds:
                embed.set_image(url=None)
            await self._send(interaction, content, embeds, [], steps)
