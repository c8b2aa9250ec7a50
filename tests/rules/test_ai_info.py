"""A computer player sees only what its seat may see (rules.view): change everything the seat cannot
see (the order and contents of the face-down stacks, others' hidden hands, hidden money and the
counters that would reveal it) and every level, with the same seed, decides exactly as before; the
strong player's and the mcts baseline's whole visit distributions are unchanged. Base games of 2 to 4
players and games with the Market of 3 and 5 players."""

from __future__ import annotations

import random

import pytest

from players import mcts
from players.ai import SEARCHES, choose
from players.hidden import determinize
from players.search import search
from rules import GameState, Ruleset, apply, legal_moves, new_game, view


def position(ruleset: Ruleset, seed: int) -> GameState:
    """A mid-game position where the decider has a real choice and others hold hand cards."""
    rng = random.Random(seed)
    st = new_game(ruleset, [f"p{i}" for i in range(ruleset.players)], seed=seed)
    while True:
        moves = legal_moves(st)
        others_hold = sum(len(h) for s, h in enumerate(st.hands) if s != st.decider)
        if st.round >= 2 and others_hold >= 2 and len(moves) >= 4 and rng.random() < 0.3:
            return st
        take = [m for m in moves if m.action.kind == "take"]
        apply(st, rng.choice(take if take and rng.random() < 0.5 else moves).action)
        assert not st.finished, "no suitable position in this game"


def disturb(st: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position as ``seat`` sees it, with everything it cannot see changed."""
    d = st.copy()
    others = [s for s in range(d.n) if s != seat]
    hidden_hands = [] if d.ruleset.open_hands else others
    # Every unseen card (stacks and hidden hands) goes back into the pool of its kind and is dealt
    # again at random, sizes kept: stacks reshuffled, hand cards swapped with stack cards and
    # between players.
    copy_decks = d.ruleset.catalogue.copy_decks  # a copy's own stack (Module 1's Away With It!)

    def stack(c: int) -> str:
        return copy_decks[c] if copy_decks else d.cards[c].deck

    pools: dict[str, list[int]] = {}
    for cards in [*d.decks.values(), *(d.hands[s] for s in hidden_hands)]:
        for c in cards:
            pools.setdefault(stack(c), []).append(c)
    kinds = [stack(c) for s in hidden_hands for c in d.hands[s]]
    rng.shuffle(kinds)
    for pool in pools.values():
        rng.shuffle(pool)
    i = 0
    for s in hidden_hands:
        for j in range(len(d.hands[s])):
            d.hands[s][j] = pools[kinds[i]].pop()
            i += 1
    for k in d.decks:
        d.decks[k] = pools[k]
    d.seed = rng.randrange(10**9)  # the shuffle's seed would give the stacks away
    if not d.ruleset.open_money:
        for s in others:
            d.rubles[s] = rng.randrange(60)
            for key in d.stats[s]:
                if key == "spent" or key.endswith("_rubles"):  # what view hides with the money
                    d.stats[s][key] = rng.randrange(50)
            for h in d.history:
                h["rubles"][s] = rng.randrange(60)
    return d


def rid(r: Ruleset) -> str:
    parts = "".join(f"-{e}" for e in r.expansions) + "".join(f"-m{m}" for m in r.modules)
    return f"ed{r.edition}-{r.players}p-money{r.open_money:d}-hands{r.open_hands:d}{parts}"


RULESETS = [
    Ruleset(edition=2, players=3, open_money=False),
    Ruleset(edition=1, players=4, open_money=False),
    Ruleset(edition=2, players=2),
    Ruleset(edition=1, players=3, open_hands=True),
    Ruleset(edition=2, players=3, open_money=False, expansions=("market",)),
    Ruleset(edition=2, players=5, expansions=("market",)),
    # purple hand cards (Module 1), the new cards and decisions (players/parts_eval.py)
    Ruleset(edition=1, players=3, expansions=("new_society",), modules=(1,)),
    Ruleset(edition=2, players=4, expansions=("market",), modules=(1, 2, 4, 6), open_money=False),
]


@pytest.mark.parametrize("ruleset", RULESETS, ids=rid)
def test_what_a_seat_cannot_see_changes_nothing(ruleset: Ruleset) -> None:
    for k in range(2):
        st = position(ruleset, seed=40 + k)
        seat = st.decider
        rng = random.Random(k)
        changed = [disturb(st, seat, rng) for _ in range(2)]
        # the disturbance is real, and the seat's view is the same
        assert any(c.decks != st.decks or c.hands != st.hands for c in changed)
        for c in changed:
            assert view(c, seat) == view(st, seat)
        for level in ("random", "easy", "normal"):
            expected = choose(st, seat, level, rng=9)
            assert all(choose(c, seat, level, rng=9) == expected for c in changed), level
        for level in ("strong", "mcts-random"):
            result = search(st, seat, random.Random(3), SEARCHES[level], iterations=30)
            for c in changed:
                other = search(c, seat, random.Random(3), SEARCHES[level], iterations=30)
                assert (other.action, other.visits) == (result.action, result.visits), level
        result = mcts.search(st, seat, random.Random(3), iterations=30)
        for c in changed:
            other = mcts.search(c, seat, random.Random(3), iterations=30)
            assert (other.action, other.visits) == (result.action, result.visits), "mcts"


def test_determinizations_keep_what_the_seat_sees() -> None:
    """Each determinization keeps every stack's and hand's size and kind, the seat's own hand and all
    public facts, and does vary the hidden ones."""
    st = position(Ruleset(edition=2, players=4, open_money=False), seed=5)
    seat = st.decider
    rng = random.Random(1)
    deals = [determinize(st, seat, rng) for _ in range(20)]
    for d in deals:
        assert view(d, seat)["stacks"] == view(st, seat)["stacks"]
        assert d.hands[seat] == st.hands[seat]
        assert [len(h) for h in d.hands] == [len(h) for h in st.hands]
        assert d.tableaux == st.tableaux and d.upper == st.upper and d.lower == st.lower
        assert d.rubles[seat] == st.rubles[seat] and d.vp == st.vp
        for k, stack in d.decks.items():
            assert all(d.cards[c].deck == k for c in stack)
        everything = sorted(c for k in d.decks for c in d.decks[k]) + sorted(c for h in d.hands for c in h)
        original = sorted(c for k in st.decks for c in st.decks[k]) + sorted(c for h in st.hands for c in h)
        assert sorted(everything) == sorted(original)
    assert len({tuple(d.decks["trading"]) for d in deals}) > 1
