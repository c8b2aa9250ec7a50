"""Events in words, for the game log and the board's "last action" line (English and German)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .i18n import card_name, strings, t

Event = dict[str, Any]


def describe(event: Event, seats: Sequence[str], edition: int, lang: str = "en") -> str | None:
    """One event as a sentence, or None for bookkeeping events that need no line of their own. The first event
    of an action taken back is marked so (``undone``); a take-back names what it took back."""
    if event["type"] == "takeback":
        return _takeback(event, seats, edition, lang)
    line = _describe(event, seats, edition, lang)
    if line and event.get("undone"):
        return t("log.undone", lang, line=line)
    return line


def _takeback(event: Event, seats: Sequence[str], edition: int, lang: str) -> str:
    """"Anna took back: bought the Market for 5": the action without its player's name where it begins with it."""
    who = seats[event["seat"]]
    undone = {k: v for k, v in (event.get("undone") or {}).items() if k not in ("undone", "auto")}
    what = (_describe(undone, seats, edition, lang) if "type" in undone else None) or ""
    if what.startswith(who + " "):
        what = what[len(who) + 1:]
    return t("log.takeback", lang, player=who, action=what.rstrip("."))


def _describe(event: Event, seats: Sequence[str], edition: int, lang: str) -> str | None:
    kind = event["type"]
    who = seats[event["seat"]] if "seat" in event else ""

    def card(key: str = "card") -> str:
        return card_name(event[key], edition, lang)

    if kind in ("buy", "play"):
        row = event.get("row", "upper")
        key = f"log.{kind}" + ("_over" if "displaced" in event else "") + ("_lower" if row == "lower" else "")
        if row == "drawn":
            key = "log.buy_drawn" + ("_over" if "displaced" in event else "")
        return t(
            key,
            lang,
            player=who,
            card=card(),
            price=event["price"],
            displaced=card("displaced") if "displaced" in event else "",
        )
    if kind == "take":
        return t(f"log.take_{event.get('row', 'upper')}", lang, player=who, card=card())
    if kind == "pass":
        return t("log.auto_pass" if event.get("auto") else "log.pass", lang, player=who)
    if kind == "observe":
        return t("log.observe", lang, player=who, deck=t(f"deck.{event['deck']}", lang), card=card())
    if kind == "discard":
        return t("log.discard", lang, player=who, card=card())
    if kind == "pub":
        if not event["vp"]:
            return t("log.pub_none", lang, player=who)
        return t("log.pub", lang, player=who, vp=event["vp"], rubles=event["rubles"])
    if kind == "score":
        if not event["rubles"] and not event["vp"]:
            return None
        if "rubles_after" in event:  # UI-15: before + gained = after (events stored before it lack them)
            rub, vp, rub_after, vp_after = event["rubles"], event["vp"], event["rubles_after"], event["vp_after"]
            return t("log.score_totals", lang, player=who, phase=t(f"phase.{event['phase']}", lang),
                     rubles_before=rub_after - rub, rubles=rub, rubles_after=rub_after,
                     vp_before=vp_after - vp, vp=vp, vp_after=vp_after)
        return t(
            "log.score",
            lang,
            player=who,
            phase=t(f"phase.{event['phase']}", lang),
            rubles=event["rubles"],
            vp=event["vp"],
        )
    if kind == "note":  # an expansion's line: a text key, card ids to name, a player ("owner") to name
        params: dict[str, Any] = {k: card_name(v, edition, lang) for k, v in event.get("cards", {}).items()}
        params.update(event.get("params", {}))
        if "owner" in params:
            params["owner"] = seats[params["owner"]]
        return t(event["key"], lang, player=who, **params)
    if kind == "good":
        return t("log.good", lang, player=who, card=card(), good=t(f"good.{event['good']}", lang))
    if kind == "good_returned":
        return t("log.good_returned", lang, player=who, good=t(f"good.{event['good']}", lang))
    if kind == "crate_confirmed":
        return t("log.crate_confirmed", lang, player=who, card=card(), rubles=event["rubles"])
    if kind == "crate_released":
        return t("log.crate_released", lang, player=who, card=card())
    if kind == "marketplace":
        return t("log.marketplace", lang, player=who, vp=event["vp"]) if event["vp"] else None
    if kind == "market_value":
        return t("log.market_value", lang, high=event["tile"][0], low=event["tile"][1])
    if kind == "assistants_passed":
        return t("log.assistants_passed", lang)
    if kind == "assignment_chosen":  # which one stays hidden until the end (M5-19)
        return t("log.assignment_chosen", lang, player=who)
    if kind == "assignment_scored":
        return t("log.assignment_scored", lang, player=who, assignment=event["assignment"], vp=event["vp"])
    if kind in MODULE_EVENTS:
        return _describe_module(event, who, edition, lang)
    if kind == "phase":
        return t("log.phase", lang, phase=t(f"phase.{event['phase']}", lang), round=event["round"])
    if kind == "end_triggered":
        return t("log.end_triggered", lang, deck=t(f"deck.{event['deck']}", lang))
    if kind == "round_end":
        return t("log.round_end", lang, round=event["round"])
    if kind == "game_end":
        names = ", ".join(seats[s] for s in event["winners"])
        return t("log.game_end", lang, winners=names)
    return _described(event, who, edition, lang)


