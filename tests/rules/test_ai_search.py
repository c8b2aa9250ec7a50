"""The strong search's parts: the other seats modelled inside the tree at more than
two players, the early stop of a time budget once the answer is settled, configurations named in the
arena (``strong:field=value``) and tournaments played in worker processes."""

from __future__ import annotations

import gc
import math
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from players.ai import SEARCHES, decide, search_config
from players.arena import play
from players.eval import HAND_PENALTY, Outlook
from players.search import STRONG, Node, _playout, _settled, greedy_move, heuristic_move, sampled_move, search
from rules import GameState, Ruleset, apply, legal_moves, new_game

ROOT = Path(__file__).resolve().parents[2]


def position(ruleset: Ruleset, seed: int, moves: int = 12) -> GameState:
    """A position after a few random moves where the seat to move has a choice."""
    rng = random.Random(seed)
    st = new_game(ruleset, [f"p{i}" for i in range(ruleset.players)], seed=seed)
    for _ in range(moves):
        apply(st, rng.choice(legal_moves(st)).action)
    while len(legal_moves(st)) < 2:
        apply(st, legal_moves(st)[0].action)
    return st


def movers(node: Node) -> set[int]:
    found = set()
    for child in node.children.values():
        found.add(child.mover)
        found |= movers(child)
    return found


@pytest.mark.parametrize(
    "ruleset",
    [
        Ruleset(edition=2, players=2),
        Ruleset(edition=1, players=3),
        Ruleset(edition=2, players=4),
        Ruleset(edition=2, players=5, expansions=("market",)),
    ],
    ids=["2p", "3p", "4p", "5p-market"],
)
def test_strong_tree_holds_only_the_seats_own_decisions(ruleset: Ruleset) -> None:
    """The others' moves are played by the heuristic policy inside the tree, so all of the
    iterations go to the searching seat's own decisions (deeper on its own moves)."""
    st = position(ruleset, 5)
    found = search(st, st.decider, random.Random(2), STRONG, iterations=150)
    assert found.root is not None
    assert movers(found.root) == {st.decider}
    depth, node = 0, found.root
    while node.children:
        node = max(node.children.values(), key=lambda n: n.visits)
        depth += 1
    assert depth >= 3  # three of its own decisions deep after 150 iterations


@pytest.mark.parametrize("players", [2, 4])
def test_maxn_variant_keeps_every_seats_nodes(players: int) -> None:
    """The former search (``strong-maxn``): a node for every seat's move, each scored for its mover."""
    st = position(Ruleset(edition=2, players=players), 5)
    found = search(st, st.decider, random.Random(2), SEARCHES["strong-maxn"], iterations=150)
    assert found.root is not None and len(movers(found.root)) > 1


def settled_root(*visits: int) -> Node:
    root = Node(-1)
    for i, v in enumerate(visits):
        child = root.children[("buy", str(i))] = Node(0)  # type: ignore[index]
        child.visits = v
    return root


def test_settled_when_no_other_move_can_catch_up() -> None:
    assert _settled(settled_root(50, 10, 3), 39.5)
    assert not _settled(settled_root(50, 10, 3), 40)
    assert not _settled(settled_root(20, 20), 0)  # a tie is never settled


def test_a_move_no_longer_legal_never_settles_the_answer() -> None:
    """A kept tree (tree reuse, players.trees) may hold a child for a move that is not legal any more (a
    card the other seat took meanwhile): its visits must not stop the search early."""
    root = settled_root(50, 10, 3)
    legal = {("buy", "1"), ("buy", "2")}
    assert not _settled(root, 39.5, legal)  # type: ignore[arg-type]
    assert _settled(root, 6.5, legal)  # type: ignore[arg-type]
    assert _settled(settled_root(5), 4)


def test_a_time_budget_gives_a_legal_answer_and_a_fixed_budget_runs_in_full() -> None:
    st = position(Ruleset(edition=2, players=3), 8)
    assert decide(st, level="strong", rng=1, iterations=40).iterations == 40
    d = decide(st, level="strong", rng=1, budget_s=0.05)
    assert d.action in {m.action for m in legal_moves(st)} and d.iterations >= 1


