"""Property tests over random Banquet games of every allowed combination (expansions.md X-02, X-07,
X-09, X-10): the 1st-edition Banquet with 2-4 players, Module 1 without the Market (2-4) and with it
(2-5). The general properties (tests/rules/test_properties*.py) draw these games too; here every
game is a Banquet game and the purple plays and decisions are probed harder: whatever a player could
name for them is refused exactly when ``legal_moves`` does not list it, every decision's default for
an absent player is legal, and records written with the players' names replay exactly."""

from __future__ import annotations

import random
from functools import cache

from hypothesis import given
from hypothesis import strategies as hs

from rules import HAND, LOWER, UPPER, Action, GameRecord, RuleError, check, format_action, parse_for, replay
from rules.autopass import default_action
from rules.cards import catalogue

from .random_games import SETTINGS, Game, RandomGame

SHAPES = [(1, n, False) for n in (2, 3, 4)] + [(2, n, False) for n in (2, 3, 4)] + [(2, n, True) for n in (2, 3, 4, 5)]


def banquet_games() -> hs.SearchStrategy[Game]:
    return hs.builds(
        lambda shape, seed, choice: Game(shape[0], shape[1], seed, choice, market=shape[2], modules=(1,)),
        shape=hs.sampled_from(SHAPES),
        seed=hs.integers(0, 2**32 - 1),
        choice=hs.integers(0, 2**32 - 1),
    )


@cache
def type_ids(edition: int, market: bool) -> tuple[str, ...]:
    return tuple(t.id for t in catalogue(edition, ("market", "banquet") if market else ("banquet",)).types)


def purple_candidates(game: Game, hand_types: set[str], rng: random.Random) -> list[Action]:
    """Plays of the purple cards in the hand with any target, player and choice, and Pickpocket
    actions with any card, row and amount: a sample of each."""
    ids = type_ids(game.edition, game.market)
    out: list[Action] = []
    for card in hand_types:
        for _ in range(60):
            target = rng.choice(("", *ids))
            out.append(Action("play", card, rng.choice((HAND, HAND, UPPER)), target,
                              rng.randrange(game.players + 1), rng.choice(("", "", "rubles", "vp", "fish"))))
    for _ in range(40):
        out.append(Action("pickpocket", rng.choice(("", *ids)), rng.choice((UPPER, LOWER, HAND, -1)),
                          rng.choice(("", *ids)) if rng.random() < 0.2 else "", rng.randrange(4)))
    return out


@SETTINGS
@given(banquet_games())
def test_X_10_purple_plays_and_banquet_decisions_agree_with_legal_moves(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    for moves, _ in g:
        legal = {m.action for m in moves}
        purple = {st.cards[c].id for c in st.hands[st.decider] if st.cards[c].colour == "purple"}
        if not purple and (st.pending is None or st.pending.kind not in ("pickpocket", "black_market")):
            continue
        for a in purple_candidates(game, purple, g.sampler) + list(legal):
            try:
                check(st, a)
                accepted = True
            except RuleError:
                accepted = False
            assert accepted == (a in legal), (a, st.pending)


@SETTINGS
@given(banquet_games())
def test_X_07_every_banquet_default_is_legal(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    for moves, _ in g:
        if st.pending is not None:
            assert default_action(st) in {m.action for m in moves}, st.pending


@SETTINGS
@given(banquet_games())
def test_X_09_records_with_the_players_names_replay_exactly(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    cat = game.ruleset.catalogue
    texts = []
    for _, move in g:
        text = format_action(move.action, cat, seats=st.seats)
        assert parse_for(st, text) == move.action, text
        texts.append(text)
    rec = GameRecord(game.ruleset, game.seats, seed=game.seed, actions=texts)
    assert replay(GameRecord.loads(rec.dumps())).to_json() == st.to_json()
