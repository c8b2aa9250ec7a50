"""The seats' price contexts (``rules.prices.SeatContext``) a state keeps between decisions: a copied
state shares them with the original until either changes them (copy on write), and each state's
contexts stay what contexts built from scratch would be."""

from __future__ import annotations

import random

import pytest

from rules import Ruleset, apply, legal_moves, new_game
from rules.prices import SeatContext, seat_context
from rules.state import GameState


def facts(ctx: SeatContext) -> tuple[object, ...]:
    return (ctx.tableau, ctx.face_down, ctx.off, ctx.targets, ctx.target_idx, ctx.hand_limit, ctx.observatory)


def check_contexts(st: GameState) -> None:
    for seat in range(st.n):
        assert facts(seat_context(st, seat)) == facts(SeatContext.fresh(st, seat))


@pytest.mark.parametrize(
    "ruleset",
    [
        Ruleset(edition=1, players=3),
        Ruleset(edition=2, players=4),
        Ruleset(edition=2, players=5, expansions=("market",)),
    ],
    ids=["ed1-3", "ed2-4", "market-5"],
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
