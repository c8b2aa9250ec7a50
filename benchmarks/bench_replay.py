"""Replay viewers stepping through finished games while many games are being played, through the real bot
inside SimCord, board pictures on: how late is a replay step shown? Not a test; it prints figures. From the
repository root::

    .venv/bin/python benchmarks/bench_replay.py [--games 100] [--finished 6] [--viewers 10]
        [--step-think 1.0] [--seconds 90] [--think 0.5] [--seed 1]

Setup (not measured): ``--finished`` two- to four-player games played to their end through the game service
(their final scores posted, with ▶️ Replay), then ``--games`` games started as ``benchmarks/bench_load.py``
starts them.

Load (measured): the games are played as ``bench_load.py`` plays them (its ``Driver``: ``--think``, commands),
while ``--viewers`` members who played none of the finished games each open a replay from a final scores
message and step through it: after a pause (uniform between 0 and twice ``--step-think``) a click on one of
the viewer's buttons: one action forward (60 %), one back (10 %), one phase forward (15 %) or back (5 %), one
round forward (5 %) or the start (5 %); at the end of a game the viewer starts it again.

What is measured, with ``time.perf_counter`` in this process: a step shown is the time from just before the
click's INTERACTION_CREATE is emitted until SimCord's backend stores the edit of the viewer message that shows
the new step (the opening: the edit that fills the deferred private answer). Both the first sight of a step
(drawn by a render worker, or drawn ahead) and steps seen before (the cache) are counted; the share of steps
already in the cache when clicked is printed. The live games' acknowledgements and boards are measured as in
``bench_load.py``, to show the load the viewers met.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import need_simcord  # noqa: E402

need_simcord("benchmarks/bench_replay.py")

import simcord  # noqa: E402
from simcord.actors import MemberActor  # noqa: E402
from simcord.enums import ComponentType, InteractionType  # noqa: E402

from benchmarks.bench_load import (  # noqa: E402
    Driver,
    Probe,
    custom_ids,
    dispatch,
    load_average,
    machine,
    pct,
    started_table,
)
from bot.client import PetersburgBot, tune_gc  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.store import Store  # noqa: E402
from rules import GameState, legal_moves  # noqa: E402
from tests.bot.helpers import PREFERENCE, game_in, setup_members, start_game  # noqa: E402

MOVES = (("fwd", 60), ("back", 10), ("pfwd", 15), ("pback", 5), ("rfwd", 5), ("first", 5))
TIMEOUT = 60.0


class Edits:
    """When SimCord's backend stored each edit of a message that set its attachments (the viewer messages are
    private: no gateway event tells of them)."""

    def __init__(self, env: simcord.Env) -> None:
        self.backend = env.backend
        self.original: Callable[..., Any] = env.backend.edit_message
        self.last: dict[int, float] = {}
        self.changed: dict[int, asyncio.Event] = {}

    def __enter__(self) -> Edits:
        def edit(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
            result = self.original(channel_id, message_id, fields)
            if "attachments" in fields:
                self.last[message_id] = time.perf_counter()
                self.changed.setdefault(message_id, asyncio.Event()).set()
            return result

        self.backend.edit_message = edit  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        self.backend.edit_message = self.original  # type: ignore[method-assign]

    async def after(self, message_id: int, t0: float) -> float:
        """The time of the first such edit of ``message_id`` after ``t0`` (waiting for it)."""
        changed = self.changed.setdefault(message_id, asyncio.Event())
        while self.last.get(message_id, 0.0) <= t0:
            changed.clear()
            await changed.wait()
        return self.last[message_id]


async def finish_game(bot: PetersburgBot, env: simcord.Env, channel: simcord.ChannelHandle,
                      players: list[MemberActor]) -> int:
    """Play the channel's game to its end through the game service (first legal move by PREFERENCE), then let
    the poster show its end (the final scores with ▶️ Replay)."""
    assert bot.service is not None
    game = await game_in(env, channel)
    while game.status == "active":
        st = GameState.from_json(game.state or {})
        moves = legal_moves(st)
        move = min(moves, key=lambda m: PREFERENCE.index(m.action.kind) if m.action.kind in PREFERENCE else 99)
        uid = game.user_at(st.decider)
        assert uid is not None
        await bot.service.act(game.id, uid, move.action, version=game.version)
        game = await game_in(env, channel)
    cog: Any = bot.get_cog("Petersburg")
    await cog.poster.show(game.id)
    return game.id


class Viewers:
    def __init__(self, env: simcord.Env, edits: Edits, args: argparse.Namespace, finals: list[tuple[int, int]],
                 bot: PetersburgBot) -> None:
        self.env, self.edits, self.args, self.finals, self.bot = env, edits, args, finals, bot
        self.opened: list[float] = []
        self.steps: list[float] = []
        self.cached = 0
        self.failed = 0
        self.stop_at = 0.0

    def _cached(self, custom_id: str) -> bool:
        cog: Any = self.bot.get_cog("Petersburg")
        _, _, game, step, _ = custom_id.split(":")
        return any(k[:2] == (int(game), int(step)) for k in cog.replays.images._values)

    async def _click(self, member: MemberActor, channel_id: int, message: Any, custom_id: str,
                     wait_on: int | None) -> tuple[float | None, int | None]:
        """Click; the time until the viewer showed the new step, and the viewer's message id."""
        record, t0 = dispatch(self.env, member, InteractionType.MESSAGE_COMPONENT, channel_id,
                              {"custom_id": custom_id, "component_type": ComponentType.BUTTON}, message)
        if wait_on is None:  # the opening: the deferred private answer's message, once acknowledged
            for _ in range(int(TIMEOUT * 100)):
                if record.message_id is not None:
                    break
                await asyncio.sleep(0.01)
            wait_on = record.message_id
            if wait_on is None:
                return None, None
        try:
            return await asyncio.wait_for(self.edits.after(wait_on, t0), TIMEOUT) - t0, wait_on
        except TimeoutError:
            return None, wait_on

    async def view(self, member: MemberActor, rng: random.Random) -> None:
        backend = self.env.backend
        channel_id, final_id = self.finals[rng.randrange(len(self.finals))]
        final = backend.get_message(channel_id, final_id)
        opener = next(c for c in custom_ids(final.components) if c.startswith("pb:r:"))
        took, viewer_id = await self._click(member, channel_id, final, opener, None)
        if took is None or viewer_id is None:
            self.failed += 1
            return
        self.opened.append(took)
        while time.perf_counter() < self.stop_at:
            await asyncio.sleep(rng.uniform(0, 2 * self.args.step_think))
            viewer = backend.get_message(channel_id, viewer_id)
            buttons = {c["custom_id"].rsplit(":", 1)[1]: c for row in viewer.components
                       for c in row.get("components") or [] if str(c.get("custom_id", "")).startswith("pb:r:")}
            usable = [(go, w) for go, w in MOVES if go in buttons and not buttons[go].get("disabled")]
            if not usable:
                continue
            if "fwd" not in [go for go, _ in usable] and "first" in buttons:  # at the end: from the start again
                usable = [("first", 1)]
            go = rng.choices([g for g, _ in usable], [w for _, w in usable])[0]
            cid = buttons[go]["custom_id"]
            self.cached += self._cached(cid)
            took, _ = await self._click(member, channel_id, viewer, cid, viewer_id)
            if took is None:
                self.failed += 1
            else:
                self.steps.append(took)


