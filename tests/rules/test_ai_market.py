"""The computer players' knowledge of the Market (players/market_eval.py): positions counted as
the rules count them, standings that more symbols never lower, the "?" good, crates and their cost, and
the normal player choosing by them; over positions of random Market games of 2 to 5 players."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from players.ai import choose
from players.eval import Outlook
from players.market_eval import MarketOutlook
from rules import GameState, Ruleset, apply, legal_moves, new_game
from rules.expansions.market import goods, positions, tile


def market_positions(players: int, seed: int) -> Iterator[GameState]:
    """Every position of a seeded game of random moves with the Market."""
    st = new_game(Ruleset(edition=2, players=players, expansions=("market",)), [str(i) for i in range(players)], seed)
    rng = random.Random(seed)
    while not st.finished:
        yield st
        apply(st, rng.choice(legal_moves(st)).action)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_MK_23_positions_as_the_rules_count_them(players: int) -> None:
    for k, st in enumerate(market_positions(players, 7)):
        if k % 5 == 0:
            assert MarketOutlook(st, 2.0).pos() == [positions(st, s) for s in range(st.n)]


@pytest.mark.parametrize("players", [2, 4, 5])
def test_MK_40_more_symbols_never_lower_a_standing(players: int) -> None:
    """A good's standing grows with the seat's symbols (the majority is worth having), and is 0 without."""
    for k, st in enumerate(market_positions(players, 3)):
        if k % 9:
            continue
        m = Outlook(st).market
        assert m is not None
        for seat in range(st.n):
            for g in goods():
                mine = m.pos()[seat][g]
                assert m.standing(seat, g, 0, m.high, m.low, m.soft) == 0.0
                values = [m.standing(seat, g, mine + i, m.high, m.low, m.soft) for i in range(4)]
                assert values == sorted(values), (seat, g, values)
                assert m.gain(seat, g, 1) >= 0.0


def test_MK_25_question_good_goes_where_it_counts_most() -> None:
    """The "?" good decision: each `as <good>` is valued by what one symbol of that good brings, and the
    normal player takes the good valued highest."""
    seen = 0
    for players in (2, 3, 4, 5):
        for st in market_positions(players, 11 + players):
            moves = legal_moves(st)
            if not moves or moves[0].action.kind != "as":
                continue
            out = Outlook(st)
            assert out.market is not None
            values = {m.action.card: out.score(m) for m in moves}
            for good, v in values.items():
                assert v == pytest.approx(out.market.gain(st.decider, good, 1))
            assert choose(st, level="normal", rng=1).card in {g for g, v in values.items() if v == max(values.values())}
            seen += 1
    assert seen >= 3


def test_MK_33_a_crate_is_worth_what_it_keeps_less_its_price() -> None:
    """Confirming a crate is valued by the marketplace VP its symbols keep in this scoring less the
    tile's higher value in rubles; releasing it is worth nothing."""
    seen = 0
    for players in (2, 3, 4, 5):
        for seed in range(6):
            for st in market_positions(players, seed):
                moves = legal_moves(st)
                if not moves or moves[0].action.kind not in ("confirm", "release"):
                    continue
                out = Outlook(st)
                m = out.market
                assert m is not None
                by_kind = {mv.action.kind: mv for mv in moves}
                confirm = by_kind["confirm"]
                assert confirm.price == tile(st)[0]
                assert out.score(by_kind["release"]) == 0.0
                t = st.ruleset.catalogue.by_id[confirm.action.card]
                good = t.market[0]
                mine = m.pos()[st.decider][good]
                keep = m.standing(st.decider, good, mine, m.next_high, m.next_low, 0.3)
                drop = m.standing(st.decider, good, mine - t.market_count, m.next_high, m.next_low, 0.3)
                assert keep >= drop
                assert out.score(confirm) == pytest.approx(keep - drop - confirm.price * out.money)
                seen += 1
    assert seen >= 3


def test_MK_25_positions_follow_the_good_tokens_of_known_tableaux() -> None:
    """A tableau's positions are kept by its cards, its "?" cards apart: a "?" card counts for the good its
    token names at each position, also when the same tableau was counted before with another token or none."""
    seen = 0
    for players in (2, 3, 4, 5):
        for st in market_positions(players, 40 + players):
            assert MarketOutlook(st, 2.0).pos() == [positions(st, s) for s in range(st.n)]
            markets = st.ruleset.catalogue.markets
            seen += any(markets[c] == "?" for s in range(st.n) for c in st.tableaux[s])
    assert seen > 20  # the "?" cards were in play


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_rivals_are_the_best_two_other_seats(players: int) -> None:
    """``rivals``: the highest and second highest positions in a good among the other seats (0 where fewer)."""
    for k, st in enumerate(market_positions(players, 21)):
        if k % 4:
            continue
        m = MarketOutlook(st, 2.0)
        pos = m.pos()
        for seat in range(st.n):
            for g in goods():
                others = sorted((pos[s][g] for s in range(st.n) if s != seat), reverse=True) + [0, 0]
                assert m.rivals(seat, g) == (others[0], others[1]), (seat, g, pos)
