"""The lobby offers the expansions and modules of its edition, each with a line of help:
the host picks them in one select; the rules core accepts the combination or says why not (X-02)."""

from __future__ import annotations

from typing import Any

import simcord

from rules.expansions import offered
from rules.i18n import t

from .helpers import controls, game_in, reply_of, setup_members


def _parts_select(message: Any) -> Any:
    return next(c for c in controls(message) if (c.custom_id or "").startswith("pb:x:"))


def _lobby(channel: simcord.ChannelHandle) -> Any:
    return next(m for m in reversed(channel.history()) if any((c.custom_id or "").startswith("pb:l:")
                                                            for c in controls(m)))


async def test_lobby_offers_the_editions_parts_and_the_host_picks_them(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("lobby")
    host, *others = setup_members(env, 5)
    await host.slash(channel, "petersburg create", edition=2)
    lobby = _lobby(channel)
    select = _parts_select(lobby)
    assert [o.value for o in select.options] == [e.key for e in offered(2)] and "market" in [o.value for o in
                                                                                             select.options]
    market = next(o for o in select.options if o.value == "market")
    assert market.description == t("bot.part_help_market", "en") and not market.default
    refused = reply_of(await others[0].select(lobby, ["market"], custom_id=select.custom_id))
    assert refused.ephemeral and "host" in refused.content.casefold()
    assert "expansions" not in (await game_in(env, channel)).ruleset
    chosen = reply_of(await host.select(lobby, ["market"], custom_id=select.custom_id))
    assert chosen.ephemeral and t("bot.part_market", "en") in chosen.content
    game = await game_in(env, channel)
    assert game.ruleset["expansions"] == ["market"]
    lobby = _lobby(channel)
    assert "(1/5)" in (lobby.content or "") and t("bot.part_market", "en") in (lobby.content or "")
    assert next(o for o in _parts_select(lobby).options if o.value == "market").default
    for p in others:  # five seats: the Market allows them
        await p.slash(channel, "petersburg join")
    lobby = _lobby(channel)
    refused = reply_of(await host.select(lobby, [], custom_id=_parts_select(lobby).custom_id))
    assert refused.ephemeral and "2 to 4 players" in refused.content  # without the Market, five are too many
    assert (await game_in(env, channel)).ruleset["expansions"] == ["market"]
    await host.slash(channel, "petersburg start")
    game = await game_in(env, channel)
    assert game.state is not None and game.state["ruleset"]["expansions"] == ["market"]
    assert game.state["ruleset"]["players"] == 5


async def test_first_edition_lobby_offers_only_its_own_parts(env: simcord.Env) -> None:
    channel = env.create_guild().create_text_channel("lobby1")
    host = setup_members(env, 1)[0]
    await host.slash(channel, "petersburg create", edition=1)
    lobby = _lobby(channel)
    keys = [e.key for e in offered(1)]
    assert "market" not in keys
    pickers = [c for c in controls(lobby) if (c.custom_id or "").startswith("pb:x:")]
    assert [o.value for o in pickers[0].options] == keys if keys else pickers == []


async def test_a_refused_combination_is_explained_in_the_lobbys_language(env: simcord.Env) -> None:
    """The rules core's reasons name the parts as the README does, in English and German (no registry keys,
    no "2. edition"), for the lobby's menu and for ``create``."""
    guild = env.create_guild()
    for lang, words, market_words in (
        ("en", "Module 3 (the Assistants) needs the Market.",
         "The Market is played with the 2nd edition only, not the 1st edition."),
        ("de", "Modul 3 („Die Helfer“) wird nur zusammen mit „Der Markt“ gespielt.",
         "„Der Markt“ wird nur mit der 2. Ausgabe gespielt, nicht mit der 1. Ausgabe."),
    ):
        channel = guild.create_text_channel(f"lobby-{lang}")
        host = setup_members(env, 1, guild, prefix=f"h{lang}")[0]
        await host.slash(channel, "petersburg create", edition=2, language=lang)
        lobby = _lobby(channel)
        refused = reply_of(await host.select(lobby, ["module3"], custom_id=_parts_select(lobby).custom_id))
        assert refused.ephemeral and words in refused.content, refused.content
        assert "modules" not in (await game_in(env, channel)).ruleset
        await host.slash(channel, "petersburg host abort")
        refused = reply_of(await host.slash(channel, "petersburg create", edition=1, market=True, language=lang))
        assert refused.ephemeral and market_words in refused.content, refused.content
