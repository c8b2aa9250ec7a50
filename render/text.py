"""The renderer's words: keys ``render.*`` in data/i18n/<lang>/render.json, plus the rules' own keys
(phase.*, source.*, word.*) through the one translation layer ``rules.i18n``."""

from __future__ import annotations

from typing import Any

from rules.cards import CardType, raw_catalogue
from rules.i18n import strings, t


def tr(key: str, lang: str, **params: Any) -> str:
    """A render string: ``render.<key>``."""
    return t(f"render.{key}", lang, **params)


def edition_name(edition: int, lang: str) -> str:
    """"2nd edition (2014)", from the card catalogue's own edition names."""
    names = raw_catalogue()["editions"].get(str(edition), {}).get("name", {})
    return str(names.get(lang) or names.get("en") or edition)


def join_names(names: list[str], lang: str) -> str:
    """"A, B and C"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + tr("and", lang) + names[-1]


def short_ability(ct: CardType, lang: str) -> str | None:
    """A few words for a special card, built from its data (the full text is ``CardType.text``)."""
    parts: list[str] = []
    if len(ct.symbols) > 1:
        parts.append(tr("ability.all_symbols", lang))
    if ct.displaces_any and len(ct.symbols) <= 1:
        parts.append(tr("ability.displaces_any", lang))
    if ct.ability is not None and f"render.ability.{ct.ability}" in strings("en"):  # observatory, pub, ...
        parts.append(tr(f"ability.{ct.ability}", lang))
    if ct.displaces:  # BQ-09: the Czar-Superstar
        parts.append(tr("ability.only_displaces", lang))
    for colour in ct.discounts:  # BQ-09: several colours
        parts.append(tr(f"ability.discount.{colour}", lang))
    if ct.hand_limit_bonus:
        parts.append(tr("ability.hand_limit", lang, n=ct.hand_limit_bonus))
    if ct.displace_value != ct.cost:
        parts.append(tr("ability.displace_value", lang, n=ct.displace_value))
    if ct.bonus_per:
        per = tr(f"per.{ct.bonus_per}", lang)
        if ct.bonus_rubles:
            key = "ability.bonus_ruble" if ct.bonus_rubles == 1 else "ability.bonus_rubles"
            parts.append(tr(key, lang, n=ct.bonus_rubles, per=per))
        if ct.bonus_vp:
            parts.append(tr("ability.bonus_vp", lang, n=ct.bonus_vp, per=per))
    return " · ".join(parts) if parts else None