def test_search_config_names_variants_for_the_arena() -> None:
    assert search_config("strong") is STRONG
    assert search_config("normal") is None
    cfg = search_config("strong:playout_depth=12,model_others=false,explore=0.5")
    assert cfg is not None and (cfg.playout_depth, cfg.model_others, cfg.explore) == (12, False, 0.5)
    for bad in ("grandmaster", "strong:nonsense=1", "strong:playout_depth=deep", "normal:explore=1"):
        with pytest.raises(ValueError):
            search_config(bad)
    st = position(Ruleset(edition=1, players=2), 3)
    assert decide(st, level="strong:playout_depth=4", rng=1, iterations=10).iterations == 10


def test_arena_in_worker_processes_plays_the_same_games() -> None:
    one = play(["strong", "normal"], players=3, games=3, seed=1, iterations=5)
    two = play(["strong", "normal"], players=3, games=3, seed=1, iterations=5, jobs=2)
    for lv in ("strong", "normal"):
        a, b = one.tallies[lv], two.tallies[lv]
        assert (a.seats, a.wins, a.vp, a.moves, a.iterations) == (b.seats, b.wins, b.vp, b.moves, b.iterations)


@pytest.mark.parametrize(
    "ruleset",
    [Ruleset(edition=2, players=5, expansions=("market",)), Ruleset(edition=1, players=2)],
    ids=["ed2-5p-market", "ed1-2p"],
)
def test_a_card_in_hand_counts_its_penalty_in_the_estimate(ruleset: Ruleset) -> None:
    """BG-14 (a card left in hand costs 5 VP at the end): the search's position estimate counts
    a card held in hand at its penalty while rounds remain, whatever it would bring if played; playing
    it is for the playouts to find. Before, a held card was credited half its income (up to the whole
    penalty) and strong hoarded cards: 2.1 left in its hand at the end of five-player Market games,
    against 0.5 for the greedy players."""
    st = position(ruleset, 7, moves=4)
    assert st.round == 1 and st.upper
    for card in list(st.upper):
        before = Outlook(st).worth(0)
        st.upper.remove(card)
        st.hands[0].append(card)
        assert Outlook(st).worth(0) == pytest.approx(before - HAND_PENALTY), st.cards[card].id
        st.hands[0].remove(card)
        st.upper.append(card)


def test_the_others_are_modelled_by_a_softmax_of_the_heuristic() -> None:
    """An option of the others' model (``others_temperature``; off, as it
    played worse): another seat's move is drawn with probability proportional to exp(value /
    temperature), the heuristic's best move most often, a poor move almost never; a tiny temperature is
    greedy."""
    st = position(Ruleset(edition=1, players=4), 11)
    moves = legal_moves(st)
    out = Outlook(st)
    scores = [out.score(m) for m in moves]
    top = max(scores)
    weights = [math.exp(s - top) for s in scores]
    expected = {m.action: w / sum(weights) for m, w in zip(moves, weights, strict=True)}
    rng = random.Random(4)
    draws = 4000
    counts = Counter(sampled_move(st, moves, rng, 1.0) for _ in range(draws))
    assert set(counts) <= set(expected)
    for action, p in expected.items():
        assert abs(counts[action] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws) + 1e-9
    best = moves[scores.index(top)].action
    assert {sampled_move(st, moves, rng, 1e-6) for _ in range(50)} == {best}


@pytest.mark.parametrize(("players", "to_the_end"), [(2, False), (3, True), (4, True), (5, False)])
def test_playouts_run_to_the_end_at_three_and_four_players(players: int, to_the_end: bool) -> None:
    """At three and four players a playout plays the game out (the estimate
    explains too little of who wins there); at two, and at five with the Market, it stops after 24 moves
    and the position estimate scores it."""
    expansions = ("market",) if players == 5 else ()
    st = position(Ruleset(edition=2, players=players, expansions=expansions), 3)
    d = st.copy()
    rewards = _playout(d, STRONG, random.Random(1))
    assert d.finished is to_the_end
    if not to_the_end:
        assert d.action_count == st.action_count + STRONG.playout_depth
    assert len(rewards) == players and all(0.0 <= r <= 1.0 for r in rewards)


