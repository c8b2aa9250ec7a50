"""In Discord, the new decisions in words in the private menu, autocomplete and the "✅ …"
reply; the Moocher names the player (menus and records); a player's assignments only in their own private
answers, with what each would score now; the board embed (without pictures) and ``/petersburg stats`` name the
Sack, assistants, obstacles and the new VP sources in words."""

from __future__ import annotations

import random
import re
from typing import Any

import simcord
from simcord.actors import MemberActor

from bot.texts import final_text, stats_text
from rules import GameState, Ruleset, apply, legal_moves, new_game, view
from rules.expansions.assignments import dealt

from .helpers import (
    board_message,
    bot_of,
    controls,
    decider,
    game_in,
    open_menu,
    pick_parts,
    reply_of,
    rig,
    setup_members,
    state_in,
    take_card,
)

RAW = re.compile(r"\b(?:act|bot|event|source|pending|token|render)\.[a-z_]+|\b[a-z]+_[a-z_]+\b")


async def parts_table(env: simcord.Env, n: int, parts: list[str], edition: int = 2,
                      **create: Any) -> tuple[simcord.ChannelHandle, list[MemberActor]]:
    """A started game whose host picked ``parts`` in the lobby's expansions select."""
    guild = env.create_guild()
    channel = guild.create_text_channel("parts")
    players = setup_members(env, n, guild, prefix=f"g{guild.id % 1000}p")
    await pick_parts(channel, players[0], parts, edition=edition, **create)
    for p in players[1:]:
        await p.slash(channel, "petersburg join")
    assert (await players[0].slash(channel, "petersburg start")).acknowledged
    return channel, players


def _public_text(channel: simcord.ChannelHandle) -> str:
    out = []
    for m in channel.history():
        out.append(m.content)
        for e in m.embeds:
            out += [e.title or "", e.description or "", *[f"{f.name}\n{f.value}" for f in e.fields]]
    return "\n".join(out)


async def test_M5_02_assignment_choice_in_words_privately_and_never_in_public(env: simcord.Env) -> None:
    channel, players = await parts_table(env, 3, ["market", "module5"], money="hidden")
    rng = random.Random(4)

    def to_the_choice(st: GameState) -> None:
        while st.pending is None or st.pending.kind != "assignment":
            apply(st, rng.choice(legal_moves(st)).action)

    await rig(env, channel, players, to_the_choice)
    st = await state_in(env, channel)
    seat = st.decider
    own = {e["id"]: e for e in view(st, seat)["players"][seat]["assignments"]}
    assert sorted(own) == sorted(dealt(st, seat))
    who = decider(channel, players)
    board = "\n".join(e.description or "" for e in board_message(channel).embeds)
    assert "which of their three assignments scores" in board  # named, not revealed, not "your"
    menu = await open_menu(who, board_message(channel))
    assert "Your assignments" in menu.content
    for aid, entry in own.items():  # the hand text: each with what it would score now
        assert re.search(rf"Assignment {aid}: .* — now {entry['vp']} VP", menu.content), menu.content
    select = next(c for c in controls(menu) if (c.custom_id or "").startswith("pb:s:"))
    assert select.placeholder == "Which assignment scores…"
    labels = sorted(o.label for o in select.options)
    found = {}
    for label in labels:  # each with its words and what it would score now, from the owner's view
        # with hidden money, Assignment 6 adds what the most rubles would bring: "(+10 with the most rubles)"
        m = re.fullmatch(r"score Assignment (\d+): .+ — now (\d+) VP( \(\+\d+ [^)]*\))?", label)
        assert m is not None, label
        found[int(m.group(1))] = int(m.group(2))
    assert found == {aid: e["vp"] for aid, e in own.items()}, labels
    offered = await who.autocomplete(channel, "petersburg decide", "choice", "")
    assert sorted(c["name"] for c in offered) == labels
    others = [p for p in players if p is not who]
    assert await others[0].autocomplete(channel, "petersburg decide", "choice", "") == []
    choice = offered[0]
    reply = reply_of(await who.slash(channel, "petersburg decide", choice=choice["value"]))
    assert reply.ephemeral and reply.content.startswith("✅ score Assignment"), reply.content
    st = await state_in(env, channel)
    assert not st.finished
    public = _public_text(channel)
    assert "has chosen an assignment" in public
    for aid in own:
        assert not re.search(rf"\bAssignment {aid}\b", public), aid


