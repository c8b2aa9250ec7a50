"""Computer players: every level answers legally in random positions of every ruleset, finishes
games, is reproducible with the same seed, and the heuristic clearly beats random play."""

from __future__ import annotations

import random

import pytest

from players.ai import LEVELS, choose, decide
from players.search import STRONG, search
from rules import GameState, Ruleset, apply, check, legal_moves, new_game


def random_position(ruleset: Ruleset, seed: int) -> GameState:
    """A position reached by a seeded random number of random moves (not finished)."""
    rng = random.Random(seed)
    st = new_game(ruleset, [f"p{i}" for i in range(ruleset.players)], seed=seed)
    for _ in range(rng.randrange(260)):
        moves = legal_moves(st)
        if not moves:
            break
        apply(st, rng.choice(moves).action)
    if st.finished:  # start again and stop early
        st = new_game(ruleset, [f"p{i}" for i in range(ruleset.players)], seed=seed)
        for _ in range(rng.randrange(40)):
            apply(st, rng.choice(legal_moves(st)).action)
    return st


def rid(r: Ruleset) -> str:
    market = "-market" if r.expansions else ""
    return f"ed{r.edition}-{r.players}p-money{r.open_money:d}-hands{r.open_hands:d}{market}"


RULESETS = [
    Ruleset(edition=e, players=n, open_money=money, open_hands=hands)
    for e in (1, 2)
    for n in (2, 3, 4)
    for money, hands in ((True, False), (False, n % 2 == 0))
] + [Ruleset(edition=2, players=n, open_money=n != 3, expansions=("market",)) for n in (2, 3, 4, 5)]


@pytest.mark.parametrize("ruleset", RULESETS, ids=rid)
def test_every_level_answers_legally(ruleset: Ruleset) -> None:
    for k in range(3):
        st = random_position(ruleset, seed=100 * ruleset.players + 10 * ruleset.edition + k)
        before = st.to_json()
        legal = {m.action for m in legal_moves(st)}
        for level in LEVELS:
            action = choose(st, st.decider, level, rng=k, iterations=12)
            assert action in legal, (level, action)
            check(st, action)
        assert st.to_json() == before  # thinking changes nothing


@pytest.mark.parametrize("edition", [1, 2])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_computer_players_finish_games(edition: int, players: int) -> None:
    st = new_game(Ruleset(edition=edition, players=players), [f"cpu{i}" for i in range(players)], seed=players)
    steps = 0
    while not st.finished:
        action = choose(st)
        check(st, action)
        apply(st, action)
        steps += 1
        assert steps < 3000
    assert max(st.vp) > 30  # a sensible game, not a string of passes


def test_computer_beats_random_players() -> None:
    wins = 0
    games = 12
    for seed in range(games):
        players = 2 + seed % 3
        st = new_game(Ruleset(edition=1 + seed % 2, players=players), [f"p{i}" for i in range(players)], seed=seed)
        cpu = seed % players
        rng = random.Random(seed)
        while not st.finished:
            apply(st, choose(st) if st.decider == cpu else rng.choice(legal_moves(st)).action)
        wins += cpu in st.winners
    assert wins >= games - 1


def test_easy_is_loose_but_not_uniform() -> None:
    """Where there is a real choice, easy sometimes leaves normal's move, yet picks it far more often
    than a uniform choice would."""
    same = differ = 0
    uniform = 0.0
    for seed in range(40):
        st = random_position(Ruleset(players=3), seed)
        moves = legal_moves(st)
        if len(moves) < 5:
            continue
        best = choose(st, level="normal", rng=seed)
        for k in range(5):
            if choose(st, level="easy", rng=1000 * seed + k) == best:
                same += 1
            else:
                differ += 1
            uniform += 1 / len(moves)
    assert differ > same / 4
    assert same > 2 * uniform


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_choice(level: str) -> None:
    st = random_position(Ruleset(edition=2, players=3), 7)
    first = choose(st.to_json(), st.decider, level, rng=5, iterations=30)
    assert first == choose(st.copy(), st.decider, level, rng=5, iterations=30)


def test_search_result_is_reproducible_and_counts_iterations() -> None:
    st = random_position(Ruleset(edition=1, players=2), 3)
    while len(legal_moves(st)) < 2:
        apply(st, legal_moves(st)[0].action)
    a = search(st, st.decider, random.Random(1), STRONG, iterations=40)
    b = search(st, st.decider, random.Random(1), STRONG, iterations=40)
    assert a.iterations == 40 and a.visits == b.visits and a.action == b.action
    assert sum(a.visits.values()) == 40
    assert a.win_chance is not None and 0.0 <= a.win_chance <= 1.0


def test_decide_reports_the_search() -> None:
    st = random_position(Ruleset(edition=2, players=4), 21)
    while len(legal_moves(st)) < 2:
        apply(st, legal_moves(st)[0].action)
    d = decide(st, level="strong", rng=2, iterations=30)
    assert d.iterations == 30 and d.win_chance is not None and 0.0 <= d.win_chance <= 1.0
    assert decide(st, level="normal").win_chance is None


def test_choose_rejects_bad_requests() -> None:
    st = new_game(Ruleset(players=2), ["a", "b"], seed=1)
    with pytest.raises(ValueError):
        choose(st, level="grandmaster")
    with pytest.raises(ValueError):
        choose(st, seat=1 - st.decider)
    with pytest.raises(ValueError):
        choose(st, level="strong", iterations=0)


def test_strong_answers_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wall-clock budget bounds the search: with a clock that jumps a second at every reading (a machine of
    any speed past its budget at once), the search stops after its first iteration with a legal move."""
    import players.search

    ticks = iter(range(10**9))
    monkeypatch.setattr(players.search.time, "perf_counter", lambda: float(next(ticks)))
    st = random_position(Ruleset(players=4), 11)
    d = decide(st, level="strong", rng=1, budget_s=0.05)
    assert d.iterations == 1
    assert d.action in {m.action for m in legal_moves(st)}
