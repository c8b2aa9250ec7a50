"""📈 Review: a finished game reviewed by the strong player, its summary, and a member's mistakes as puzzles.

The first press of 📈 Review (on the final scores, on a game of ``/petersburg history``, in the replay viewer)
starts the review (``bot.reviews.Reviewer``, in the review worker); while it runs the presser's private answer
shows its progress ("Reviewing: 43 of 212 decisions…"), edited every few seconds, and so does any other press
meanwhile. Once done, any press by anyone in the server shows the stored review: a picture of each seat's
chance to win over the game (``render.review``), each seat's accuracy and counts, its costliest decisions in
words (``bot.review_text``: nothing hidden revealed to the reader), a ▶️ Replay that shows the review at each
step, and, for a member who played, their own mistakes to take as puzzles: the position as they saw it (the
board from their seat's view, their hand), their legal moves in the usual private menu (``cogs.menus`` with
``PuzzleItems``: nothing is committed to the game), and how their pick compares with what they played and
with the strong player's move.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot import images, reviewing
from bot.action_text import describe_action
from bot.replays import ReplayGame
from bot.review_text import chart_data, label_text, mistakes_of, pct, played_words, summary_text
from bot.reviews import Reviewer
from bot.service import UserError
from bot.store import FINISHED, Game, ReviewRow
from bot.texts import hand_text
from rules import GameRecord, GameState, legal_moves, parse_for, view
from rules.i18n import t
from rules.record import notation

from .base import Interaction
from .components import GROUP, ReplayButton, decode
from .menus import MAX_LABEL, move_view, target_moves, target_view
from .public import names_of
from .replays import ReplayViewer
from .review_items import PuzzleItems, PuzzleSelect

log = logging.getLogger(__name__)

PROGRESS_SECONDS = 3.0  # how often the presser's progress is edited
PROGRESS_FOR = 14 * 60.0  # an interaction's answer can be edited for 15 minutes: then the press ends
COLOUR = 0x2B6CB0


class ReviewCommands(ReplayViewer):
    """The reviews' handlers (a part of ``cogs.petersburg.Petersburg``)."""

    _reviewer: Reviewer | None = None

    @property
    def reviewer(self) -> Reviewer:
        if self._reviewer is None:
            self._reviewer = Reviewer(self.store, self.bot.config.review_iterations)
        return self._reviewer

    async def resume_reviews(self) -> None:
        """At startup, once the live games have caught up (the catch-up awaits them first): the reviews a restart
        interrupted go on, in the review worker, which yields the processor to live games."""
        resumed = await self.reviewer.resume(lambda gid: lambda: self._record(gid), self.bot.shard_filter())
        if resumed:
            log.info("reviews resumed: games %s", resumed)

    async def _record(self, game_id: int) -> GameRecord:
        game = await self.store.get_game(game_id)
        assert game is not None
        return await self.service.record(game)

    async def _finished_game(self, interaction: Interaction, game_id: int) -> Game:
        game = await self.store.get_game(game_id)
        if game is None or game.status != FINISHED or game.guild_id != interaction.guild_id:
            raise UserError("review_unavailable")
        return game

    async def on_review(self, interaction: Interaction, game_id: int) -> None:
        """📈 Review: start the review, show its progress until it is done, then the review."""
        await self.defer(interaction)

        async def work() -> None:
            game = await self._finished_game(interaction, game_id)
            row = await self._until_done(interaction, game)
            if row is not None:
                await self._show_review(interaction, game, row)

        await self.guard(interaction, await self.game_lang(interaction, game_id), work)

    async def _until_done(self, interaction: Interaction, game: Game) -> ReviewRow | None:
        """Start (or go on with) the game's review and show its progress; the finished review, or None when
        the press has shown progress as long as Discord lets it."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        while loop.time() - began < PROGRESS_FOR:
            row = await self.store.review(game.id)
            if row is not None and row.finished:
                return row
            if not self.reviewer.running(game.id):
                await self.reviewer.start(game.id, lambda: self._record(game.id), interaction.user.id)
                row = await self.store.review(game.id)
                if row is not None and row.finished:
                    return row
            await self.private(interaction, self._progress_text(game, row))
            await asyncio.sleep(PROGRESS_SECONDS)
        return None

    def _progress_text(self, game: Game, row: ReviewRow | None) -> str:
        here = self.reviewer.progress(game.id)
        done, total = (here.done, here.total) if here is not None else (row.done if row else 0,
                                                                         row.total if row else None)
        if total is None:
            return t("bot.review_starting", game.lang, game=game.id)
        return t("bot.review_progress", game.lang, game=game.id, done=done, total=total)

    async def _replay(self, game: Game) -> ReplayGame:
        return await self.replays.game(game.id, lambda: self._load(game))

    async def _show_review(self, interaction: Interaction, game: Game, row: ReviewRow) -> None:
        review = row.result or {}
        lang = game.lang
        r = await self._replay(game)
        names = names_of(game)
        reader = game.seat_of(interaction.user.id)
        lines = [t("bot.review_intro", lang), "", *summary_text(review, r, names, lang, reader)]
        embed = discord.Embed(title=t("bot.review_title", lang, game=game.id)[:256],
                              description="\n".join(lines)[:4000], colour=COLOUR)
        file = None
        if self.bot.config.render_images:
            png = await images.review_png(chart_data(review, r, names), lang)
            if png is not None:
                file = discord.File(io.BytesIO(png), filename="review.png")
                embed.set_image(url="attachment://review.png")
        controls = discord.ui.View(timeout=None)
        controls.add_item(ReplayButton(game.id, 0, "open", t("bot.button_replay", lang), emoji="▶️"))
        own = mistakes_of(review, reader) if reader is not None else []
        if own:
            opts = [discord.SelectOption(
                label=t("bot.puzzle_option", lang, round=d["round"], phase=t(f"phase.{d['phase']}", lang),
                        label=label_text(d["label"], lang))[:MAX_LABEL],
                value=str(d["index"]), description=played_words(d, r, names, r.state(0).ruleset.edition,
                                                                lang)[:MAX_LABEL]) for d in own[:25]]
            puzzle = PuzzleSelect(game.id, opts, t("bot.select_puzzle", lang))
            puzzle.row = 1
            controls.add_item(puzzle)
        await self.private(interaction, "", embed=embed, file=file, view=controls)

    # --- the puzzle -------------------------------------------------------------------------------
    async def _own_decision(self, interaction: Interaction, game: Game, idx: int) -> tuple[ReviewRow, dict[str, Any]]:
        row = await self.store.review(game.id)
        if row is None or not row.finished or row.result is None:
            raise UserError("review_not_done")
        found = next((d for d in row.result["decisions"] if int(d["index"]) == idx), None)
        if found is None or game.seat_of(interaction.user.id) != found["seat"]:
            raise UserError("puzzle_not_yours")
        return row, found

    async def _puzzle_position(self, interaction: Interaction, game_id: int,
                               idx: int) -> tuple[Game, ReviewRow, dict[str, Any], GameState]:
        """A puzzle's game, its review, the member's own decision at action ``idx`` and the position before it."""
        game = await self._finished_game(interaction, game_id)
        row, d = await self._own_decision(interaction, game, idx)
        return game, row, d, (await self._replay(game)).state(idx)

    async def on_puzzle(self, interaction: Interaction, game_id: int, idx: int, *, page: int = 0) -> None:
        """The position before the game's action ``idx`` as its mover saw it, and their legal moves."""
        await self.defer(interaction, update=page > 0)

        async def work() -> None:
            game, _, d, st = await self._puzzle_position(interaction, game_id, idx)
            lang = game.lang
            own = view(st, int(d["seat"]))
            text = t("bot.puzzle_intro", lang, game=game.id, round=d["round"], phase=t(f"phase.{d['phase']}", lang))
            embed = discord.Embed(description=hand_text(own, lang)[:4000], colour=COLOUR)
            file = None
            if self.bot.config.render_images:
                png = await images.replay_png("render_board", own, lang, None)
                if png is not None:
                    file = discord.File(io.BytesIO(png), filename="puzzle.png")
                    embed.set_image(url="attachment://puzzle.png")
            menu = move_view(game.id, 0, st, lang, page, items=PuzzleItems(game.id, idx))
            await self.private(interaction, text, embed=embed, file=file, view=menu)

        await self.guard(interaction, await self.game_lang(interaction, game_id), work)

    async def on_puzzle_move(self, interaction: Interaction, game_id: int, idx: int, value: str) -> None:
        """A move picked in the puzzle: its chance to win beside what was played and the preferred move."""
        await self.defer(interaction)

        async def work() -> None:
            game, row, d, st = await self._puzzle_position(interaction, game_id, idx)
            lang = game.lang
            if value.startswith(GROUP):
                moves = target_moves(st, value[1:])
                await self.private(interaction, t("bot.pick_target", lang), view=target_view(
                    game.id, 0, moves, st.ruleset.edition, lang, items=PuzzleItems(game.id, idx)))
                return
            try:
                action = decode(value)
            except ValueError:
                raise UserError("stale_board") from None
            if action not in [m.action for m in legal_moves(st)]:
                raise UserError("stale_board")
            chosen = notation(st, action)
            record = (await self._record(game.id)).to_json()
            value_now = await reviewing.REVIEW.run(
                reviewing.value, record, idx, chosen, row.iterations, row.seed, int(d.get("simulations", 0))
            )
            await self.private(interaction, self._answer(d, st, action, value_now, lang))

        await self.guard(interaction, await self.game_lang(interaction, game_id), work)

    @staticmethod
    def _answer(d: dict[str, Any], st: GameState, action: Any, value_now: float, lang: str) -> str:
        own = view(st, int(d["seat"]))

        def words(a: Any) -> str:
            return describe_action(a, st.ruleset.edition, lang, cat=st.ruleset.catalogue, view=own)

        text = t("bot.puzzle_answer", lang, chosen=words(action), value=pct(value_now),
                 played=words(parse_for(st, str(d["played"]))), after=pct(d["after"]),
                 preferred=words(parse_for(st, str(d["preferred"]))), before=pct(d["before"]))
        verdict = ("bot.puzzle_better" if pct(value_now) > pct(d["after"])
                   else "bot.puzzle_same" if pct(value_now) == pct(d["after"]) else "bot.puzzle_worse")
        return text + "\n" + t(verdict, lang)

