"""Take-backs (Board Game Arena's policy): a member takes back their own last action while nobody else has
chosen anything since and nothing hidden came to light by it or after it.

Which action: the newest row of the game's log that the member chose themselves (a move, or a pass of a pass
mode they set that very moment), with only automatic passes after it (pass modes, forced passes: they are
taken back with it). Another seat's choice (a person's, a computer's, a time-out's) after it, also one taken
back meanwhile, keeps it standing, and so does the end of the game. Whether anything hidden came to light is
the rules core's question (``rules.takeback``): the state before the action is rebuilt from the ruleset, the
seed and the actions that stand, so the game goes on exactly as if it had never been chosen.

The take-back is a commit of its own under the game's lock, guarded by the version like an action: it moves
the version on (every menu opened meanwhile is stale), and of a take-back racing the next seat's move exactly
one commits, also across processes on one database; the other is told privately. The taken-back rows stay in
the log, marked, and the take-back has a row of its own (``bot.store.TAKEBACK``); the game's record, its
ratings and statistics see only the actions that stand.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules import GameRecord, GameState, ReplayError, rebuilt, revealed
from rules.autopass import arm

from .lobby import hands_of
from .schema import dumps
from .service_base import ServiceBase, UserError
from .store import ACTIVE, FINISHED, TAKEBACK, ActionRow, Game, VersionConflict

log = logging.getLogger(__name__)

SETTING = "takeback"  # the game's and the server's setting (1 on, 0 off; on when neither sets it)
RECENT = 30  # rows looked at first for an action to take back (all of them only when one is found)
FOLLOW_UPS = ("forced",)  # automatic actions taken back with the action before them, besides pass modes


@dataclass(slots=True)
class TakenBack:
    """A committed take-back: the game at its new version, the state now (as before the action), the seat, the
    take-back's event (for the log and the board), the seats whose hand changed, the rows taken back."""

    game: Game
    state: GameState
    seat: int
    event: dict[str, Any]
    changed_hands: list[int]
    undone: list[ActionRow]


def follow_up(row: ActionRow) -> bool:
    """An automatic action the bot took right after another (a pass mode's or a forced pass)."""
    return row.user_id is None and row.auto is not None and (row.auto in FOLLOW_UPS or row.auto.startswith("mode_"))


def candidate(rows: Sequence[ActionRow], seat: int, user_id: int) -> ActionRow:
    """The action ``user_id`` (in ``seat``) may take back, by the log alone (UserError with the reason if none):
    their newest own choice with only automatic passes, their own take-backs and what they took back after it."""
    for row in reversed(rows):
        if not row.stands:
            if row.seat == seat or follow_up(row):
                continue
            raise UserError("takeback_others")  # another seat chose since, even if it took that back
        if follow_up(row):
            continue
        if row.seat == seat and row.user_id == user_id:
            return row
        raise UserError("takeback_others" if row.seat != seat else "takeback_nothing")
    raise UserError("takeback_nothing")


def chain_reveals(chain: Sequence[tuple[GameState, GameState, list[dict[str, Any]]]]) -> bool:
    """Whether any of (before, after, events) of an action and its automatic follow-ups brought something
    hidden to light: the cheap check behind offering ↩️ on a confirmation."""
    return any(revealed(before, after, events) for before, after, events in chain)


