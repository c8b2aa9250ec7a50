"""The review of finished games (players/review.py): a decision is judged on what its seat knew, every
real decision of every part of the game is judged and no forced one, the figures are reproducible and
consistent (docs/review.md). Small budgets: the figures' quality is measured by benchmarks/bench_review.py."""

from __future__ import annotations

import random

import pytest

from players import judge
from players.review import (
    LABELS,
    DecisionReview,
    GameReview,
    accuracy_of,
    chances_of,
    decisions_to_judge,
    equivalent_drop,
    label_of,
    preferred_is_public,
    review_decision,
    review_game,
    state_before,
    summarize,
    thresholds,
    value_of,
)
from players.review import review_position as review_at
from rules import DRAWN, HAND, UPPER, Action, GameRecord, Ruleset, apply, legal_moves, new_game, parse_for, view
from rules.record import notation

from .test_ai_info import disturb

ITERATIONS = 4  # the search's budget and the simulations of each valued move in these tests


@pytest.fixture(autouse=True)
def few_simulations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The logic at a tiny budget: each valued move gets ITERATIONS simulations (the review's own minimum
    is for figures worth reading, measured by benchmarks/bench_review.py)."""
    monkeypatch.setattr(judge, "MIN_SIMULATIONS", ITERATIONS)


def random_record(ruleset: Ruleset, seed: int) -> GameRecord:
    """A finished game of seeded random moves (takes favoured, so that hands hold cards)."""
    rng = random.Random(seed)
    st = new_game(ruleset, [f"p{i}" for i in range(ruleset.players)], seed=seed)
    record = GameRecord(ruleset, list(st.seats), seed)
    while not st.finished:
        moves = legal_moves(st)
        take = [m for m in moves if m.action.kind == "take"]
        action = rng.choice(take if take and rng.random() < 0.3 else moves).action
        record.actions.append(notation(st, action))
        apply(st, action)
    return record


@pytest.mark.parametrize(
    "ruleset",
    [
        Ruleset(edition=2, players=3, open_money=False),
        Ruleset(edition=2, players=4, expansions=("market",), modules=(1, 2, 4, 6), open_money=False),
    ],
    ids=["base-hidden-money", "market-modules"],
)
def test_what_the_mover_could_not_see_changes_nothing(ruleset: Ruleset) -> None:
    """Re-deal the stacks (their order after the decision too) and the other hands, change hidden money:
    the mover's view is the same and so is the review of the decision, to the last figure."""
    record = random_record(ruleset, 11)
    judged = decisions_to_judge(record)
    rng = random.Random(5)
    checked = 0
    for index in judged[40::37][:3]:
        st = state_before(record, index)
        seat = st.decider
        if not any(len(h) for s, h in enumerate(st.hands) if s != seat):
            continue
        action = parse_for(st, record.actions[index])
        expected = review_at(st, index, action, iterations=ITERATIONS, seed=3)
        changed = disturb(st, seat, rng)
        assert changed.decks != st.decks or changed.hands != st.hands
        assert view(changed, seat) == view(st, seat)
        assert review_at(changed, index, action, iterations=ITERATIONS, seed=3) == expected
        checked += 1
    assert checked >= 2


RULESETS = [
    Ruleset(edition=1, players=2),
    Ruleset(edition=2, players=5, expansions=("market",), modules=(1, 2, 3, 4, 5, 6)),
    Ruleset(edition=1, players=3, expansions=("new_society",), modules=(1,)),
]


@pytest.mark.parametrize("ruleset", RULESETS, ids=["base-2p", "market-all-modules-5p", "society-banquet"])
def test_every_real_decision_is_judged(ruleset: Ruleset) -> None:
    """Every part's decisions are judged (the Market's, the modules' and expansions' through ``decide``),
    forced ones never; the figures are chances and the labels follow the thresholds."""
    record = random_record(ruleset, 4)
    judged = decisions_to_judge(record)
    st = record.start()
    kinds = set()
    for i, text in enumerate(record.actions):
        action = parse_for(st, text)
        assert (i in judged) == (len(legal_moves(st)) > 1)
        if i in judged:
            kinds.add(action.kind)
        apply(st, action)
    if ruleset.expansions:
        assert kinds - {"buy", "take", "play", "pass", "observe", "discard", "pub"}, kinds  # a part's own decisions
    # a sample of decisions, one of each kind of move at least
    sample: dict[str, int] = {}
    st = record.start()
    for i, text in enumerate(record.actions):
        action = parse_for(st, text)
        if i in judged:
            sample.setdefault(action.kind, i)
        apply(st, action)
    for index in list(sample.values())[:6]:
        d = review_decision(record, index, iterations=ITERATIONS, seed=1)
        assert d.index == index and d.played == record.actions[index]
        assert 0.0 <= d.after <= d.before <= 1.0
        assert len(d.chances) == ruleset.players and abs(sum(d.chances) - 1.0) < 1e-9
        assert d.label == label_of(d.equivalent)
        assert d.drop <= 100 * (d.before - d.after)
        assert d.label is None or d.label in LABELS
        if d.preferred == d.played:
            assert d.before == d.after and d.preferred_public
    forced = next(i for i in range(len(record.actions)) if i not in judged)
    with pytest.raises(ValueError, match="forced"):
        review_decision(record, forced, iterations=ITERATIONS)


