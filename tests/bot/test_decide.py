"""The one decide command: every pending decision of any part of the game is made with
``/petersburg decide choice:`` (autocomplete: exactly the pending decision's legal choices, versioned) and in
the private "Your move" menu; ``observatory`` keeps only the draw; the group stays within Discord's 25
subcommands."""

from __future__ import annotations

import random

import simcord

from bot.texts import describe_action
from cogs.components import decode, encode
from cogs.menus import select_placeholder
from rules import Action, Ruleset, apply, format_action, legal_moves, new_game

from .helpers import (
    decider_and_other,
    game_in,
    new_table,
    state_in,
)
from .test_decisions import to_the_pub_decisions


async def test_decide_offers_exactly_the_pending_choices_and_takes_a_typed_one(env: simcord.Env) -> None:
    channel, players = await new_table(env, 2)
    nothing = await players[0].autocomplete(channel, "petersburg decide", "choice", "")
    nothing += await players[1].autocomplete(channel, "petersburg decide", "choice", "")
    assert nothing == []  # a normal turn of the base game: the turn commands offer its moves
    await to_the_pub_decisions(env, channel, players)
    st = await state_in(env, channel)
    game = await game_in(env, channel)
    assert st.pending is not None and st.pending.kind == "pub"
    actor, other = decider_and_other(channel, players)
    offered = await actor.autocomplete(channel, "petersburg decide", "choice", "")
    expected = [f"v{game.version} {format_action(m.action, st.ruleset.catalogue)}" for m in legal_moves(st)]
    assert [c["value"] for c in offered] == expected and len(expected) == 6  # pub 0 ... pub 5
    assert await other.autocomplete(channel, "petersburg decide", "choice", "") == []
    seat = st.pending.seat
    vp, rubles = st.vp[seat], st.rubles[seat]
    r = await actor.slash(channel, "petersburg decide", choice="pub 2")  # typed, against the board shown
    reply = r.followups[-1] if r.followups else r.response
    assert reply is not None and reply.ephemeral and "✅" in reply.content, reply
    st = await state_in(env, channel)
    assert (st.vp[seat], st.rubles[seat]) == (vp + 2, rubles - 4)
    again = await actor.slash(channel, "petersburg decide", choice=offered[3]["value"])  # the old version
    reply = again.followups[-1] if again.followups else again.response
    assert reply is not None and reply.ephemeral and "✅" not in reply.content
    assert (await state_in(env, channel)).vp[seat] == vp + 2


async def test_observatory_keeps_only_the_draw_and_the_group_fits_discord(env: simcord.Env) -> None:
    guild = env.create_guild()
    root = env.backend.find_command("petersburg", guild.id, type=1)
    assert root is not None
    subs = {o["name"]: o for o in root["options"]}
    assert len(subs) <= 25 and "decide" in subs and "pub" not in subs
    assert [o["name"] for o in subs["observatory"]["options"]] == ["stack"]
    assert [o["name"] for o in subs["decide"]["options"]] == ["choice"]
    assert subs["decide"]["options"][0]["autocomplete"] is True


def test_menu_values_round_trip_every_legal_move() -> None:
    """The private menu encodes any legal move (the Market's roundels and decisions included) and reads it
    back unchanged; a kind without words of its own gets the general placeholder and its notation."""
    rng = random.Random(5)
    for rs in (Ruleset(edition=1, players=3), Ruleset(edition=2, players=5, expansions=("market",))):
        st = new_game(rs, [f"P{i}" for i in range(rs.players)], seed=rng.randrange(1000))
        seen = 0
        while not st.finished and seen < 400:
            moves = legal_moves(st)
            for m in moves:
                assert decode(encode(m.action)) == m.action
            apply(st, rng.choice(moves).action)
            seen += 1
    assert select_placeholder("buy", "en") == "Buy a card…"
    assert select_placeholder("jester", "en") == "Decide…" and select_placeholder("jester", "de") == "Entscheiden…"
    cat = Ruleset().catalogue
    assert describe_action(Action("pub", amount=2), 2, "en", cat=cat) == "buy 2 VP at the Pub"
    assert decode("buy|bank|1|market|0") == Action("buy", "bank", 1, "market", 0)
