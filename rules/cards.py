"""The card catalogue: ``data/cards.json`` turned into immutable card types per edition.

Every entry in the JSON names its source: a section of the card compilation ``cards.md`` and the
sources that agree (docs/reference.md, "Card data sources"). The 116 playing cards of
each edition (31 workers, 28 buildings, 27 aristocrats, 30 trading cards; seed 000 "Das Material",
seed 001 p.2-3) are built from it; the 4 start-player cards of the box are tokens here.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Final

DATA_PACKAGE = "petersburg_data"  # the folder data/ as installed (pyproject.toml's package-dir)


def data_dir() -> Traversable:
    """The game's static data (cards, translations, fonts): the installed package ``petersburg_data``, read through
    ``importlib.resources`` (a checkout's data/ folder, an installed wheel's files or a zip's); in a checkout
    used without installing it, the data/ folder beside this package."""
    try:
        return files(DATA_PACKAGE)
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "data"


DATA_DIR = data_dir()
CATALOGUE_PATH = DATA_DIR / "cards.json"
EXTRA_DIR = DATA_DIR / "expansions"  # one card file per expansion

GREEN: Final = "green"
BLUE: Final = "blue"
RED: Final = "red"
COLOURS: Final = (GREEN, BLUE, RED)
DECKS: Final = ("workers", "buildings", "aristocrats", "trading")
EDITIONS: Final = (1, 2)


@dataclass(frozen=True, slots=True, eq=False)
class CardType:
    """One kind of card as printed (seed 001 "Der Aufbau der Karten"): cost top-left, income at the bottom.

    Compared by identity: each edition's catalogue holds exactly one object per card type.
    """

    id: str
    deck: str
    colour: str
    trading: bool
    count: int
    cost: int
    rubles: int
    vp: int
    symbols: frozenset[str]
    name_en: str
    name_de: str
    displace_value: int
    discount: str | None
    hand_limit_bonus: int
    ability: str | None
    bonus_per: str | None
    bonus_rubles: int
    bonus_vp: int
    text_en: str
    text_de: str
    market: tuple[str, ...]
    source: str
    de_guess: bool
    market_count: int = 1  # symbols of its good on each copy (market cards 1-3, crates 4; MK-29)
    # Every colour whose cards it makes 1 cheaper (``discount`` is the first; BQ-09's Czar-Superstar: red, blue).
    discounts: tuple[str, ...] = ()
    # The only card types it may displace, where a trading card is limited so (BQ-09); () = by colour.
    displaces: tuple[str, ...] = ()
    # A green trading card that may displace any worker, whatever its symbols (IBG-08, M2-07).
    displaces_any: bool = False

    def name(self, lang: str = "en") -> str:
        return self.name_de if lang == "de" else self.name_en

    def text(self, lang: str = "en") -> str:
        return self.text_de if lang == "de" else self.text_en


@dataclass(frozen=True, slots=True)
class Catalogue:
    """The card types of one edition plus the physical cards built from them.

    ``cards[i]`` is the type of physical card ``i``; ``markets[i]`` its 2nd-edition market roundel.
    """

    edition: int
    types: tuple[CardType, ...]
    by_id: dict[str, CardType]
    cards: tuple[CardType, ...]
    markets: tuple[str | None, ...]
    aristocrat_table: tuple[int, ...]
    observatory_reset: str
    display_empty_ends_phase: bool
    extras: tuple[str, ...] = ()  # the card files (data/expansions/<name>.json) added to the edition's cards
    # Per physical card, its market roundel where copies of its type differ in it (Ship Builder,
    # Market: MK-49, MK-61), else "": what tells such copies apart when a ruleset uses roundels.
    copy_goods: tuple[str, ...] = ()
    # Card type ids removed from the game (IBG-02, BQ-02, BQ-23): their physical cards keep their ids
    # but are in no stack, and a name finds the type that is in the game first.
    removed: tuple[str, ...] = ()
    # Per physical card, its stack (its type's ``deck`` unless the data gives each copy's: ``decks``).
    copy_decks: tuple[str, ...] = ()

    def lookup(self, name: str) -> CardType | None:
        """Find a card type by id, English or German name (case-insensitive, ignoring punctuation)."""
        return _name_index(self.edition, self.extras, self.removed).get(_norm(name))

    def deck_cards(self, deck: str) -> list[int]:
        """The physical cards of one stack, in catalogue order (a new list each call)."""
        return list(_deck_cards(self.edition, self.extras, self.removed, deck))


def _norm(s: str) -> str:
    return "".join(ch for ch in s.casefold() if ch.isalnum())


@cache
def _deck_cards(edition: int, extras: tuple[str, ...], removed: tuple[str, ...], deck: str) -> tuple[int, ...]:
    cat = catalogue(edition, extras, removed)
    return tuple(i for i, t in enumerate(cat.cards) if cat.copy_decks[i] == deck and t.id not in removed)


@cache
def _name_index(edition: int, extras: tuple[str, ...], removed: tuple[str, ...] = ()) -> dict[str, CardType]:
    cat = catalogue(edition, extras, removed)
    idx: dict[str, CardType] = {}
    in_game = [t for t in cat.types if t.id not in removed]
    for t in in_game + [t for t in cat.types if t.id in removed]:
        for key in (t.id, t.name_en, t.name_de):
            idx.setdefault(_norm(key), t)
    return idx


def _interned(value: Any) -> Any:
    """``value`` read from JSON with every string interned: a card's id, colour, stack and ability are then
    the very objects of the code's string literals (which Python and mypyc intern), so comparing them and
    looking them up in a dict stops at the identity test instead of comparing characters."""
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, list):
        return [_interned(v) for v in value]
    if isinstance(value, dict):
        return {sys.intern(k): _interned(v) for k, v in value.items()}
    return value


@cache
def raw_catalogue() -> dict[str, Any]:
    with CATALOGUE_PATH.open(encoding="utf-8") as f:
        data: dict[str, Any] = _interned(json.load(f))
    return data


@cache
def extra_files() -> tuple[str, ...]:
    """The expansions' card files (``data/expansions/*.json``), by name."""
    return tuple(sorted(p.name.removesuffix(".json") for p in EXTRA_DIR.iterdir() if p.name.endswith(".json")))


@cache
def _extras_of(edition: int) -> tuple[str, ...]:
    """The expansions' card files with cards of the edition."""
    return tuple(x for x in extra_files()
                 if edition in {e for entry in raw_extra(x) for e in entry.get("editions", [1, 2])})


@cache
def any_type(edition: int, card_id: str) -> CardType | None:
    """A card type of the edition by id, looked up in the base cards and then every expansion's (the
    same objects as in every catalogue, so the answer is kept)."""
    found = catalogue(edition).by_id.get(card_id)
    for extra in _extras_of(edition):
        if found is not None:
            break
        found = catalogue(edition, (extra,)).by_id.get(card_id)
    return found


def all_types(edition: int) -> list[CardType]:
    """Every card type of the edition: the base cards, then each expansion's that applies to it."""
    out = list(catalogue(edition).types)
    seen = {t.id for t in out}
    for extra in _extras_of(edition):
        for t in catalogue(edition, (extra,)).types:
            if t.id not in seen:
                seen.add(t.id)
                out.append(t)
    return out


def find_type(edition: int, name: str) -> CardType | None:
    """A card type of the edition, the expansions' included, by id, English or German name
    (case-insensitive, ignoring punctuation and spaces): what a card lookup by name finds."""
    key = _norm(name)
    for t in all_types(edition):
        if key in (_norm(t.id), _norm(t.name_en), _norm(t.name_de)):
            return t
    return None


@cache
def raw_extra(name: str) -> list[dict[str, Any]]:
    """The card entries of an expansion's data file ``data/expansions/<name>.json`` (as in cards.json)."""
    with (EXTRA_DIR / f"{name}.json").open(encoding="utf-8") as f:
        cards: list[dict[str, Any]] = _interned(json.load(f))["cards"]
    return cards


def catalogue(edition: int, extras: tuple[str, ...] = (), removed: tuple[str, ...] = ()) -> Catalogue:
    """The catalogue of one edition (1 = 2004, 2 = 2014), applying the ``edN`` overrides; the cards of
    each extra data file are added after the base cards (so base physical ids never move); ``removed``
    names the types taken out of the game. Card types are the same objects in every combination."""
    if removed:
        return _removed(edition, tuple(extras), tuple(removed))
    return _catalogue(edition, tuple(extras))


@cache
def _removed(edition: int, extras: tuple[str, ...], removed: tuple[str, ...]) -> Catalogue:
    cat = _catalogue(edition, extras)
    unknown = [r for r in removed if r not in cat.by_id]
    if unknown:
        raise ValueError(f"cannot remove unknown card types: {', '.join(unknown)}")
    return replace(cat, removed=removed)


FileTypes = tuple[tuple[CardType, ...], dict[str, tuple[str, ...]], tuple[tuple[str, int], ...]]


@cache
def _file_types(edition: int, name: str) -> FileTypes:
    """The card types of one data file for an edition ("" = data/cards.json, else an expansion's file),
    built once, so that a type is one object in every catalogue it is part of; with the stacks of
    each copy where the file gives them (``decks``), and the extra physical copies it adds of types
    defined elsewhere (``"extra_copies_of"``: IBG-09 ... IBG-11, e.g. two more Firehouses)."""
    entries = raw_catalogue()["cards"] if not name else raw_extra(name)
    types: list[CardType] = []
    per_copy: dict[str, tuple[str, ...]] = {}
    copies: list[tuple[str, int]] = []
    for entry in entries:
        if "extra_copies_of" in entry:
            if edition in entry.get("editions", [1, 2]):
                copies.append((entry["extra_copies_of"], int(entry["count"])))
            continue
        e = dict(entry)
        e.update(entry.get(f"ed{edition}", {}))
        if edition not in e.get("editions", [1, 2]):
            continue
        bonus = e.get("bonus") or {}
        names = e["name"]
        text = e.get("text", {})
        discount = e.get("discount")
        discounts = tuple(discount) if isinstance(discount, list) else (discount,) if discount else ()
        if "decks" in e:
            per_copy[e["id"]] = tuple(e["decks"])
        types.append(
            CardType(
                id=e["id"],
                deck=e["deck"],
                colour=e["colour"],
                trading=bool(e.get("trading", False)),
                count=int(e["count"]),
                cost=int(e["cost"]),
                rubles=int(e["rubles"]),
                vp=int(e["vp"]),
                symbols=frozenset(e.get("symbols", ())),
                name_en=names["en"],
                name_de=names["de"],
                displace_value=int(e.get("displace_value") or e["cost"]),
                discount=discounts[0] if discounts else None,
                hand_limit_bonus=int(e.get("hand_limit_bonus", 0)),
                ability=e.get("ability"),
                bonus_per=bonus.get("per"),
                bonus_rubles=int(bonus.get("rubles", 0)),
                bonus_vp=int(bonus.get("vp", 0)),
                text_en=text.get("en", ""),
                text_de=text.get("de", ""),
                market=tuple(e.get("market", ())),
                source=e["source"],
                de_guess=bool(e.get("de_guess", False)),
                market_count=int(e.get("market_count", 1)),
                discounts=discounts,
                displaces=tuple(e.get("displaces", ())),
                displaces_any=bool(e.get("displaces_any", False)),
            )
        )
    return tuple(types), per_copy, tuple(copies)


@cache
def _catalogue(edition: int, extras: tuple[str, ...]) -> Catalogue:
    raw = raw_catalogue()
    if str(edition) not in raw["editions"]:
        raise ValueError(f"unknown edition {edition!r}")
    types: list[CardType] = []
    per_copy: dict[str, tuple[str, ...]] = {}  # type id -> each copy's stack, where the data gives them
    more: list[tuple[str, int]] = []
    for name in ("", *extras):  # each file's types are the very same objects in every combination
        file_types, file_decks, file_copies = _file_types(edition, name)
        types.extend(file_types)
        per_copy.update(file_decks)
        more.extend(file_copies)
    cards: list[CardType] = []
    markets: list[str | None] = []
    copy_goods: list[str] = []
    copy_decks: list[str] = []
    for t in types:
        varied = len(set(t.market)) > 1
        stacks = per_copy.get(t.id, ())
        for k in range(t.count):
            cards.append(t)
            copy_decks.append(stacks[k] if k < len(stacks) else t.deck)
            markets.append(t.market[k] if k < len(t.market) else None)
            copy_goods.append(t.market[k] if varied else "")
    by_id = {t.id: t for t in types}
    for type_id, count in more:  # extra copies after every other card: no physical id moves
        t = by_id[type_id]
        cards.extend([t] * count)
        copy_decks.extend([t.deck] * count)
        markets.extend([None] * count)
        copy_goods.extend([""] * count)
    return Catalogue(
        edition=edition,
        types=tuple(types),
        by_id=by_id,
        cards=tuple(cards),
        markets=tuple(markets),
        aristocrat_table=tuple(raw["aristocrat_table"]),
        observatory_reset=raw["editions"][str(edition)]["observatory_reset"],
        display_empty_ends_phase=raw["editions"][str(edition)]["display_empty_ends_phase"],
        extras=extras,
        copy_goods=tuple(copy_goods),
        copy_decks=tuple(copy_decks),
    )