async def test_BQ_15_moocher_names_the_player_in_menus_replies_and_the_record(env: simcord.Env) -> None:
    channel, players = await parts_table(env, 3, ["market", "module1"])
    names: list[str] = []

    def moocher(st: GameState) -> None:
        names.extend(st.seats)
        st.round = 2  # the first workers phase offers workers only
        seat = st.decider
        st.hands[seat] = [take_card(st, "moocher")]
        victim = (seat + 1) % st.n
        st.tableaux[victim].append(take_card(st, "senator"))

    await rig(env, channel, players, moocher)
    st = await state_in(env, channel)
    victim = st.seats[(st.decider + 1) % st.n]
    who = decider(channel, players)
    offered = await who.autocomplete(channel, "petersburg play", "card", "Moocher")
    mooch = [c for c in offered if "Senator" in c["name"]]
    assert mooch, offered
    assert all(f"of {victim} for its" in c["name"] and f"of {victim} for" in c["value"] for c in mooch), offered
    assert all("seat " not in c["name"] + c["value"] for c in offered)
    menu = await open_menu(who, board_message(channel))
    play = next(c for c in controls(menu) if (c.custom_id or "").startswith("pb:s:") and "play" in c.custom_id)
    assert any(f"of {victim} for its VP" in o.label for o in play.options), [o.label for o in play.options]
    reply = reply_of(await who.slash(channel, "petersburg play", card=mooch[0]["value"]))
    assert reply.ephemeral and f"of {victim} for its" in reply.content, reply.content
    game = await game_in(env, channel)
    store = bot_of(env).store
    assert store is not None
    rows = await store.actions(game.id)
    assert f"of {victim} for" in rows[-1].notation, rows[-1].notation


async def test_P5_04_board_embed_names_sack_and_parts_without_raw_keys(env: simcord.Env) -> None:
    """Without pictures the board is an embed: the Sack (five players without the Market), and with the Market
    and Modules 3-6 the assistants, events and each player's status at the obstacles, in words."""
    channel, players = await parts_table(env, 5, ["new_society"], edition=1)
    board = board_message(channel)
    assert any("💰" in (f.name or "") for e in board.embeds for f in e.fields), "no Sack on the board"
    channel2, players2 = await parts_table(env, 4, ["market", "module3", "module4", "module6"])
    text = "\n".join([board_message(channel2).embeds[0].description or "",
                      *[f.value or "" for f in board_message(channel2).embeds[0].fields]])
    assert "🧑‍💼" in text and "🚧 10" in text and "Events:" in text, text
    assert not RAW.search(text), RAW.search(text)


async def test_X_06_stats_and_final_scores_name_new_vp_sources(env: simcord.Env) -> None:
    """/petersburg stats and the final scores name the Sack, the Guild Hall, the Trading House, the obstacles,
    the assignment and the Moocher in words (English and German), never as raw keys."""
    channel, players = await parts_table(env, 4, ["market", "module1", "module2", "module5", "module6"])

    def sources(st: GameState) -> None:
        for i, src in enumerate(("guild_hall", "trading_house", "obstacles", "moocher", "sack", "market")):
            st.vp_by_source[i % st.n][src] = i + 1

    await rig(env, channel, players, sources)
    reply = reply_of(await players[0].slash(channel, "petersburg stats"))
    body = "\n".join([reply.content, *[e.description or "" for e in reply.embeds]])
    for word in ("Guild Hall", "Trading House", "Obstacle bonuses", "Moocher", "Sack", "Marketplace"):
        assert word in body, (word, body)
    assert not re.search(r"\b(?:source\.|guild_hall|trading_house|obstacles)\b", body), body
    rs = Ruleset(edition=2, players=4, expansions=("market",), modules=(1, 2, 5, 6))
    st = new_game(rs, ["A", "B", "C", "D"], seed=8)
    rng = random.Random(8)
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
    for lang in ("en", "de"):
        final = final_text(view(st, None), lang)
        stats = stats_text(view(st, 0), lang)
        text = "\n".join([final.description, *[f[1] for f in final.fields], stats.description])
        assert not re.search(r"\bsource\.|\b[a-z]+_[a-z_]+\b", text), text
    assert "Assignment" in "\n".join(f[1] for f in final_text(view(st, None), "en").fields)