def test_a_review_is_reproducible_and_consistent() -> None:
    record = random_record(Ruleset(edition=2, players=2), 7)
    progress: list[tuple[int, int]] = []
    review = review_game(record, iterations=ITERATIONS, seed=2, progress=lambda d, t: progress.append((d, t)))
    judged = decisions_to_judge(record)
    assert [d.index for d in review.decisions] == judged
    assert progress[0] == (0, len(judged)) and progress[-1] == (len(judged), len(judged))
    # the same figures decision by decision (as the bot makes them), and through JSON
    for d in review.decisions[::25]:
        assert review_decision(record, d.index, iterations=ITERATIONS, seed=2) == d
        assert DecisionReview.from_json(d.to_json()) == d
        n = d.simulations
        assert value_of(record, d.index, d.played, iterations=ITERATIONS, seed=2, simulations=n) == d.after
        assert value_of(record, d.index, d.preferred, iterations=ITERATIONS, seed=2, simulations=n) == d.before
    assert GameReview.from_json(review.to_json()) == review
    assert summarize(record, review.decisions, iterations=ITERATIONS, seed=2) == review
    # the curve: the start, one entry after each action, the result at the end
    assert len(review.chances) == len(record.actions) + 1
    assert review.chances[0] == [0.5, 0.5]
    st = record.start()
    for action in record.actions:
        apply(st, parse_for(st, action))
    assert review.chances[-1] == [1.0 / len(st.winners) if s in st.winners else 0.0 for s in range(2)]
    assert review.chances == chances_of(record, review.decisions)
    for s, summary in enumerate(review.seats):
        own = [d for d in review.decisions if d.seat == s]
        assert summary.decisions == len(own)
        assert summary.blunders == sum(d.label == "blunder" for d in own)
        assert 0.0 <= summary.accuracy <= 100.0


def test_thresholds_and_accuracy() -> None:
    assert thresholds(2) == (5.0, 10.0, 15.0)  # lichess's
    for n in (3, 4, 5):
        assert thresholds(n) < thresholds(n - 1)  # the fair share shrinks: so do the drops
        for t, two in zip(thresholds(n), (5.0, 10.0, 15.0), strict=True):  # the same change of the odds
            assert equivalent_drop(1 / n, 1 / n - t / 100) == pytest.approx(two, abs=0.02)
    assert label_of(4.9) is None and label_of(5.0) == "inaccuracy" and label_of(15.0) == "blunder"
    # a seat far behind: halving its chance is a blunder, though it is 1 point
    assert label_of(equivalent_drop(0.02, 0.01)) == "blunder"
    assert equivalent_drop(0.3, 0.3) == 0.0 and equivalent_drop(0.3, 0.4) == 0.0
    # far behind, a seat is judged by the factor still: the softmax makes it the VP given up
    assert label_of(equivalent_drop(2e-5, 1e-5)) == "blunder"
    # a leader is judged by its chance, not by the odds of losing: 99 % to 98 % doubles those, yet it is no
    # mistake; above 50 % the same factor on the chance as at 50 %
    assert label_of(equivalent_drop(0.99, 0.98)) is None
    assert equivalent_drop(0.8, 0.72) == pytest.approx(equivalent_drop(0.5, 0.45)) == pytest.approx(5.0)
    assert accuracy_of(0.0) == pytest.approx(100.0, abs=1e-3)
    assert accuracy_of(10.0) == pytest.approx(103.1668 * 2.718281828 ** (-0.4354) - 3.1669)
    assert accuracy_of(100.0) == 0.0  # clipped


def test_a_preferred_move_is_named_only_where_it_reveals_nothing() -> None:
    hidden = Ruleset(edition=2, players=3, open_money=False)
    open_table = Ruleset(edition=2, players=3, open_hands=True)
    played = Action("pass")
    buy = Action("buy", "market", UPPER)
    from_hand = Action("play", "market", HAND)
    assert preferred_is_public(hidden, buy, buy)  # the move played was shown anyway
    assert preferred_is_public(hidden, Action("take", "market", UPPER), buy)
    assert not preferred_is_public(hidden, buy, played)  # it would tell what the mover could afford
    assert preferred_is_public(open_table, buy, played)
    assert not preferred_is_public(hidden, from_hand, played)  # the hand
    assert preferred_is_public(open_table, from_hand, played)
    assert not preferred_is_public(open_table, Action("crate", "fish"), played)  # a part's own decision


def test_with_open_hands_and_hidden_money_a_card_from_the_hand_with_a_price_is_not_named() -> None:
    """Open hands show the card, not what the mover could afford: playing it (or buying the Observatory's
    card) has a price, so with hidden money it is not named; taking or discarding such a card is."""
    hands_open_money_hidden = Ruleset(edition=2, players=3, open_money=False, open_hands=True)
    played = Action("pass")
    assert not preferred_is_public(hands_open_money_hidden, Action("play", "warehouse_manager", HAND), played)
    assert not preferred_is_public(hands_open_money_hidden, Action("buy", "bank", DRAWN), played)
    assert preferred_is_public(hands_open_money_hidden, Action("take", "bank", DRAWN), played)
    assert preferred_is_public(hands_open_money_hidden, Action("discard", "bank", DRAWN), played)
    everything_open = Ruleset(edition=2, players=3, open_money=True, open_hands=True)
    assert preferred_is_public(everything_open, Action("play", "warehouse_manager", HAND), played)
