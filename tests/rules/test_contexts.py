"""The seats' price contexts (``rules.prices.SeatContext``) a state keeps between decisions: a copied
state shares them with the original until either changes them (copy on write), and each state's
contexts stay what contexts built from scratch would be, whether they followed a card added, a card
displaced by a trading card, an Observatory turned face down or up, or cards locked and unlocked."""

from __future__ import annotations

import random

import pytest

from rules import Ruleset, apply, legal_moves, new_game
from rules.prices import SeatContext, seat_context
from rules.state import GameState

from .helpers import bq_game


def facts(ctx: SeatContext) -> tuple[object, ...]:
    return (
        ctx.tableau, ctx.face_down, ctx.locked, ctx.cost, ctx.off, ctx.targets, ctx.target_idx, ctx.trade_targets,
        ctx.hand_limit, ctx.observatory,
    )  # fmt: skip


def check_contexts(st: GameState) -> None:
    for seat in range(st.n):
        assert facts(seat_context(st, seat)) == facts(SeatContext.fresh(st, seat))


@pytest.mark.parametrize(
    "ruleset",
    [
        Ruleset(edition=1, players=3),
        Ruleset(edition=2, players=4),
        Ruleset(edition=2, players=5, expansions=("market",)),
        Ruleset(edition=2, players=4, expansions=("market",), modules=(1,)),  # a chip's card is locked (BQ-11)
        Ruleset(edition=2, players=3, expansions=("market",), modules=(3, 4, 6)),  # discounts beyond the tableau
    ],
    ids=["ed1-3", "ed2-4", "market-5", "banquet-4", "modules-3"],
)
def test_copies_share_contexts_until_they_change(ruleset: Ruleset) -> None:
    for seed in range(3):
        st = new_game(ruleset, [f"P{i}" for i in range(ruleset.players)], seed=seed)
        rng = random.Random(seed)
        while not st.finished:
            if rng.random() < 0.2:  # a copy played on a few moves: neither it nor the original sees the other's changes
                for s in range(st.n):
                    seat_context(st, s)  # every seat's context kept, so the copy shares them all
                d = st.copy()
                before = [facts(SeatContext.fresh(st, s)) for s in range(st.n)]
                for _ in range(rng.randrange(1, 12)):
                    if d.finished:
                        break
                    apply(d, rng.choice(legal_moves(d)).action)
                    check_contexts(d)
                # the original's kept contexts are untouched by the copy's changes (not rebuilt on mismatch)
                for s in range(st.n):
                    kept = st.contexts[s]
                    assert kept is None or (kept.tableau, kept.face_down) == (st.tableaux[s], st.face_down)
                assert [facts(seat_context(st, s)) for s in range(st.n)] == before
            apply(st, rng.choice(legal_moves(st)).action)
            check_contexts(st)


def test_a_kept_context_follows_a_card_locked_and_an_observatory_turned_face_down() -> None:
    """BQ-11: a card under the Money Collector's chip is no target of a trading card; BG-08: nor is a
    face-down Observatory, which is not the one to use any more. A kept context follows both in place."""
    st = bq_game(market=True, tableaux={0: ["Lumberjack", "Library", "Observatory"]})
    lumberjack, library, observatory = st.tableaux[0]
    before = seat_context(st, 0)
    assert [t.id for t in before.targets] == ["lumberjack", "library", "observatory"]
    assert before.observatory == observatory
    first = repr(facts(before))  # kept contexts change in place: their facts as they are now
    st.ext["banquet"]["chip"] = [library, 0]
    locked = seat_context(st, 0)
    assert facts(locked) == facts(SeatContext.fresh(st, 0))
    assert [t.id for t in locked.targets] == ["lumberjack", "observatory"]
    st.face_down.add(observatory)
    after = seat_context(st, 0)
    assert facts(after) == facts(SeatContext.fresh(st, 0))
    assert [t.id for t in after.targets] == ["lumberjack"] and after.observatory == -1
    st.ext["banquet"]["chip"] = None
    st.face_down.clear()
    assert repr(facts(seat_context(st, 0))) == first == repr(facts(SeatContext.fresh(st, 0)))