def test_an_arena_of_fixed_iterations_is_not_cut_short_by_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """``iterations`` alone makes the arena reproducible on any machine: no wall-clock budget also bounds the
    search (forced here by a clock that jumps a second at every reading, as on a very slow machine)."""
    import players.search

    ticks = iter(range(10**9))
    monkeypatch.setattr(players.search.time, "perf_counter", lambda: float(next(ticks)))
    result = play(["strong", "normal"], players=3, games=1, seed=1, iterations=5)
    strong = result.tallies["strong"]
    assert strong.searched > 0 and strong.iterations == 5 * strong.searched


def test_the_greedy_move_is_the_heuristic_move_without_random_moves() -> None:
    """``greedy_move`` (the review's valuation playouts, no random draw) picks what ``heuristic_move`` picks
    at epsilon 0: the first move of the highest heuristic value."""
    for seed in range(6):
        st = position(Ruleset(edition=1 + seed % 2, players=2 + seed % 3), seed)
        rng = random.Random(seed)
        while not st.finished:
            moves = legal_moves(st)
            out = Outlook(st)
            values = [out.score(m) for m in moves]
            best = moves[values.index(max(values))].action
            assert greedy_move(st, moves) == heuristic_move(st, moves, random.Random(0), 0.0) == best
            apply(st, rng.choice(moves).action)


CYCLE_CHECK = """
import gc, random, sys
from players import judge, mcts
from players.search import STRONG, search
from rules import Ruleset, apply, legal_moves, new_game
rs = Ruleset(**eval(sys.argv[1]))
rng = random.Random(5)
st = new_game(rs, [f"p{i}" for i in range(rs.players)], seed=5)
for _ in range(12):
    apply(st, rng.choice(legal_moves(st)).action)
while len(legal_moves(st)) < 2:
    apply(st, legal_moves(st)[0].action)
gc.collect()
gc.disable()
search(st, st.decider, random.Random(1), STRONG, iterations=60)
mcts.search(st, st.decider, random.Random(2), iterations=30)
judge.judge(st, legal_moves(st)[0].action, iterations=16, seed=3, index=0)
print(gc.collect())
"""


@pytest.mark.parametrize(
    "ruleset",
    [
        "dict(edition=2, players=4)",
        "dict(edition=2, players=5, expansions=('market',))",
        "dict(edition=1, players=3, expansions=('new_society',), modules=(1,))",
        "dict(edition=2, players=3, expansions=('market',), modules=(3, 4, 5, 6))",
    ],
)
def test_searches_and_the_judge_make_no_reference_cycles(ruleset: str) -> None:
    """What pausing the cyclic garbage collector during a search relies on (``players.collector``): the
    searches and the review's judge leave nothing that only the collector could free. In a process of its
    own, so that nothing else runs meanwhile."""
    done = subprocess.run(
        [sys.executable, "-c", CYCLE_CHECK, ruleset], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0"]


class CollectorSpy(random.Random):
    """A random source that notes whether the cyclic garbage collector is on each time a search draws."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen: set[bool] = set()

    def random(self) -> float:
        self.seen.add(gc.isenabled())
        return super().random()


@pytest.mark.parametrize("on_before", [True, False])
def test_a_search_pauses_the_collector_and_leaves_it_as_it_was(on_before: bool) -> None:
    from players import mcts

    st = position(Ruleset(edition=2, players=4), 7)
    was_on = gc.isenabled()
    (gc.enable if on_before else gc.disable)()
    try:
        for run in (
            lambda rng: search(st, st.decider, rng, STRONG, iterations=20),
            lambda rng: mcts.search(st, st.decider, rng, iterations=20),
        ):
            rng = CollectorSpy(1)
            run(rng)
            assert rng.seen == {False}
            assert gc.isenabled() is on_before
    finally:
        (gc.enable if was_on else gc.disable)()