class TakeBacks(ServiceBase):
    """The game service's take-backs (``bot.service.GameService`` inherits them)."""

    async def takeback_allowed(self, game: Game) -> bool:
        """The game's own setting, else the server's default, else on."""
        for layer in (game.settings, await self._server(game.guild_id) or {}):
            if isinstance(layer.get(SETTING), int):
                return bool(layer[SETTING])
        return True

    async def stale(self, game: Game, version: int) -> UserError:
        """Why a menu of ``version`` is out of date: a take-back since (named), else the board moved on."""
        seat = await self.store.takeback_since(game.id, version) if version < game.version else None
        if seat is not None:
            return UserError("stale_taken_back", player=game.seats[seat].name)
        return UserError("stale_board")

    async def server_takeback(self, guild_id: int | None) -> bool:
        """The server's default: whether its games allow take-backs unless they set it themselves."""
        return bool((await self._server(guild_id) or {}).get(SETTING, 1))

    async def _undoable(self, game: Game, user_id: int) -> tuple[int, ActionRow, list[ActionRow], GameState]:
        """What ``user_id`` may take back now: seat, the first row, the rows taken back with it and the state
        before it; UserError with the reason otherwise (caller holds the lock or only looks)."""
        if game.status == FINISHED:
            raise UserError("takeback_game_over")
        seat = self.seat_in_play(game, user_id)
        if not await self.takeback_allowed(game):
            raise UserError("takeback_off")
        rows = await self.store.recent_actions(game.id, RECENT)  # most menus end here: another seat acted last
        try:
            first = candidate(rows, seat, user_id)
        except UserError as e:
            if e.code != "takeback_nothing" or not rows or rows[0].idx == 0:
                raise
            rows = []
        if not rows or rows[0].idx > 0:
            rows = await self.store.actions(game.id)
            first = candidate(rows, seat, user_id)
        standing = [r for r in rows if r.stands]
        k = next(i for i, r in enumerate(standing) if r.idx == first.idx)
        st = self.state(game)
        record = GameRecord(st.ruleset, list(st.seats), seed=game.seed, actions=[r.notation for r in standing])
        try:
            before, came, now = await asyncio.to_thread(rebuilt, record, k)  # a whole replay: off the event loop
        except ReplayError as e:
            now, came = None, False
            log.warning("game %s: its standing actions do not replay (%s)", game.id, e)
        if came:
            raise UserError("takeback_revealed")
        if now is None or json.loads(dumps(now.to_json())) != game.state:  # the log does not lead to the game as stored
            log.warning("game %s: its standing actions do not replay to its state; no take-back", game.id)
            raise UserError("takeback_nothing")
        return seat, first, standing[k:], before

    async def can_take_back(self, game: Game, user_id: int) -> bool:
        """Whether ``user_id`` may take back an action in ``game`` as it is now (for offering ↩️)."""
        try:
            await self._undoable(game, user_id)
        except UserError:
            return False
        return True

    async def take_back(self, game_id: int, user_id: int, version: int | None, *,
                        after: Callable[[TakenBack], Awaitable[None]] | None = None) -> TakenBack:
        """Take back ``user_id``'s last action (with its automatic follow-ups). ``version``: the game version
        the ↩️ button was offered at (None: the game as it is); the game moved on since: ``takeback_too_late``.
        ``after`` runs under the game's lock once it is committed. Raises UserError; then nothing changed."""
        async with self.lock(game_id):
            game = await self.game(game_id)
            if version is not None and game.version != version and game.status == ACTIVE:
                raise UserError("takeback_too_late")
            seat, first, undone, before = await self._undoable(game, user_id)
            now = self.state(game)
            old_hands, new_hands = hands_of(now), hands_of(before)
            changed = [s for s in range(now.n) if old_hands[s] != new_hands[s]]
            # a "pass my next turn" that passed for another seat right after it is that seat's again
            modes = {r.seat: arm(before, "turn").to_json() for r in undone if r.auto == "mode_turn" and follow_up(r)}
            event = {"type": TAKEBACK, "seat": seat, "from": first.idx, "undone": (first.events or [{}])[0]}
            timers = self._plan(game, before, await self.timing(game), self.store.clock())
            try:
                game.version = await self.store.take_back(
                    game.id, game.version, seat=seat, user_id=user_id, first=first.idx, event=event,
                    state=before.to_json(), hands={s: new_hands[s] for s in changed}, timers=timers, pass_modes=modes)
            except VersionConflict:
                raise UserError("takeback_too_late") from None
            self._modes.pop(game.id, None)  # read again: modes given back
            game.state = None
            out = TakenBack(game, before, seat, event, changed, undone)
            if after is not None:
                await after(out)
            return out
