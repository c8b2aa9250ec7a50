"""The card data as the rules core holds it."""

from __future__ import annotations

import sys

from rules.cards import EDITIONS, all_types


def test_card_strings_are_interned() -> None:
    """A card's id, colour, stack, ability, bonus, symbols and roundels are interned strings
    (``rules.cards._interned``): the rules and the players' move values compare them with the code's
    literals and look them up in dicts, which stops at the identity test only for the same object."""
    for edition in EDITIONS:
        for t in all_types(edition):
            texts = [t.id, t.colour, t.deck, t.ability, t.bonus_per, t.discount, *t.symbols, *t.market]
            for text in texts:
                if text is not None:
                    assert text is sys.intern(text), (t.id, text)
