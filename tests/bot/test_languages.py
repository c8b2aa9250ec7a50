"""Which language the bot answers in: a game speaks its own language (its board, its public messages and every
private answer about it), whatever a member's Discord client speaks; an answer about no game is in the member's
Discord language; an answer everyone in the channel sees never takes one member's language."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
import simcord.actors

from rules.i18n import t

from .helpers import reply_of, setup_members, start_game

original_payload = simcord.actors._interactions.base_payload


@pytest.fixture
def german_clients(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The members (by id) whose Discord client is German: their interactions carry the locale ``de``
    (SimCord's are always ``en-US``)."""
    ids: set[int] = set()

    def base_payload(*args: Any, **kw: Any) -> Any:
        record, payload = original_payload(*args, **kw)
        if kw.get("user_id") in ids:
            payload["locale"] = "de"
        return record, payload

    monkeypatch.setattr(simcord.actors._interactions, "base_payload", base_payload)
    return ids


async def test_an_english_game_answers_a_german_client_in_english(env: simcord.Env, german_clients: set[int]) -> None:
    channel = env.create_guild().create_text_channel("table")
    players = setup_members(env, 2)
    german_clients.add(players[1].id)
    await start_game(env, channel, players, language="en")
    reply = reply_of(await players[1].slash(channel, "petersburg rules"))
    assert reply.ephemeral and reply.content == t("bot.rules_help", "en")
    reply = reply_of(await players[1].slash(channel, "petersburg join"))  # already seated: the game's words
    assert reply.ephemeral and reply.content == t("error.already_joined", "en")


async def test_what_everyone_sees_is_never_in_one_members_language(env: simcord.Env,
                                                                  german_clients: set[int]) -> None:
    channel = env.create_guild().create_text_channel("lobby")
    member = setup_members(env, 1)[0]
    german_clients.add(member.id)  # no game here: the bot's LANGUAGE (en)
    r = await member.slash(channel, "petersburg history")
    assert r.response is not None and not r.ephemeral
    assert r.response.content == t("bot.history_empty", "en")
    r = await member.slash(channel, "petersburg leaderboard", by="wins")
    assert r.response is not None and not r.ephemeral
    assert r.response.content == t("bot.history_empty", "en")


async def test_an_answer_about_no_game_is_in_the_members_language(env: simcord.Env,
                                                                 german_clients: set[int]) -> None:
    channel = env.create_guild().create_text_channel("x")
    member = setup_members(env, 1)[0]
    german_clients.add(member.id)
    reply = reply_of(await member.slash(channel, "petersburg games"))
    assert reply.ephemeral and reply.content == t("bot.games_none", "de")


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_rules_tell_every_feature_a_player_meets(env: simcord.Env, lang: str) -> None:
    """``/petersburg rules``: taking back, replays, reviews and rematches, both parts for five players, the
    ratings' orders in plain words; every part within Discord's limits."""
    channel = env.create_guild().create_text_channel("table")
    players = setup_members(env, 2)
    await start_game(env, channel, players, language=lang)
    reply = reply_of(await players[0].slash(channel, "petersburg rules"))
    assert reply.ephemeral and len(reply.content) <= 2000 and reply.content == t("bot.rules_help", lang)
    assert "In bester Gesellschaft" in reply.content and "market:True" in reply.content
    (embed,) = reply.embeds
    fields = "\n".join(f.value or "" for f in embed.fields)
    for mark in ("↩️", "▶️", "📈", "🔁"):
        assert mark in fields, mark
    for name in ("takeback", "replay", "review", "rematch"):
        assert t(f"bot.button_{name}", lang) in fields, name
    assert all(len(f.value or "") <= 1024 for f in embed.fields)
    assert "as before" not in (embed.description or "") and "wie bisher" not in (embed.description or "")


def test_a_language_is_listed_once() -> None:
    """A language is its code in ``rules.i18n.LANGUAGES`` and its folder of texts: the ``create`` command's
    choices and the member's language from their Discord locale (also the commands' translations,
    ``bot.translator``) follow from it."""
    import json

    import discord

    from cogs.petersburg import Petersburg
    from rules.i18n import I18N_DIR, LANGUAGES, language_of_locale

    def texts(code: str) -> dict[str, set[str]]:
        return {p.name: set(json.loads(p.read_text(encoding="utf-8")))
                for p in (I18N_DIR / code).iterdir() if p.name.endswith(".json")}

    english = texts("en")
    for code in LANGUAGES:
        assert texts(code) == english
    (language,) = [p for p in Petersburg.create.parameters if p.name == "language"]
    assert [(c.name, c.value) for c in language.choices] == [(t("language.name", c), c) for c in LANGUAGES]
    assert [t("language.name", c) for c in ("en", "de")] == ["English", "Deutsch"]
    assert [language_of_locale(x) for x in ("de", "en-US", "en-GB", "fr", "")] == ["de", "en", "en", None, None]
    assert language_of_locale(str(discord.Locale.german)) == "de"
