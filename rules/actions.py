"""Actions and their text notation.

A turn is one of buy, take, play or pass (seed 000 "Die Aktionen"; BG-03); the Observatory
adds ``observe`` and its follow-up (buy / take / discard the drawn card), the Pub adds ``pub N``.

Notation (like chess SAN: what the player to decide does, readable and writable by a person)::

    pass
    buy Lumberjack                    take Theater (lower)
    buy Wharf over Ship Builder       play Senator over Author
    buy St Isaac's Cathedral (lower) over Market
    observe trading                   then: buy Bank over Market | take Bank | discard Bank
    pub 3

With the Market (MK-49, MK-50; the kinds after ``as`` come from its hooks)::

    buy Market [apple]                play Wharf over Ship Builder [fish]
    observe market                    as fish
    confirm Crate of Fish             release Crate of Fish

Card names are the edition's English names; German names and ids are read too (case-insensitive).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from .cards import DECKS, Catalogue
from .errors import NotationError
from .state import DRAWN, HAND, LOWER, UPPER

BUY: Final = "buy"
TAKE: Final = "take"
PLAY: Final = "play"
PASS: Final = "pass"
OBSERVE: Final = "observe"
DISCARD: Final = "discard"
PUB: Final = "pub"
KINDS: Final = (BUY, TAKE, PLAY, PASS, OBSERVE, DISCARD, PUB)


class Action(NamedTuple):
    """One decision. ``card`` is a card type id (or a deck key for ``observe``); ``row`` says where
    the card is (UPPER, LOWER, HAND or DRAWN); ``target`` is the displaced card's type id. ``good``
    tells apart copies of one card type with different market roundels (MK-49), only where the
    ruleset says they differ: the roundel of the target for a trading card, else of the card."""

    kind: str
    card: str = ""
    row: int = -1
    target: str = ""
    amount: int = 0
    good: str = ""


class Move(NamedTuple):
    """A legal action with its price in rubles for the player (0 where nothing is paid)."""

    action: Action
    price: int


PASS_ACTION: Final = Action(PASS)

# Notation of the action kinds expansions add (``Hooks.parsers`` / ``Hooks.formatters``), registered
# when a ruleset using them is built: kind -> (parse(text, rest, catalogue), format(action, catalogue, lang)).
NOTATIONS: dict[str, tuple[Callable[[str, str, Catalogue], Action], Callable[[Action, Catalogue, str], str]]] = {}


# The notation after ``play`` of hand cards played as an action (``Hooks.play_parsers`` /
# ``Hooks.play_formatters``, e.g. ``play Jester on Judge``), registered like NOTATIONS.
PLAY_PARSERS: list[Callable[[str, str, Catalogue, tuple[str, ...]], Action | None]] = []
PLAY_FORMATTERS: dict[str, Callable[[Action, Catalogue, str, tuple[str, ...]], str]] = {}


def register_play_notation(
    parsers: Sequence[Callable[[str, str, Catalogue, tuple[str, ...]], Action | None]],
    formatters: dict[str, Callable[[Action, Catalogue, str, tuple[str, ...]], str]],
) -> None:
    """Let ``parse_action`` and ``format_action`` read and write plays of hand cards (by ability)."""
    for parse in parsers:
        if parse not in PLAY_PARSERS:
            PLAY_PARSERS.append(parse)
    PLAY_FORMATTERS.update(formatters)


def register_notation(
    kind: str, parse: Callable[[str, str, Catalogue], Action], fmt: Callable[[Action, Catalogue, str], str]
) -> None:
    """Let ``parse_action`` and ``format_action`` read and write an expansion's action kind."""
    if kind in KINDS:
        raise ValueError(f"{kind!r} is a base-game action")
    NOTATIONS[kind] = (parse, fmt)


