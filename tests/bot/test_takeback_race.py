"""A take-back racing the next seat's move, on SQLite and PostgreSQL (``db_url``), by two services on two
stores of their own (two connections, on PostgreSQL two connection pools, as two processes have): exactly one
of them happens and the other is told; the record replays to the state either way; ratings count only the
moves that stand."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from bot.ratings import seat_results
from bot.service import GameService, Outcome, UserError
from bot.store import Store
from bot.takeback import TakenBack
from rules import GameState, legal_moves, replay

NOW = 1_000_000.0


def _hold(store: Store, name: str, barrier: asyncio.Barrier, first: bool, done: asyncio.Event) -> None:
    """The store's next ``name`` write (``take_back`` or ``record_action``) waits until both racers have got
    that far (both read the same version and passed their own checks); then the ``first`` commits, and the
    other tries once the first is through (so that each of them wins in some rounds)."""
    original: Callable[..., Any] = getattr(store, name)

    async def held(*args: Any, **kwargs: Any) -> int:
        delattr(store, name)
        await barrier.wait()
        if not first:
            await done.wait()
        try:
            result: int = await original(*args, **kwargs)
        finally:
            done.set()
        return result

    setattr(store, name, held)


async def test_takeback_racing_the_next_move_one_happens(db_url: str) -> None:
    stores = [await Store.open(db_url, clock=lambda: NOW) for _ in range(2)]
    services = [GameService(s) for s in stores]
    game = await services[0].create(guild_id=1, channel_id=100, user_id=10, name="Anna", seed=7)
    await services[0].join(100, 11, "Boris")
    await services[0].start(100, 10)
    gid = game.id
    rng = random.Random(7)
    outcomes = {"takeback": 0, "move": 0}
    for _ in range(40):
        game = await services[0].game(gid)
        if game.status != "active" or sum(outcomes.values()) >= 6:
            break
        st = GameState.from_json(game.state or {})
        anna = game.user_at(st.decider)
        assert anna is not None
        out = await services[0].act(gid, anna, rng.choice(legal_moves(st)).action, version=game.version)
        boris = out.game.user_at(out.state.decider)
        version = out.game.version
        before = await services[1].game(gid)
        if out.state.finished or boris == anna or not await services[1].can_take_back(before, anna):
            continue
        assert boris is not None and before.version == version
        barrier, done = asyncio.Barrier(2), asyncio.Event()
        back_first = sum(outcomes.values()) % 2 == 0
        _hold(stores[0], "take_back", barrier, back_first, done)
        _hold(stores[1], "record_action", barrier, not back_first, done)
        results = await asyncio.gather(
            services[0].take_back(gid, anna, version),
            services[1].act(gid, boris, legal_moves(out.state)[0].action, version=version),
            return_exceptions=True)
        won = [r for r in results if isinstance(r, TakenBack | Outcome)]
        lost = [r for r in results if isinstance(r, UserError)]
        assert len(won) == 1 and len(lost) == 1, results
        after = await services[1].game(gid)
        assert isinstance(won[0], TakenBack) == back_first
        if isinstance(won[0], TakenBack):
            outcomes["takeback"] += 1
            assert lost[0].code == "stale_taken_back" and lost[0].params["player"] == "Anna" or \
                lost[0].code == "stale_board", lost[0].code
            assert after.version == version + 1 and after.state == won[0].state.to_json()
        else:
            outcomes["move"] += 1
            assert lost[0].code == "takeback_too_late"
            assert after.version == won[0].game.version
        assert replay(await services[1].record(after)).to_json() == after.state
    assert outcomes["takeback"] >= 2 and outcomes["move"] >= 2, outcomes

    game = await services[0].game(gid)  # to the end, then the ratings' view of who moved
    while game.status == "active":
        st = GameState.from_json(game.state or {})
        uid = game.user_at(st.decider)
        assert uid is not None
        await services[0].act(gid, uid, rng.choice(legal_moves(st)).action, version=game.version)
        game = await services[0].game(gid)
    rows = await stores[0].actions(gid)
    assert any(not r.stands for r in rows)
    async with stores[0].transaction() as tx:
        seats = (await seat_results(tx, [gid]))[gid]
    for seat in seats:
        standing = [r for r in rows if r.stands and r.seat == seat.seat and r.user_id == seat.user_id]
        assert seat.moves.own == len(standing)
    for s in stores:
        await s.close()


async def test_takeback_only_while_the_computer_has_not_chosen(db_url: str) -> None:
    """A computer player moves after a pause: the person before it may take back until it has chosen; whichever
    commits first wins (a computer's move chosen before the take-back is dropped, as a stale one)."""
    store = await Store.open(db_url, clock=lambda: NOW)
    svc = GameService(store)
    game = await svc.create(guild_id=1, channel_id=100, user_id=10, name="Anna", seed=3)
    await svc.add_computer(100, 10, "easy", "Bot")
    await svc.start(100, 10)
    rng = random.Random(3)
    cases: list[str] = []
    while len(cases) < 2:
        game = await svc.game(game.id)
        assert game.status == "active"
        st = GameState.from_json(game.state or {})
        seat = st.decider
        if game.computer_at(seat) is not None:
            assert await svc.computer_act(game.id, seat, game.version, legal_moves(st)[0].action) is not None
            continue
        out = await svc.act(game.id, 10, rng.choice(legal_moves(st)).action, version=game.version)
        now = await svc.game(game.id)
        bot = out.state.decider
        if now.computer_at(bot) is None or not await svc.can_take_back(now, 10):
            continue
        chosen = legal_moves(out.state)[0].action  # the computer's choice at this version
        if not cases:  # the person is first: the computer's move is dropped
            back = await svc.take_back(game.id, 10, now.version)
            assert await svc.computer_act(game.id, bot, now.version, chosen) is None
            assert (await svc.game(game.id)).state == back.state.to_json()
            cases.append("takeback")
        else:  # the computer is first: too late
            assert await svc.computer_act(game.id, bot, now.version, chosen) is not None
            try:
                await svc.take_back(game.id, 10, now.version)
            except UserError as e:
                assert e.code == "takeback_too_late"
                cases.append("computer")
            else:
                raise AssertionError("taken back after the computer chose")
    await store.close()
