"""The review's valuation (players/judge.py, players/judge_eval.py): a card in the hand counts what playing
it should bring, not the -5 of keeping it; the simulations are drawn as one seeded stream and doubled only
while a label is unsettled, up to a cap (docs/review.md, The method)."""

from __future__ import annotations

import pytest

from players import judge
from players.eval import HAND_PENALTY, Outlook
from players.judge_eval import hand_card_value, judge_worth
from rules import GameState, Ruleset, apply, legal_moves, new_game, parse_for

from .test_review import random_record


def with_best_card_in_hand(st: GameState, seat: int) -> GameState:
    """``st`` with the card of the stacks ``seat`` would gain most by playing moved to its hand."""
    out = Outlook(st)
    gain, stack, card = max(
        (hand_card_value(out, seat, st.cards[c]), k, c) for k, deck in st.decks.items() for c in deck
    )
    assert gain > 0.0
    held = st.copy()
    held.decks[stack].remove(card)
    held.hands[seat].append(card)
    return held


def test_a_card_in_hand_counts_its_expected_play_not_the_penalty() -> None:
    """Early in the game a good card taken into the hand raises the holder's chance to win as the review
    judges it (the strong player's estimate counted it at -5 until played: its takes read as mistakes)."""
    st = new_game(Ruleset(edition=2, players=3), ["a", "b", "c"], seed=1)
    held = with_best_card_in_hand(st, 0)
    assert judge.chances(held)[0] > judge.chances(st)[0] > judge.chances(held)[1]
    out = Outlook(held)
    card = held.cards[held.hands[0][-1]]
    assert judge_worth(out, 0) == pytest.approx(out.worth(0) + HAND_PENALTY + hand_card_value(out, 0, card))
    assert judge_worth(out, 1) == out.worth(1)  # no hand: the strong player's estimate


def test_a_hand_card_the_seat_cannot_pay_in_the_last_round_is_the_penalty() -> None:
    st = with_best_card_in_hand(new_game(Ruleset(edition=2, players=3), ["a", "b", "c"], seed=1), 0)
    st.ending = True
    st.rubles[0] = 0
    out = Outlook(st)
    assert hand_card_value(out, 0, st.cards[st.hands[0][-1]]) == -HAND_PENALTY


def test_the_simulations_are_one_stream() -> None:
    """The first k simulations are the same however many are drawn (sequential sampling is reproducible)."""
    record = random_record(Ruleset(edition=2, players=3, open_money=False), 3)
    st = record.start()
    for text in record.actions[:30]:
        apply(st, parse_for(st, text))
    action = parse_for(st, record.actions[30])
    short = judge.Deals(st, 4, 30).simulate(action, 0, 3)
    long = judge.Deals(st, 4, 30)
    assert long.simulate(action, 0, 2) + long.simulate(action, 2, 6) == short + long.simulate(action, 3, 6)
    assert long.simulate(action, 0, 6)[:3] == short


def test_settled_means_one_label_over_the_interval() -> None:
    assert judge.settled(0.5, 0.5, 0.0)
    assert judge.settled(0.5, 0.49, 0.002)  # about 1 point: no label at either end
    assert judge.settled(0.5, 0.30, 0.002)  # about 20 points: a blunder at either end
    assert not judge.settled(0.5, 0.45, 0.02)  # 5 points, give or take 3: none or an inaccuracy


def test_sequential_sampling_is_deterministic_and_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Doubled only while the label is unsettled, never past MAX_FACTOR times the least count, and the
    same judgement twice."""
    monkeypatch.setattr(judge, "MIN_SIMULATIONS", 4)
    monkeypatch.setattr(judge, "MAX_FACTOR", 4)
    record = random_record(Ruleset(edition=2, players=3), 8)
    st = record.start()
    counts = []
    for index, text in enumerate(record.actions[:90]):
        action = parse_for(st, text)
        if index % 6 == 0 and len(legal_moves(st)) > 1:
            found = judge.judge(st, action, iterations=8, seed=1, index=index)
            assert found.simulations in (4, 8, 16)  # from max(4, 8 / 2) to 4 * 8 / 2
            assert judge.judge(st, action, iterations=8, seed=1, index=index) == found
            counts.append(found.simulations)
        apply(st, action)
    assert min(counts) == 4 and max(counts) > 4  # most settle at once, some need more