def format_action(action: Action, cat: Catalogue, lang: str = "en", seats: Sequence[str] = ()) -> str:
    """The notation of ``action`` (``seats``: the players' names, for actions that name a player)."""
    k = action.kind
    if k == PASS:
        return "pass"
    if k == PUB:
        return f"pub {action.amount}"
    if k == OBSERVE:
        return f"observe {action.card}"
    extra = NOTATIONS.get(k)
    if extra is not None:
        return extra[1](action, cat, lang)
    ctype = cat.by_id[action.card]
    if k == PLAY and PLAY_FORMATTERS and ctype.ability in PLAY_FORMATTERS:
        return PLAY_FORMATTERS[ctype.ability](action, cat, lang, tuple(seats))
    text = f"{k} {ctype.name(lang)}"
    if action.good and not action.target:
        text += f" [{action.good}]"
    if action.row == LOWER:
        text += " (lower)"
    if action.target:
        text += f" over {cat.by_id[action.target].name(lang)}"
        if action.good:
            text += f" [{action.good}]"
    return text


_GOOD = re.compile(r"\[\s*([^\]]*?)\s*\]\s*$")


def split_good(part: str) -> tuple[str, str]:
    """``Ship Builder [fish]`` -> (``Ship Builder``, ``fish``)."""
    gm = _GOOD.search(part)
    if gm is None:
        return part.strip(), ""
    return part[: gm.start()].strip(), gm.group(1).casefold()


_RE = re.compile(r"^\s*(?P<kind>\w+)\s*(?P<rest>.*?)\s*$", re.S)


def parse_action(
    text: str, cat: Catalogue, drawn: bool = False, decks: Sequence[str] = DECKS, seats: Sequence[str] = ()
) -> Action:
    """Read the notation. ``drawn``: a drawn Observatory card is pending, so buy/take/discard refer to it;
    ``decks``: the stacks an Observatory may draw from; ``seats``: the players' names."""
    m = _RE.match(text)
    if not m:
        raise NotationError(text, "empty")
    kind = m.group("kind").casefold()
    rest = m.group("rest")
    if kind in NOTATIONS:
        return NOTATIONS[kind][0](text, rest, cat)
    if kind not in KINDS:
        raise NotationError(text, f"unknown action {kind!r} (use {', '.join(KINDS + tuple(NOTATIONS))})")
    if kind == PASS:
        if rest:
            raise NotationError(text, "pass takes nothing after it")
        return PASS_ACTION
    if kind == PUB:
        try:
            return Action(PUB, amount=int(rest))
        except ValueError:
            raise NotationError(text, "pub needs a number of VP, e.g. 'pub 2'") from None
    if kind == PLAY:
        for parse_play in PLAY_PARSERS:
            played = parse_play(text, rest, cat, tuple(seats))
            if played is not None:
                return played
    if kind == OBSERVE:
        deck = rest.casefold()
        if deck not in decks:
            raise NotationError(text, f"observe needs a stack: {', '.join(decks)}")
        return Action(OBSERVE, deck)
    target = good = ""
    parts = re.split(r"\s+over\s+", rest, maxsplit=1, flags=re.I)
    if len(parts) == 2:
        rest, tname = parts
        tname, good = split_good(tname)
        t = cat.lookup(tname)
        if t is None:
            raise NotationError(text, f"no card called {tname!r}")
        target = t.id
    row = UPPER
    lm = re.search(r"\((lower|upper)\)\s*$", rest, flags=re.I)
    if lm:
        row = LOWER if lm.group(1).casefold() == "lower" else UPPER
        rest = rest[: lm.start()].strip()
    if kind == PLAY:
        row = HAND
    elif drawn:
        row = DRAWN
    elif kind == DISCARD:
        raise NotationError(text, "discard only answers an Observatory draw")
    rest, own_good = split_good(rest)
    if own_good and target:
        raise NotationError(text, "a roundel [good] goes after the displaced card")
    card = cat.lookup(rest)
    if card is None:
        raise NotationError(text, f"no card called {rest!r}")
    return Action(kind, card.id, row, target, 0, good or own_good)
