"""Moves in words: the private menu's options, autocomplete labels and the "✅ …" replies.

Every kind of move ``rules.legal_moves`` offers in any ruleset has words here (the base game, the Market,
In bester Gesellschaft, the Banquet / Module 1, Module 2, Modules 3-6); only a kind unknown to this module
falls back to its record notation. ``seats`` names the players (the Moocher's victim); ``view`` is the
deciding player's own view (``rules.view(st, seat)``), which gives an assignment's current value. An
assignment is only ever worded for its owner: these labels appear in private answers only (M5-19).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules import LOWER, Action, format_action
from rules.cards import Catalogue, any_type
from rules.expansions.assignments import assignment_name, assignment_short
from rules.expansions.module4 import event_name
from rules.i18n import DEFAULT_LANG, card_name, strings, t

PURPLE = "purple"


def has_text(key: str, lang: str) -> bool:
    return key in strings(lang) or key in strings(DEFAULT_LANG)


def rubles(n: int, lang: str) -> str:
    return t("bot.rubles", lang, n=n)


def _good(good: str, lang: str) -> str:
    return "?" if good == "?" else t(f"good.{good}", lang)


def _placement(kind: str, card: str, row: int, target: str, good: str, edition: int, lang: str) -> str:
    """``buy Bank (lower row) over Market (fish)``: a buy, take, play or discard of a card (``good``: the
    roundel of the target for a trading card, else of the card itself, MK-49)."""
    text = t(f"act.{kind}", lang, card=card_name(card, edition, lang))
    if good and not target:
        text += f" ({_good(good, lang)})"
    if row == LOWER:
        text += " " + t("bot.from_lower", lang)
    if target:
        text += " " + t("bot.over", lang, card=card_name(target, edition, lang))
        if good:
            text += f" ({_good(good, lang)})"
    return text


def _seat(seats: Sequence[str], seat: int, lang: str) -> str:
    return seats[seat] if 0 <= seat < len(seats) else t("bot.seat_n", lang, n=seat + 1)


def _play(a: Action, edition: int, lang: str, seats: Sequence[str]) -> str:
    """A hand card played: a purple card "on" a card (Jester, Banquet, Away With It!, the Moocher of a
    player for rubles or VP, BQ-03 ... BQ-20), any other card "over" the one it displaces."""
    ct = any_type(edition, a.card)
    if ct is None or ct.colour != PURPLE:
        return _placement("play", a.card, a.row, a.target, a.good, edition, lang)
    name = card_name(a.card, edition, lang)
    if not a.target:
        return t("act.play", lang, card=name)
    target = card_name(a.target, edition, lang)
    if a.good in ("rubles", "vp"):  # the Moocher: whose card, and which of its values
        return t(f"act.play_moocher_{a.good}", lang, card=name, target=target, player=_seat(seats, a.amount, lang))
    return t("act.play_on", lang, card=name, target=target)


def assignment_now(entry: dict[str, Any], lang: str) -> str:
    """"now 14 VP" (with hidden money Assignment 6's second 10 VP as "+10 with the most rubles", UI-13)."""
    key = "bot.assignment_now_more" if entry.get("more") else "bot.assignment_now"
    return t(key, lang, vp=entry["vp"], more=entry.get("more", 0))


def own_assignments(view: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The viewer's own assignments with their values now (``rules.view`` gives them to their owner only)."""
    seat = view.get("viewer") if view is not None else None
    if view is None or seat is None:
        return []
    found: list[dict[str, Any]] = view["players"][seat].get("assignments") or []
    return found


def _assignment(a: Action, lang: str, view: dict[str, Any] | None) -> str:
    """M5-02, UI-13: the assignment with its words and what it would score now, from its owner's view."""
    players = len(view["players"]) if view is not None else 4
    what = assignment_short(a.amount, players, lang)
    text = t("act.assignment", lang, name=assignment_name(a.amount, lang), what=what)
    for entry in own_assignments(view):
        if entry["id"] == a.amount:
            text += " — " + assignment_now(entry, lang)
    return text


def _event(a: Action, edition: int, lang: str) -> str:
    """M4-03: an event before the action; the Ghost names the card of the display it discards (M4-08)."""
    name = event_name(a.card, lang)
    if a.target:
        what = _placement("discard", a.target, a.row, "", a.good, edition, lang)
        return t("act.event_ghost", lang, event=name, what=what)
    return t("act.event", lang, event=name)


def _bonus(a: Action, edition: int, lang: str) -> str:
    """M6-06/08/14/15: an obstacle's bonus as rubles or VP, per chip or from one card (printed values)."""
    if not a.target:
        return t(f"act.bonus_{a.card}", lang)
    ct = any_type(edition, a.target)
    amount = 0 if ct is None else max(ct.rubles if a.card == "rubles" else ct.vp, 0)
    return t(f"act.bonus_{a.card}_card", lang, n=amount, card=card_name(a.target, edition, lang))


def _sub(key: str, inner: Action, edition: int, lang: str, **params: str) -> str:
    """A move with a buy or take inside (the Pickpocket's, the Grabber's)."""
    what = _placement(inner.kind, inner.card, inner.row, inner.target, inner.good, edition, lang)
    return t(key, lang, what=what, **params)


def _card_with_good(a: Action, edition: int, lang: str) -> str:
    name = card_name(a.card, edition, lang)
    return f"{name} ({_good(a.good, lang)})" if a.good else name


Wording = Callable[[Action, int, str, Sequence[str], "dict[str, Any] | None"], str]

WORDING: dict[str, Wording] = {
    "pass": lambda a, ed, lang, seats, view: t("act.pass", lang),
    "pub": lambda a, ed, lang, seats, view: t("act.pub", lang, vp=a.amount),
    "observe": lambda a, ed, lang, seats, view: t("act.observe", lang, deck=t(f"deck.{a.card}", lang)),
    "play": lambda a, ed, lang, seats, view: _play(a, ed, lang, seats),
    # the Market (MK-49, MK-50)
    "as": lambda a, ed, lang, seats, view: t("act.as", lang, good=_good(a.card, lang)),
    "confirm": lambda a, ed, lang, seats, view: t("act.confirm", lang, card=card_name(a.card, ed, lang)),
    "release": lambda a, ed, lang, seats, view: t("act.release", lang, card=card_name(a.card, ed, lang)),
    # Module 2 (M2-03, M2-05, M2-09) and the Debtor's Prison (M2-06)
    "guild_hall": lambda a, ed, lang, seats, view: t("act.guild_hall", lang, card=card_name("guild_hall", ed, lang),
                                                    vp=a.amount, rubles=4 - a.amount),
    "trading_house": lambda a, ed, lang, seats, view: t(
        "act.trading_house_yes" if a.amount else "act.trading_house_no", lang,
        card=card_name("trading_house", ed, lang)),
    "sycophant": lambda a, ed, lang, seats, view: t(
        "act.sycophant_keep" if a.amount else "act.sycophant_none", lang, card=card_name("sycophant", ed, lang),
        n=a.amount),
    "prison": lambda a, ed, lang, seats, view: t("act.prison", lang, prison=card_name("debtors_prison", ed, lang),
                                                card=_card_with_good(a, ed, lang)),
    # the Banquet (BQ-21)
    "pickpocket": lambda a, ed, lang, seats, view: t(
        "act.pickpocket_decline", lang, card=card_name("pickpocket", ed, lang)) if not a.card else _sub(
        "act.pickpocket", Action("buy" if a.amount == 1 else "take", a.card, a.row, a.target, 0, a.good), ed, lang,
        card=card_name("pickpocket", ed, lang)),
    # Module 4 (M4-03, M4-10, M4-15)
    "event": lambda a, ed, lang, seats, view: _event(a, ed, lang),
    "grabber": lambda a, ed, lang, seats, view: _sub(
        "act.grabber", Action("buy", a.card, -1, a.target, 0, a.good), ed, lang, event=event_name("grabber", lang)),
    "order": lambda a, ed, lang, seats, view: t("act.order", lang, first=card_name(a.card, ed, lang),
                                               last=card_name(a.target, ed, lang)),
    # Module 5 (M5-02) and Module 6 (M6-06 ...)
    "assignment": lambda a, ed, lang, seats, view: _assignment(a, lang, view),
    "bonus": lambda a, ed, lang, seats, view: _bonus(a, ed, lang),
}
PLACEMENTS = frozenset({"buy", "take", "discard"})


def worded(kind: str) -> bool:
    """Whether moves of ``kind`` have words of their own (else they read as their record notation)."""
    return kind in WORDING or kind in PLACEMENTS


def describe_action(action: Action, edition: int, lang: str, price: int | None = None,
                    cat: Catalogue | None = None, *, seats: Sequence[str] = (),
                    view: dict[str, Any] | None = None) -> str:
    """A localized description of an action, e.g. ``buy Bank (lower row) over Market: 5 rubles``.
    ``seats``: the players' names (else taken from ``view``); ``view``: the deciding player's own view. A kind
    without words here reads as its record notation where ``cat`` is given."""
    k = action.kind
    if not seats and view is not None:
        seats = [p["name"] for p in view["players"]]
    wording = WORDING.get(k)
    if wording is not None:
        text = wording(action, edition, lang, seats, view)
    elif k in PLACEMENTS:
        text = _placement(k, action.card, action.row, action.target, action.good, edition, lang)
    elif cat is not None:
        text = format_action(action, cat, lang, seats=seats)
    else:
        text = t(f"act.{k}", lang, card=card_name(action.card, edition, lang))
    if price and k != "pass":
        text += f": {rubles(price, lang)}"
    return text
