"""The review's valuation (players/judge.py, players/judge_eval.py): a card in the hand counts what playing
it should bring, not the -5 of keeping it; the simulations are drawn as one seeded stream and doubled only
while a label is unsettled, up to a cap (docs/review.md, The method)."""

from __future__ import annotations

import pytest

from players import judge, judge_eval
from players.eval import HAND_PENALTY, Outlook
from players.judge_eval import hand_card_value, judge_worth
from rules import GameState, Ruleset, apply, legal_moves, new_game, parse_for
from rules.actions import Action

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


def test_holding_a_card_of_little_gain_lowers_the_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card whose play would bring little is worth less in the hand than left on the board: holding it
    costs ``HAND_HOLD`` besides the share of its gain (measured in play: benchmarks/bench_hand_value.py;
    with the gain's half alone, the review preferred such takes to the normal level's passes)."""
    st = new_game(Ruleset(edition=2, players=3), ["a", "b", "c"], seed=1)
    out = Outlook(st)
    with monkeypatch.context() as m:  # the whole gain of each card's play, nothing for holding it
        m.setattr(judge_eval, "HAND_PLAY", 1.0)
        m.setattr(judge_eval, "HAND_HOLD", 0.0)
        gains = {(k, c): hand_card_value(out, 0, st.cards[c]) for k, deck in st.decks.items() for c in deck}
    small = [kc for kc, g in gains.items() if 0.0 < g < judge_eval.HAND_HOLD / judge_eval.HAND_PLAY]
    assert small
    for stack, card in small:
        held = st.copy()
        held.decks[stack].remove(card)
        held.hands[0].append(card)
        assert judge.chances(held)[0] < judge.chances(st)[0]


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
    """Doubled only while the label is unsettled: every live candidate up to MAX_FACTOR times the least
    count, then the played and the best move alone up to PAIR_FACTOR times, never past it; the same
    judgement twice."""
    monkeypatch.setattr(judge, "MIN_SIMULATIONS", 4)
    monkeypatch.setattr(judge, "MAX_FACTOR", 2)
    monkeypatch.setattr(judge, "PAIR_FACTOR", 8)
    drawn: dict[Action, int] = {}  # each move's simulations in the last judgement
    simulate = judge.Deals.simulate

    def counted(deals: judge.Deals, action: Action, start: int, stop: int) -> list[list[float]]:
        drawn[action] = max(drawn.get(action, 0), stop)
        return simulate(deals, action, start, stop)

    monkeypatch.setattr(judge.Deals, "simulate", counted)
    record = random_record(Ruleset(edition=2, players=3), 8)
    st = record.start()
    counts = []
    for index, text in enumerate(record.actions[:120]):
        action = parse_for(st, text)
        if index % 4 == 0 and len(legal_moves(st)) > 1:
            drawn.clear()
            found = judge.judge(st, action, iterations=8, seed=1, index=index)
            assert found.simulations in (4, 8, 16, 32)  # from max(4, 8 / 2) to 8 * 8 / 2
            assert max(drawn.values()) == found.simulations
            beyond = {a for a, k in drawn.items() if k > 8}  # past MAX_FACTOR * 8 / 2
            assert len(beyond) in (0, 2) and (not beyond or action in beyond)
            assert judge.judge(st, action, iterations=8, seed=1, index=index) == found
            counts.append(found.simulations)
        apply(st, action)
    assert min(counts) == 4 and max(counts) > 8  # most settle at once, some go on as a pair
