"""Tree reuse between moves (``players.trees``): the strong search's next decision in a game goes
on from the subtree under the move the seat played."""

from __future__ import annotations

import random

import pytest

from players.ai import decide
from players.arena import play
from players.search import Node
from players.trees import TREES, Trees
from rules import Ruleset, apply, new_game
from rules.actions import Action


def tree(*actions: str) -> tuple[Node, dict[str, Node]]:
    root = Node(-1)
    children = {}
    for a in actions:
        children[a] = root.children[Action("buy", a)] = Node(0)
    return root, children


def test_take_gives_the_subtree_under_the_move_played() -> None:
    trees = Trees(size=2)
    root, children = tree("x", "y")
    trees.keep("g", 0, 10, root, Action("buy", "y"))
    assert trees.take("g", 1, 12) is None  # another seat
    assert trees.take("h", 0, 12) is None  # another game
    assert trees.take("g", 0, 12) is children["y"]  # a later decision: the subtree of the move played
    assert trees.take("g", 0, 12) is None  # taken once


def test_nothing_is_taken_at_the_same_or_an_earlier_position() -> None:
    trees = Trees()
    root, _ = tree("x")
    for count in (10, 9):  # the move was not played (the game moved on), or an older position
        trees.keep("g", 0, 10, root, Action("buy", "x"))
        assert trees.take("g", 0, count) is None
    trees.keep("g", 0, 10, root, Action("buy", "z"))  # a move the search never tried: nothing to keep
    assert not trees.kept


def test_trees_are_bounded_and_forgotten_with_their_game() -> None:
    trees = Trees(size=2)
    for key in ("a", "b", "c"):
        root, _ = tree("x")
        trees.keep(key, 0, 1, root, Action("buy", "x"))
    assert [k for k, _ in trees.kept] == ["b", "c"]  # the least recently kept went first
    trees.forget("c")
    assert [k for k, _ in trees.kept] == ["b"]
    trees.keep("b", 0, 2, None, Action("pass"))
    assert not trees.kept  # nothing to keep: the old tree is dropped


def test_the_next_decision_goes_on_from_the_subtree_of_the_move_played() -> None:
    """The subtree kept after a decision becomes the next decision's root: it gains exactly that search's
    iterations on top of the visits it had."""
    st = new_game(Ruleset(edition=2, players=2), ["a", "b"], 7)
    rng = random.Random(3)
    carried: list[int] = []
    kept: tuple[Node, int] | None = None
    while len(carried) < 8:
        if st.decider == 1:
            apply(st, decide(st, 1, "normal", rng).action)
            continue
        d = decide(st, 0, "strong", rng, iterations=120, tree_key="t")
        if kept is not None and d.iterations:
            subtree, visits = kept
            assert subtree.visits == visits + 120
            carried.append(visits)
        found = TREES.kept.get(("t", 0))
        kept = None if found is None else (found.subtree, found.subtree.visits)
        apply(st, d.action)
    TREES.forget("t")
    assert not TREES.kept
    assert sum(carried) > 8 * 10  # most decisions start with visits of the previous search


def test_without_a_tree_key_each_decision_starts_anew() -> None:
    st = new_game(Ruleset(edition=2, players=2), ["a", "b"], 7)
    d = decide(st, st.decider, "strong", random.Random(3), iterations=30)
    assert d.iterations == 30
    assert not TREES.kept


@pytest.mark.parametrize(("players", "market"), [(2, False), (3, False), (5, True)], ids=["2p", "3p", "5p-market"])
def test_strong_with_kept_trees_plays_whole_games(players: int, market: bool) -> None:
    """Every move legal with the trees kept (``apply`` checks each), and the arena drops a game's trees."""
    result = play(["strong", "normal"], players=players, games=1, budget_s=None, iterations=12, market=market)
    assert result.tallies["strong"].seats == 1
    assert not TREES.kept