def report(label: str, xs: list[float]) -> None:
    if not xs:
        print(f"  {label:<24} n=   0")
        return
    ms = [x * 1000 for x in xs]
    print(f"  {label:<24} n={len(ms):5d}  p50={statistics.median(ms):6.0f} ms  p95={pct(ms, 95):6.0f} ms  "
          f"p99={pct(ms, 99):6.0f} ms  max={max(ms):6.0f} ms")


async def run(args: argparse.Namespace, db: Path) -> tuple[list[float], list[float]]:
    config = Config(token="x", database_path=str(db), render_images=True, live_minutes=5, timer_poll_seconds=3600.0)
    bot = PetersburgBot(config, sync_commands=True)
    tune_gc()
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        t_setup = time.perf_counter()
        finals: list[tuple[int, int]] = []
        for i in range(args.finished):
            channel = guild.create_text_channel(f"done{i}")
            players = setup_members(env, 2 + i % 3, guild, prefix=f"d{i}p")
            await start_game(env, channel, players, edition=1 + i % 2)
            game_id = await finish_game(bot, env, channel, players)
            await env.settle(timeout=60)
            final = next(m for m in reversed(channel.history())
                         if any(c.startswith(f"pb:r:{game_id}:") for c in custom_ids(
                             env.backend.get_message(channel.id, m.id).components)))
            finals.append((channel.id, final.id))
        probe = Probe(env)
        tables = [await started_table(env, guild, probe, i) for i in range(args.games)]
        onlookers = setup_members(env, args.viewers, guild, prefix="viewer")
        await env.settle(timeout=120)
        print(f"setup: {args.finished} finished games, {args.games} games started, {args.viewers} viewers, "
              f"{time.perf_counter() - t_setup:.1f} s")
        reader = await Store.open(db)
        load_args = argparse.Namespace(actions_per_game=10_000, think=args.think, via="commands",
                                       seconds=args.seconds)
        driver = Driver(env, probe, reader, load_args)
        with Edits(env) as edits, probe.hooked():
            viewers = Viewers(env, edits, args, finals, bot)
            wall0 = time.perf_counter()
            driver.stop_at = viewers.stop_at = wall0 + args.seconds
            await asyncio.gather(*(driver.play(tb, random.Random(args.seed * 1000 + k)) for k, tb in enumerate(tables)),
                                 *(viewers.view(m, random.Random(args.seed * 7919 + k))
                                   for k, m in enumerate(onlookers)))
            wall = time.perf_counter() - wall0
            await env.settle(timeout=120)
        await reader.close()
        fig = driver.fig
        print(f"load: {wall:.1f} s wall; live games: {len(fig.ack)} actions, think {args.think} s mean")
        report("live ack (action)", fig.ack)
        report("live board visible", fig.board)
        report("replay opened", viewers.opened)
        report("replay step shown", viewers.steps)
        print(f"  replay steps found in the cache when clicked: {viewers.cached} of {len(viewers.steps)}; "
              f"clicks not shown within {TIMEOUT:.0f} s: {viewers.failed}; bot bugs recorded: {len(bot.bugs)}")
        assert bot.store is not None
        await bot.store.close()
    return viewers.steps, fig.board


async def main() -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0], formatter_class=HelpFormatter)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--finished", type=int, default=6)
    ap.add_argument("--viewers", type=int, default=10)
    ap.add_argument("--step-think", type=float, default=1.0, help="mean pause before each replay click (s)")
    ap.add_argument("--seconds", type=float, default=90.0, help="start no new action or click after this long")
    ap.add_argument("--think", type=float, default=0.5, help="mean pause before each live action (s)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(machine())
    with tempfile.TemporaryDirectory() as tmp:
        steps, _ = await run(args, Path(tmp) / "replay.sqlite3")
    met = bool(steps) and pct(steps, 95) <= 1.0
    print(f"target: a replay step shown within 1 s p95 while {args.games} games are played: "
          f"{'met' if met else 'NOT met'}")
    print(f"load average at the end {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
