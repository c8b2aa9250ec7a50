"""Game service: the bridge between interactions and the rules core plus the store.

It holds no rules: legality comes only from ``rules.apply``/``rules.check``. It loads the game from
the database on every call, serializes the actions of one game with a per-game asyncio lock, checks
the board version a button carries, and commits each accepted action atomically together with the
next turn's timers. Under the same lock it then passes automatically for whoever is to decide while
their pass mode applies or passing is their only legal move (``rules.autopass``), one transaction per
pass, and plays ``rules.autopass.default_action`` for a player whose time ran out.

Several processes on one database (PostgreSQL): the lock only orders this process's work; what makes an
action apply once is the store's version check (the loser of a race gets ``stale_board``, a time-out that
lost to another process's action or time-out does nothing), and on a shared database nothing read is
cached between calls (server settings, pass modes).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import PASS, Action, GameRecord, GameState, RuleError, apply, format_action, parse_action, parse_for
from rules.autopass import AutoPass, arm, default_action, due, expired, only_pass

from .lobby import LobbyService, hands_of
from .service_base import MAX_PLAYERS, MIN_PLAYERS, UserError
from .social import SocialService
from .store import ACTIVE, FINISHED, ActionRow, Game, TimerRow, VersionConflict
from .takeback import TakeBacks
from .timers import REMIND, Timing, resolve

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "GameService", "Outcome", "UserError", "hands_of"]

log = logging.getLogger(__name__)

FORCED, TIMEOUT, COMPUTER = "forced", "timeout", "computer"  # why the bot acted (``actions.auto``); pass
# modes: "mode_<mode>"
MAX_CHAIN = 200  # automatic passes after one action (a phase ends long before: a safety net)


@dataclass(slots=True)
class Outcome:
    """An accepted action: the game (at its newest version), the state now, events and whose hand changed.

    ``auto`` says why the bot took it (None: the player did); ``followups`` are the automatic passes
    that came right after it (pass modes, forced passes), each committed on its own. ``state`` is the
    game after all of them.
    """

    game: Game
    state: GameState
    before: GameState
    action: Action
    notation: str
    price: int
    seat: int
    events: list[dict[str, Any]]
    changed_hands: list[int]
    auto: str | None = None
    followups: list[Outcome] = field(default_factory=list)
    back: bool = False  # the player was away from the server's games until this action

    def chain(self) -> list[Outcome]:
        """This action and its automatic follow-ups, in order."""
        return [self, *self.followups]

    def all_changed_hands(self) -> list[int]:
        return sorted({s for o in self.chain() for s in o.changed_hands})


class GameService(TakeBacks, LobbyService, SocialService):
    """Create, join, start and play games; every method re-reads the game from the store."""

    async def _reschedule(self, game: Game) -> None:
        """Timers of the current turn after a settings change (the turn began at the last change)."""
        if game.status != ACTIVE or game.state is None:
            return
        sent = next((tm.sent for tm in await self.store.timers(game.id)
                     if tm.kind == REMIND and tm.version == game.version), 0)
        timers = self._plan(game, self.state(game), await self.timing(game), game.updated_at, sent)
        await self.store.reschedule(game.id, game.version, timers)

    async def update_settings(self, channel_id: int, user_id: int, changes: dict[str, int]) -> tuple[Game, Timing]:
        """Host: the game's own reminder/interval/time-out (minutes), whether a computer player takes over at
        the time-out (``takeover``) and whether hints are allowed (``hints``); the current turn's timers
        follow."""
        game = await self.game_in_channel(channel_id)
        async with self.lock(game.id):
            game = await self.game(game.id)
            if user_id != game.host_id:
                raise UserError("not_host")
            if changes:
                game.settings = {**game.settings, **changes}
                await self.store.set_game_settings(game.id, game.settings)
                await self._reschedule(game)
            return game, await self.timing(game)

    async def apply_settings(self, game_id: int, changes: dict[str, int]) -> Game | None:
        """Settings the bot itself gives a game in play (a tournament round past its deadline); the current turn's
        timers follow. None when the game is not in play."""
        async with self.lock(game_id):
            game = await self.store.get_game(game_id)
            if game is None or game.status != ACTIVE:
                return None
            game.settings = {**game.settings, **changes}
            await self.store.set_game_settings(game.id, game.settings)
            await self._reschedule(game)
            return game

    async def update_server_settings(self, guild_id: int, changes: dict[str, int]) -> Timing:
        """The server's defaults (for games that set nothing themselves); running games follow."""
        settings = {**(await self._server(guild_id) or {}), **changes}
        if changes:
            await self.store.set_guild_settings(guild_id, settings)
            self._server_settings[guild_id] = settings
            for game in await self.store.list_games(status=ACTIVE, guild_id=guild_id):
                async with self.lock(game.id):
                    current = await self.store.get_game(game.id)
                    if current is not None:
                        await self._reschedule(current)
        return resolve(None, settings, self.default_timing)

    async def due_timers(self, shards: tuple[Sequence[int], int] | None = None) -> list[TimerRow]:
        """Reminders and time-outs due now (of the servers of ``shards`` = (shard ids, count) when given)."""
        now = self.store.clock()
        next_due = await self.store.next_due(shards=shards)
        if next_due is None or next_due > now:
            return []
        return await self.store.due_timers(now, shards=shards)

    async def claim_reminder(self, timer: TimerRow, game: Game) -> bool:
        """Take a due reminder (atomically, so it is sent once); it repeats after the game's interval."""
        timing = await self.timing(game)
        next_due = self.store.clock() + 60 * timing.interval if timing.interval > 0 else None
        return await self.store.claim_timer(timer, next_due)

    async def timeout(self, timer: TimerRow, *,
                      after: Callable[[Outcome], Awaitable[None]] | None = None) -> Outcome | None:
        """Time is up for an absent player: play ``rules.autopass.default_action`` for them, like a player's
        action (under the game's lock, committed and logged as automatic); or, when the game's ``takeover``
        setting is on, hand the seat to a computer player (which then plays). None if nothing was played, also
        when another process played or timed out first (the version check lets one of them through)."""
        async with self.lock(timer.game_id):
            game = await self.store.get_game(timer.game_id)
            if game is None or game.status != ACTIVE or game.version != timer.version:
                await self.store.claim_timer(timer, None)
                return None
            st = self.state(game)
            if st.decider != timer.seat or game.computer_at(timer.seat) is not None:
                await self.store.claim_timer(timer, None)
                return None
            if await self.postpone_if_away(game, timer):  # no time-out plays for a member away
                return None
            if game.settings.get("takeover"):
                await self.hand_to_computer(game, timer.seat)
                return None
            timing = await self.timing(game)
            try:
                out = await self._commit(game, st, timer.seat, default_action(st), user_id=None, auto=TIMEOUT,
                                         timing=timing)
            except UserError as e:
                if e.code != "stale_board":
                    raise
                return None
            out.followups = await self._follow_up(game, st, timing)
            if after is not None:
                await after(out)
            return out

    async def computer_act(self, game_id: int, seat: int, version: int, action: Action) -> Outcome | None:
        """A computer player's move, chosen at ``version``: applied like a person's action (locked, checked by
        the rules core, committed with its automatic follow-ups, logged as the computer's). None when the game
        moved on meanwhile (a person took the seat, the game ended)."""
        async with self.lock(game_id):
            game = await self.game(game_id)
            if game.status != ACTIVE or game.version != version or game.computer_at(seat) is None:
                return None
            st = self.state(game)
            if st.decider != seat:
                return None
            timing = await self.timing(game)
            try:
                out = await self._commit(game, st, seat, action, user_id=None, auto=COMPUTER, timing=timing)
            except UserError as e:
                if e.code != "stale_board":
                    raise
                return None  # another process moved this game on first
            out.followups = await self._follow_up(game, st, timing)
            return out

    # --- pass modes -------------------------------------------------------------------------------
    async def pass_modes(self, game_id: int) -> dict[int, AutoPass]:
        """Seat -> the pass mode it set (read from the store once per game, then kept up to date)."""
        modes = None if self.store.shared else self._modes.get(game_id)
        if modes is None:
            modes = {s: AutoPass.from_json(d) for s, d in (await self.store.pass_modes(game_id)).items()}
            if not self.store.shared:
                self._modes[game_id] = modes
        return dict(modes)

    async def _save_mode(self, game_id: int, seat: int, ap: AutoPass | None) -> None:
        await self.store.set_pass_mode(game_id, seat, None if ap is None else ap.to_json())
        modes = self._modes.get(game_id)
        if modes is not None:
            if ap is None:
                modes.pop(seat, None)
            else:
                modes[seat] = ap

    async def set_pass_mode(self, game_id: int, user_id: int, mode: str | None, *,
                            after: Callable[[Outcome], Awaitable[None]] | None = None
                            ) -> tuple[AutoPass | None, Outcome | None]:
        """Set (None: cancel) the user's pass mode: ``turn`` (their next turn), ``display`` (until the display
        changes) or ``phase`` (rest of this phase). If it applies right now the pass happens at once."""
        async with self.lock(game_id):
            game = await self.game(game_id)
            seat = self.seat_in_play(game, user_id)
            if mode is None:
                await self._save_mode(game.id, seat, None)
                return None, None
            st = self.state(game)
            ap = arm(st, mode)
            now = due(st, seat, ap)
            if mode == "turn" and not now and st.pending is None and st.to_move == seat:
                raise UserError("cannot_pass_now")
            if not (mode == "turn" and now):  # a one-turn mode used at once is not kept
                await self._save_mode(game.id, seat, ap)
            if not now:
                return ap, None
            timing = await self.timing(game)
            out = await self._commit(game, st, seat, Action(PASS), user_id=user_id, auto=f"mode_{mode}",
                                     timing=timing)
            out.followups = await self._follow_up(game, st, timing)
            if after is not None:
                await after(out)
            return ap, out

    async def _follow_up(self, game: Game, st: GameState, timing: Timing) -> list[Outcome]:
        """Automatic passes after an action (caller holds the lock): for the player to decide while their
        pass mode applies (``rules.autopass.due``) or when passing is their only legal action. Each is
        committed on its own; the chain ends because every pass brings the phase's end nearer, and
        MAX_CHAIN guards it anyway. Pass modes that no longer apply are cleared. The chain stops when another
        process changed the game meanwhile (that process runs its own follow-ups)."""
        modes = await self.pass_modes(game.id)
        outs: list[Outcome] = []
        for _ in range(MAX_CHAIN):
            if st.finished:
                break
            seat = st.decider
            ap = modes.get(seat)
            reason: str | None = None
            clear: list[int] = []
            if ap is not None and not expired(st, ap) and due(st, seat, ap):
                reason = f"mode_{ap.mode}"
                if ap.mode == "turn":
                    clear.append(seat)
                    del modes[seat]
            elif ap is not None and (expired(st, ap) or (ap.mode == "turn" and st.pending is None
                                                           and st.to_move == seat)):
                await self._save_mode(game.id, seat, None)  # over, or its turn came but no pass
                del modes[seat]
            if reason is None and only_pass(st):
                reason = FORCED
            if reason is None:
                break
            try:
                outs.append(await self._commit(game, st, seat, Action(PASS), user_id=None, auto=reason,
                                               timing=timing, clear_pass=clear))
            except UserError as e:
                if e.code != "stale_board":
                    raise
                return outs
        else:
            log.warning("game %s: more than %d automatic passes in a row", game.id, MAX_CHAIN)
        for seat, ap in modes.items():
            if expired(st, ap):
                await self._save_mode(game.id, seat, None)
        return outs

    # --- records ----------------------------------------------------------------------------------
    async def record(self, game: Game) -> GameRecord:
        """The game's record (ruleset, seats, seed, every action's notation): ``rules.replay`` rebuilds it."""
        return self.record_of(game, await self.store.actions(game.id))

    def record_of(self, game: Game, rows: list[ActionRow]) -> GameRecord:
        """The record of ``game`` from its stored action rows (read already): the actions that stand."""
        st = self.state(game)
        return GameRecord(st.ruleset, list(st.seats), seed=game.seed, actions=[r.notation for r in rows if r.stands])

    # --- playing ----------------------------------------------------------------------------------
    async def act(self, game_id: int, user_id: int, action: Action | str, *, version: int | None = None,
                  after: Callable[[Outcome], Awaitable[None]] | None = None) -> Outcome:
        """Apply one action of ``user_id`` (an Action or its notation) and commit it.

        ``version``: the game version the action was chosen against (a button's, an autocomplete value's);
        None: the version of the board the channel shows. An action against an older version is refused: as
        ``already_done`` when this very action was applied at that version (a repeated command or a click
        racing a command), else as ``stale_board``.
        ``after`` runs under the game's lock once the action is committed (to update Discord in order).
        Raises UserError or rules.RuleError; then nothing has changed.
        """
        async with self.lock(game_id):
            game = await self.game(game_id)
            if game.status != ACTIVE:
                await self._repeated_last(game, user_id, action, version)
                raise UserError("not_active")
            seat = game.seat_of(user_id)
            if seat is None:
                raise UserError("not_in_game")
            st = self.state(game)
            if isinstance(action, str):
                action = await self._read(game, st, user_id, action, version)
            await self._check_version(game, st, user_id, action, version)
            timing = await self.timing(game)
            out = await self._commit(game, st, seat, action, user_id=user_id, auto=None, timing=timing)
            out.back = await self.store.back_if_away(game.guild_id, user_id)  # acting ends their time away
            out.followups = await self._follow_up(game, st, timing)
            if after is not None:
                await after(out)
            return out

    async def _read(self, game: Game, st: GameState, user_id: int, text: str, version: int | None) -> Action:
        """``text`` as an action of the player to decide. Text that only reads as the answer to a draw (the
        Observatory's ``discard …``) once the draw was decided is checked against its version first: a repeated
        decision is ``already_done``, an older one ``stale_board``, not unreadable."""
        try:
            return parse_for(st, text)
        except RuleError:
            rs = st.ruleset
            if st.pending is None or not rs.hooks.decisions[st.pending.kind].drawn:  # no draw waits now
                try:
                    drawn = parse_action(text, rs.catalogue, drawn=True, decks=rs.decks)
                except RuleError:
                    drawn = None
                if drawn is not None:
                    await self._check_version(game, st, user_id, drawn, version)
            raise

    async def _repeated_last(self, game: Game, user_id: int, action: Action | str, version: int | None) -> None:
        """A game no longer in play: ``already_done`` when this very action of ``user_id`` was its last one (a
        repeated command or a click racing it); the status is checked only after this."""
        if version is None or version >= game.version or game.state is None:
            return
        done = await self.store.action_at(game.id, version)
        if done is None or done.user_id != user_id:
            return
        st = self.state(game)
        rs = st.ruleset
        if isinstance(action, str):
            readings = []
            for drawn in (False, True):  # typed: as a turn's move or as the answer to a draw
                with contextlib.suppress(RuleError):
                    readings.append(parse_action(action, rs.catalogue, drawn=drawn, decks=rs.decks, seats=st.seats))
        else:
            readings = [action]
        if any(done.notation == format_action(a, rs.catalogue, seats=st.seats) for a in readings):
            raise UserError("already_done")

    async def _check_version(self, game: Game, st: GameState, user_id: int, action: Action,
                             version: int | None) -> None:
        """Refuse an action chosen against an older version than the game's (see ``act``)."""
        if version is None:
            # typed without a version: against the board the channel shows (while a board is failing to
            # post, the player cannot see any newer one, so the game's own version stands in)
            version = game.version if game.board_problem or game.shown_version < 0 else game.shown_version
        if version == game.version:
            return
        done = await self.store.action_at(game.id, version) if version < game.version else None
        if done is not None and done.user_id == user_id and done.notation == format_action(
                action, st.ruleset.catalogue, seats=st.seats):
            raise UserError("already_done")
        raise await self.stale(game, version)

    async def _commit(self, game: Game, st: GameState, seat: int, action: Action, *, user_id: int | None,
                      auto: str | None, timing: Timing, clear_pass: Sequence[int] = ()) -> Outcome:
        """Apply one action to ``st`` (in place) and store it in one transaction with the next turn's timers
        (caller holds the lock). RuleError: nothing changed; a lost version race becomes ``stale_board``."""
        before = st.copy()
        events = apply(st, action, seat)  # raises RuleError: nothing changed
        if auto is not None and auto != COMPUTER and events:
            events[0]["auto"] = True  # rules.describe words an automatic pass as such
        price = _paid(before, st, seat)
        notation = format_action(action, st.ruleset.catalogue, seats=st.seats)
        old_hands, new_hands = hands_of(before), hands_of(st)
        changed = [s for s in range(st.n) if old_hands[s] != new_hands[s]]
        status = FINISHED if st.finished else ACTIVE
        try:
            await self.store.record_action(
                game.id, game.version, seat=seat, user_id=user_id, notation=notation, events=events,
                state=st.to_json(), hands={s: new_hands[s] for s in changed}, status=status, auto=auto,
                timers=self._plan(game, st, timing, self.store.clock()), clear_pass=clear_pass)
        except VersionConflict:
            for f in dataclasses.fields(st):  # nothing changed: ``st`` as it was (callers hold on to it)
                setattr(st, f.name, getattr(before, f.name))
            raise UserError("stale_board") from None
        modes = self._modes.get(game.id)
        if modes is not None:
            for s in clear_pass:
                modes.pop(s, None)
            if status == FINISHED:  # the store dropped them all
                modes.clear()
        game.version += 1
        game.status = status
        game.state = None  # the caller uses ``state``; avoid serializing twice
        return Outcome(game, st, before, action, notation, price, seat, events, changed, auto)


def _paid(before: GameState, after: GameState, seat: int) -> int:
    """Rubles the acting seat paid for its action (0 when scoring income follows in the same step)."""
    spent = after.stats[seat].get("spent", 0) - before.stats[seat].get("spent", 0)
    return max(spent, 0)
