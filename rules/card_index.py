"""The card types of a catalogue by position (``CardIndex``) and the copy classes a move names
(``Copies``; MK-49): prices and moves read lists indexed by them, not dicts keyed by card type."""

from __future__ import annotations

from typing import Final

from .cards import CardType, Catalogue
from .hooks import TRADING


class CardIndex:
    """The card types of one catalogue by position: each physical card's type as an index into
    ``types`` (``of_card``), the printed costs (``costs``) and the type indices of a discount's
    selector (``selected``), so that prices are read from lists, not dicts keyed by card type.

    A *copy class* is what a move names of a card: its type, and where the ruleset tells copies apart
    by their market roundel (MK-49), its roundel too. ``copies[r]`` holds, for ``r`` = 0 (copies alike)
    and 1 (told apart by roundel), each physical card's class, each class's type index and roundel;
    with copies alike a class is the type index itself."""

    __slots__ = ("cat", "types", "of_type", "of_card", "costs", "colours", "copies")

    def __init__(self, cat: Catalogue) -> None:
        self.cat = cat
        self.types: list[CardType] = list(cat.types)
        self.of_type: dict[CardType, int] = {t: i for i, t in enumerate(cat.types)}
        self.of_card: list[int] = [self.of_type[t] for t in cat.cards]
        self.costs: list[int] = [t.cost for t in cat.types]
        self.colours: dict[str, list[int]] = {}
        alike = Copies(self.types, self.of_card, list(range(len(self.types))), [""] * len(self.types))
        self.copies: list[Copies] = [alike, _by_roundel(self.types, self.of_card, cat.copy_goods)]

    def selected(self, selector: str) -> list[int]:
        """The types of a colour (its trading cards included), or every trading card for ``TRADING``."""
        found = self.colours.get(selector)
        if found is None:
            found = self.colours[selector] = [
                i for i, t in enumerate(self.types) if t.colour == selector or (selector == TRADING and t.trading)
            ]
        return found


class Copies:
    """One way of telling a catalogue's cards apart in moves (see ``CardIndex``): ``of_card[c]`` is
    physical card ``c``'s copy class, ``type_of[k]``, ``good[k]`` and ``value[k]`` the type index,
    roundel and value to displace (BG-05) of class ``k``; ``alike``: each class is the type index
    itself. ``tables`` holds the moves of every class (``rules.moves.MoveTables``, made there on first
    use)."""

    __slots__ = ("of_card", "type_of", "good", "value", "alike", "tables")

    def __init__(self, types: list[CardType], of_card: list[int], type_of: list[int], good: list[str]) -> None:
        self.of_card = of_card
        self.type_of = type_of
        self.good = good
        self.value = [types[ti].displace_value for ti in type_of]
        self.alike = type_of == list(range(len(type_of)))
        self.tables: object = None


def _by_roundel(types: list[CardType], of_card: list[int], goods: tuple[str, ...]) -> Copies:
    """Copy classes (type, roundel) in the order of the first physical card of each (MK-49)."""
    classes: dict[tuple[int, str], int] = {}
    per_card: list[int] = []
    for c, ti in enumerate(of_card):
        key = (ti, goods[c] if c < len(goods) else "")
        k = classes.get(key)
        if k is None:
            k = classes[key] = len(classes)
        per_card.append(k)
    return Copies(types, per_card, [ti for ti, _ in classes], [good for _, good in classes])


# Per catalogue (each is kept alive by its cache, so its id is stable; the entry holds it to make sure).
_INDEX: Final[dict[int, CardIndex]] = {}


def card_index(cat: Catalogue) -> CardIndex:
    found = _INDEX.get(id(cat))
    if found is None or found.cat is not cat:
        found = _INDEX[id(cat)] = CardIndex(cat)
    return found
