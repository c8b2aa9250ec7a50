"""The one translation layer for user-facing text (English and German).

Strings live in ``data/i18n/<lang>/*.json`` (one file per area: rules.json, bot.json, render.json);
all files of a language are merged. Card names and texts come from the card catalogue instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from .cards import DATA_DIR, any_type

LANGUAGES = ("en", "de")  # a new language: its code here and its folder data/i18n/<code>/ (CONTRIBUTING.md)
DEFAULT_LANG = "en"
I18N_DIR = DATA_DIR / "i18n"


@cache
def strings(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    folder = I18N_DIR / lang
    for path in sorted((p for p in folder.iterdir() if p.name.endswith(".json")), key=lambda p: p.name):
        with path.open(encoding="utf-8") as f:
            merged.update(json.load(f))
    return merged


_ONE_RUBLE = re.compile(r"(?<![\d.,])([+\u2212-]?1) rubles\b")  # "1 rubles", "+1 rubles"; not "11 rubles"


def t(key: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    """The text for ``key`` in ``lang`` (falling back to English, then to the key itself). An English text
    says "1 ruble", whatever number its template was given (German "Rubel" is singular and plural)."""
    own = strings(lang).get(key)
    template = own or strings(DEFAULT_LANG).get(key) or key
    try:
        text = template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
    english = lang == DEFAULT_LANG or own is None
    return _ONE_RUBLE.sub(r"\1 ruble", text) if english and " rubles" in text else text


@cache
def _source_rank() -> dict[str, int]:
    with (DATA_DIR / "vp_sources.json").open(encoding="utf-8") as f:
        return {key: i for i, key in enumerate(json.load(f)["order"])}


def source_order(keys: Iterable[str]) -> list[str]:
    """VP sources (``vp_by_source`` keys) in the rulebooks' scoring order (``data/vp_sources.json``), the same
    for every player; a source it does not list comes after those it does, by name."""
    rank = _source_rank()
    return sorted(set(keys), key=lambda k: (rank.get(k, len(rank)), k))


def language_of_locale(locale: str) -> str | None:
    """The language of a Discord locale ("de", "en-US", "en-GB") when the bot speaks it, else None."""
    code = locale.split("-", 1)[0].lower()
    return code if code in LANGUAGES else None


def card_name(card_id: str, edition: int, lang: str = DEFAULT_LANG) -> str:
    t_ = any_type(edition, card_id)
    return t_.name(lang) if t_ is not None else card_id


def part_name(key: str, lang: str = DEFAULT_LANG) -> str:
    """An expansion's or module's name (``part.<registry key>``) as the README and the rulebooks give it, e.g.
    "Module 3 (the Assistants)"; the key itself for a part without one."""
    return strings(lang).get(f"part.{key}") or strings(DEFAULT_LANG).get(f"part.{key}") or key


def _ruleset_names(p: dict[str, Any], lang: str) -> None:
    """Name the parts and editions of a ``RulesetError``'s parameters in ``lang``."""
    for key in ("part", "need", "other", "instead"):
        if key in p:
            p[key] = part_name(str(p[key]), lang)
    if "parts" in p:
        p["parts"] = t("word.and", lang).join(part_name(str(k), lang) for k in p["parts"])
    if "editions" in p:
        p["editions"] = t("word.or", lang).join(t(f"edition.{e}", lang) for e in p["editions"])
    if "edition" in p:
        p["edition_name"] = t(f"edition.{p['edition']}", lang)


def error_text(code: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    """A RuleError's (or RulesetError's) message in ``lang`` (keys ``error.<code>``): card ids (``card_id``,
    ``target_id``, with ``edition``), stacks (``deck``), decisions (``pending``), expansions and modules, and
    editions are named in that language."""
    p = dict(params)
    if code.startswith("ruleset_"):
        _ruleset_names(p, lang)
    edition = int(p.get("edition", 2))
    for key in ("card", "target"):
        if f"{key}_id" in p:
            p[key] = card_name(p[f"{key}_id"], edition, lang)
    if "deck" in p:
        p["deck"] = t(f"deck.{p['deck']}", lang)
    if "pending" in p:
        p["pending"] = t(f"pending.{p['pending']}", lang, card=p.get("card", ""))
    text = t(f"error.{code}", lang, **p)
    if code.startswith("ruleset_"):  # "The Market is ...": it may begin with a part's name
        return text[:1].upper() + text[1:]
    return text
