"""Issue 10, defect 5: nothing secret on a public message.

With hidden money and private hands, every public message of a game (the board's embed, its controls and
picture, the turn message, the final scores while the game runs) must be the same whatever the seats'
secrets are: the test changes every seat's money and hand (keeping what is public: the hand's size) and
requires identical public messages and identical PNG bytes. A SimCord game with hidden money then checks
that the public board carries no per-move menu (which listed only what the mover could afford).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import simcord

import render
from bot.store import ACTIVE, Game, Seat
from cogs.public import public_board, turn_text
from rules import GameState, Ruleset, apply, legal_moves, new_game
from rules.autopass import arm

from .helpers import act_by_buttons, controls, setup_members, start_game


def _game(st: GameState, version: int) -> Game:
    seats = [Seat(s, 1000 + s, st.seats[s]) for s in range(st.n)]
    return Game(id=7, guild_id=1, channel_id=2, host_id=1000, ruleset=st.ruleset.to_json(), seed=1, lang="en",
                status=ACTIVE, version=version, state=None, board_message_id=None, created_at=0.0, updated_at=0.0,
                seats=seats)


def _public(st: GameState, version: int, recent: list[tuple[list[dict[str, Any]], str | None]],
            *, picture: bool) -> tuple[Any, ...]:
    game = _game(st, version)
    modes = {0: arm(st, "phase")} if not st.finished else {}
    pb = public_board(game, st, recent, modes)
    png = render.render_board(pb.spectator, "en", pb.last_action) if picture else b""
    turn = turn_text(game, st) if not st.finished else ("", None)
    return (pb.embed.to_dict(), pb.view.to_components(), turn, png)


def _change_secrets(st: GameState, rng: random.Random) -> GameState:
    """The same public game, other secrets: every seat's money, and every hand swapped with unseen cards."""
    other = st.copy()
    for s in range(other.n):
        other.rubles[s] += rng.randint(1, 40)
        for i, card in enumerate(other.hands[s]):
            decks = [d for d in other.decks.values() if d]
            if not decks:
                break
            deck = rng.choice(decks)
            j = rng.randrange(len(deck))
            other.hands[s][i], deck[j] = deck[j], card
    return other


@pytest.mark.parametrize("edition,players", [(1, 2), (1, 4), (2, 2), (2, 3), (2, 4)])
def test_public_messages_do_not_depend_on_secrets(edition: int, players: int) -> None:
    rng = random.Random(edition * 10 + players)
    st = new_game(Ruleset(edition=edition, players=players, open_money=False, open_hands=False),
                  ["Anna", "Boris", "Katharina", "Dmitri"][:players], seed=players)
    recent: list[tuple[list[dict[str, Any]], str | None]] = []
    version, checked = 0, 0
    while not st.finished:
        if version % 9 == 0:
            picture = version % 27 == 0
            assert _public(st, version, recent[-6:], picture=picture) == _public(
                _change_secrets(st, rng), version, recent[-6:], picture=picture), f"leak at version {version}"
            checked += 1
        events = apply(st, rng.choice(legal_moves(st)).action)
        recent.append((events, None))
        version += 1
    assert checked > 10


async def test_hidden_money_game_has_no_private_choices_on_public_messages(env: simcord.Env) -> None:
    """With money hidden, the public board offers the same controls to everyone; the mover's affordable
    cards, Pub amounts and hand only appear in their private menu."""
    channel = env.create_guild().create_text_channel("petersburg")
    players = setup_members(env, 3)
    await start_game(env, channel, players, money="hidden")
    for _ in range(25):
        await act_by_buttons(env, channel, players)
        for m in channel.history():
            ids = [c.custom_id or "" for c in controls(m)]
            assert all(i.startswith(("pb:y:", "pb:h:", "pb:k:", "pb:m:", "pb:l:")) for i in ids), ids