def _described(event: Event, who: str, edition: int, lang: str) -> str | None:
    """An expansion's event (e.g. the Guild Hall's split): the text ``log.<type>`` (``log.<type>_none``
    when the event says nothing happened), filled with the event's fields, cards by name."""
    key = f"log.{event['type']}"
    if event.get("none") and f"{key}_none" in strings("en"):
        key += "_none"
    if key not in strings("en"):
        return None
    params = dict(event)
    params["player"] = who
    for field in ("card", "displaced"):
        if field in event:
            params[field] = card_name(event[field], edition, lang)
    return t(key, lang, **params)


MODULE_EVENTS = ("event", "ghost_discard", "grab", "discarded", "obstacle_blocked", "obstacle_passed", "bonus_chosen")


def _describe_module(event: Event, who: str, edition: int, lang: str) -> str:
    """Modules 4 and 6: events (M4-16) and obstacles (M6-21) in words."""
    kind = event["type"]
    if kind == "event":
        return t("log.event", lang, player=who, event=t(f"event.{event['event']}", lang))
    if kind == "ghost_discard":
        return t("log.ghost_discard", lang, player=who, card=card_name(event["card"], edition, lang))
    if kind == "grab":
        displaced = card_name(event.get("displaced", ""), edition, lang)
        return t("log.grab_over" if "displaced" in event else "log.grab", lang, player=who,
                 card=card_name(event["card"], edition, lang), price=event["price"], displaced=displaced)
    if kind == "discarded":
        names = ", ".join(card_name(c, edition, lang) for c in event["cards"])
        return t("log.discarded", lang, player=who, cards=names)
    place = {"field": event["field"], "obstacle": t(f"obstacle.{event['obstacle']}", lang)}
    if kind == "obstacle_blocked":
        key = "log.obstacle_blocked" if event["vp"] else "log.obstacle_reached"
        return t(key, lang, player=who, vp=event["vp"], **place)
    if kind == "obstacle_passed":
        key = "log.obstacle_passed" if event["vp"] or event["rubles"] else "log.obstacle_passed_only"
        return t(key, lang, player=who, vp=event["vp"], rubles=event["rubles"], **place)
    card = f" ({card_name(event['card'], edition, lang)})" if event.get("card") else ""
    key = "log.bonus_vp" if event["vp"] else "log.bonus_rubles"
    return t(key, lang, player=who, vp=event["vp"], rubles=event["rubles"], field=event["field"], card=card)


def describe_all(events: Sequence[Event], seats: Sequence[str], edition: int, lang: str = "en") -> list[str]:
    out = []
    for e in events:
        line = describe(e, seats, edition, lang)
        if line:
            out.append(line)
    return out


def headline(events: Sequence[Event], seats: Sequence[str], edition: int, lang: str = "en") -> str | None:
    """The player's action among ``events`` (the first event), in words: the board's "last action"."""
    for e in events:
        if e["type"] in ("buy", "play", "take", "pass", "observe", "discard", "pub", "good", "crate_confirmed",
                         "guild_hall", "trading_house", "sycophant", "prison", "put_back", "note",
                         "event", "bonus_chosen", "discarded", "assignment_chosen", "takeback"):
            return describe(e, seats, edition, lang)
    return None
