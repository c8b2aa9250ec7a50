"""What a seat cannot see, re-dealt at random: the determinizations the strong player searches.

A seat sees everything ``rules.view`` shows it: the display, all tableaux, the discard pile, each
stack's size, each hand's size, its own hand, others' hands only with open hands, others' money only
with open money. Everything else is replaced here by a draw that depends only on those facts and the
random generator: the cards no one can see (all face-down stacks, whatever their keys, plus hidden
hands) are pooled, sorted, shuffled and dealt back so that every stack and hand keeps its size and
every stack holds cards of its own kind; hidden money is replaced by an estimate from public facts;
each expansion re-deals its own hidden state (``Hooks.unseen``, e.g. others' Module-5 assignments).
tests/rules/test_ai_info.py proves it: changing what a seat may not see changes nothing it decides.
"""

from __future__ import annotations

import random

from rules.lots import shuffle
from rules.state import GameState


def hidden_hands(st: GameState, seat: int) -> list[int]:
    """The seats whose hands ``seat`` cannot see."""
    if st.ruleset.open_hands or st.finished:
        return []
    return [s for s in range(st.n) if s != seat]


def hidden_money(st: GameState, seat: int) -> list[int]:
    """The seats whose money ``seat`` cannot see."""
    if st.ruleset.open_money or st.finished:
        return []
    return [s for s in range(st.n) if s != seat]


def money_guess(st: GameState, seat: int, other: int) -> int:
    """A guess at ``other``'s hidden money from what ``seat`` knows: its own money, corrected by the
    difference in ruble income of the two tableaux (both public)."""
    cards = st.cards

    def income(s: int) -> int:
        return sum(cards[c].rubles for c in st.tableaux[s])

    return max(0, st.rubles[seat] + income(other) - income(seat))


def determinize(st: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``st`` with everything ``seat`` cannot see re-dealt from ``rng`` (see the module doc)."""
    d = st.copy()
    cards = st.cards
    hands = hidden_hands(st, seat)
    deck_keys = sorted(d.decks)
    # The unseen cards, pooled by kind: a stack's cards by the stack (its backs show it), a hand card
    # by the stack it came from. Each pool as a set is known to the seat (all cards of that kind minus
    # the visible ones), so neither where they lie nor in what order matters from here on.
    pools: dict[str, list[int]] = {}
    for k in deck_keys:
        pools.setdefault(k, []).extend(d.decks[k])
    copy_decks = st.ruleset.catalogue.copy_decks  # a copy's own stack where copies differ (Away With It!)
    for s in hands:
        for c in d.hands[s]:
            pools.setdefault(copy_decks[c] if copy_decks else cards[c].deck, []).append(c)
    for k in sorted(pools):
        pools[k].sort()
        shuffle(rng, pools[k])
    # The hidden hands hold as many cards of each kind as the pools have beyond the stacks' sizes;
    # which hand holds which kind is dealt at random.
    kinds = [k for k in sorted(pools) for _ in range(len(pools[k]) - len(d.decks.get(k, ())))]
    shuffle(rng, kinds)
    i = 0
    for s in hands:
        hand = d.hands[s]
        for j in range(len(hand)):
            hand[j] = pools[kinds[i]].pop()
            i += 1
    for k in deck_keys:
        d.decks[k] = pools.get(k, [])
    for s in hidden_money(st, seat):
        d.rubles[s] = money_guess(st, seat, s)
    for redeal in st.ruleset.hooks.unseen:  # an expansion's hidden state, e.g. others' assignments (M5-19)
        redeal(d, seat, rng)
    return d
