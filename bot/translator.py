"""Command names and descriptions in German (and English) from the same bot.json files."""

from __future__ import annotations

import discord
from discord import app_commands

from rules.i18n import language_of_locale, strings, t


def locale_str(key: str) -> app_commands.locale_str:
    """A translatable string: English text from bot.json, with its key kept for the translator."""
    return app_commands.locale_str(t(key, "en"), key=key)


class Translator(app_commands.Translator):
    """Looks up ``locale_str(...).extras['key']`` in the language of the requested locale."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = language_of_locale(locale.value)
        key = string.extras.get("key")
        if lang is None or not key:
            return None
        return strings(lang).get(key)
