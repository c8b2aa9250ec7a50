"""The reviews' store on SQLite and PostgreSQL (``db_url``): one claim per game across processes (two stores on
one database), a lapsed claim taken over, each judged decision stored once, the finished review kept and never
claimed again, and a review gone with its game's reviews."""

from __future__ import annotations

from bot.service import GameService
from bot.store import Store


async def _game(store: Store, channel: int = 1) -> int:
    svc = GameService(store)
    game = await svc.create(guild_id=7, channel_id=channel, user_id=10, name="Ann", seed=channel)
    await svc.join(channel, 11, "Bob")
    await svc.start(channel, 10)
    return game.id


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_one_claim_per_game_across_processes(db_url: str) -> None:
    clock = Clock()
    one = await Store.open(db_url, clock=clock)
    two = await Store.open(db_url, clock=clock)
    try:
        gid = await _game(one)
        assert await one.review(gid) is None
        assert await one.claim_review(gid, "a", 60, requested_by=10, iterations=8, seed=3)
        assert not await two.claim_review(gid, "b", 60, requested_by=11, iterations=99, seed=9)
        assert await one.claim_review(gid, "a", 60, requested_by=10, iterations=8, seed=3)  # renewed by its owner
        assert await one.set_review_total(gid, "a", 5)
        assert await one.add_review_part(gid, "a", 2, {"index": 2, "label": None}, 60)
        assert not await two.add_review_part(gid, "b", 4, {"index": 4}, 60)  # not its claim: nothing stored
        row = await two.review(gid)
        assert row is not None and row.state == "running" and row.owner == "a" and row.requested_by == 10
        assert (row.total, row.done, row.iterations, row.seed) == (5, 1, 8, 3)
        assert await two.running_reviews() == [gid]

        clock.now += 61  # a's process died: its claim lapses and b takes the review over where it was
        assert await two.claim_review(gid, "b", 60, requested_by=11, iterations=99, seed=9)
        assert not await one.add_review_part(gid, "a", 3, {"index": 3}, 60)
        assert await two.add_review_part(gid, "b", 2, {"index": 2, "label": "twice"}, 60)  # kept once
        assert await two.add_review_part(gid, "b", 4, {"index": 4}, 60)
        assert await one.review_parts(gid) == {2: {"index": 2, "label": None}, 4: {"index": 4}}
        row = await one.review(gid)
        assert row is not None and (row.owner, row.iterations, row.seed, row.done) == ("b", 8, 3, 2)

        assert not await one.finish_review(gid, "a", {"decisions": []})
        assert await two.finish_review(gid, "b", {"decisions": [], "seed": 3})
        done = await one.review(gid)
        assert done is not None and done.finished and done.owner is None and done.result == {"decisions": [],
                                                                                             "seed": 3}
        assert await one.running_reviews() == []
        clock.now += 1000
        assert not await one.claim_review(gid, "c", 60, requested_by=10, iterations=8, seed=3, take_over=True)
        assert (await one.review(gid)) == done
    finally:
        await one.close()
        await two.close()


async def test_a_restart_takes_over_and_a_release_frees_at_once(db_url: str) -> None:
    store = await Store.open(db_url)
    try:
        gid, other = await _game(store, 1), await _game(store, 2)
        assert await store.claim_review(gid, "old", 600, requested_by=None, iterations=4, seed=0)
        assert not await store.claim_review(gid, "new", 600, requested_by=None, iterations=4, seed=0)
        assert await store.claim_review(gid, "new", 600, requested_by=None, iterations=4, seed=0, take_over=True)
        assert await store.claim_review(other, "old", 600, requested_by=None, iterations=4, seed=0)
        await store.release_review(other, "old")
        assert await store.claim_review(other, "new", 600, requested_by=None, iterations=4, seed=0)
        assert await store.review_owner(other) == "new"
        await store.fetch_all("SELECT 1")
        async with store.transaction() as tx:
            await tx.execute("DELETE FROM games WHERE id = ?", (gid,))
        assert await store.review(gid) is None and await store.review_parts(gid) == {}
    finally:
        await store.close()
