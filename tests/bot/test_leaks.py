"""Nothing secret on a public message.

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

from .helpers import act_by_buttons, controls, new_table


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
    channel, players = await new_table(env, 3, money="hidden")
    for _ in range(25):
        await act_by_buttons(env, channel, players)
        for m in channel.history():
            ids = [c.custom_id or "" for c in controls(m)]
            assert all(i.startswith(("pb:y:", "pb:h:", "pb:k:", "pb:m:", "pb:l:")) for i in ids), ids


# --- the assignments stay secret until the end (M5-19) ------------------------------------------------------
def _other_assignments(st: GameState, seat: int) -> GameState:
    """The same game, but ``seat`` holds three other assignments (from the box: none of the others')."""
    from rules.expansions.assignments import in_play, mstate

    other = st.copy()
    m = mstate(other)
    dealt = {a for hand in m["dealt"] for a in hand}
    box = [a for a in in_play(st.n) if a not in dealt]
    assert len(box) >= 3
    m["dealt"][seat] = box[:3]
    return other


def _same_move(a: GameState, b: GameState, action: Any) -> Any:
    """``action`` of game ``a`` in game ``b``: the k-th assignment of the one who chooses is his k-th there."""
    if action.kind != "assignment":
        return action
    from rules.expansions.assignments import dealt

    seat = a.decider
    return action._replace(amount=dealt(b, seat)[dealt(a, seat).index(action.amount)])


def _everything_public(st: GameState, version: int, recent: list[tuple[list[dict[str, Any]], str | None]],
                       log: list[tuple[int, list[dict[str, Any]], str | None]], secret: int,
                       picture: bool) -> tuple[Any, ...]:
    """What anyone but the seat ``secret`` can see: the public messages and board picture, the log, the
    statistics (a spectator's and each other seat's), each other seat's hand text, menu and hand picture."""
    from bot.texts import hand_text, log_text, stats_text
    from cogs.menus import move_view
    from rules import view

    hidden = range(st.n) if not st.ruleset.open_money else ()
    names = list(st.seats)
    seen: list[Any] = [_public(st, version, recent, picture=picture),
                       log_text(log, names, st.ruleset.edition, "en", hidden=hidden),
                       stats_text(view(st, None), "en", names).description]
    for s in range(st.n):
        if s == secret:
            continue
        v = view(st, s)
        seen += [stats_text(v, "de", names).description, hand_text(v, "en")]
        if st.decider == s:
            seen.append(move_view(7, version, st, "en").to_components())
        if picture:
            seen.append(render.render_hand(v, "en"))
    return tuple(seen)


@pytest.mark.parametrize("players,modules", [(3, (5,)), (4, (1, 2, 3, 4, 5, 6))])
def test_M5_19_public_messages_do_not_depend_on_a_seats_assignments(players: int, modules: tuple[int, ...]) -> None:
    """Two games identical except for one seat's assignments show everyone else the same messages, board
    pictures, log, statistics, hand texts, menus and hand pictures, every step until the end."""
    rng = random.Random(players)
    rs = Ruleset(edition=2, players=players, open_money=False, expansions=("market",), modules=modules)
    secret = 1
    a = new_game(rs, ["Anna", "Boris", "Katharina", "Dmitri"][:players], seed=players)
    b = _other_assignments(a, secret)
    recent_a: list[tuple[list[dict[str, Any]], str | None]] = []
    recent_b: list[tuple[list[dict[str, Any]], str | None]] = []
    log_a: list[tuple[int, list[dict[str, Any]], str | None]] = []
    log_b: list[tuple[int, list[dict[str, Any]], str | None]] = []
    version = checked = 0
    chose = False
    while not a.finished:
        assert not b.finished
        if version % 5 == 0 or a.pending is not None and a.pending.kind == "assignment":
            picture = version % 40 == 0 or a.pending is not None and a.pending.kind == "assignment"
            seen_a = _everything_public(a, version, recent_a[-6:], log_a, secret, picture)
            assert seen_a == _everything_public(b, version, recent_b[-6:], log_b, secret, picture), (
                f"leak at version {version}")
            checked += 1
        action = rng.choice(legal_moves(a)).action
        chose = chose or action.kind == "assignment" and a.decider == secret
        other = _same_move(a, b, action)
        ev_a, ev_b = apply(a, action), apply(b, other)
        recent_a.append((ev_a, None))
        recent_b.append((ev_b, None))
        log_a.append((version, ev_a, None))
        log_b.append((version, ev_b, None))
        version += 1
    assert b.finished and chose and checked > 20


def test_M5_19_computer_choices_and_hints_do_not_depend_on_others_assignments() -> None:
    """A computer player (and the hint, the strong player's search) deciding for another seat chooses the same
    in both games: it sees only its own assignments (the search redeals the unseen ones)."""
    from players.ai import decide

    rs = Ruleset(edition=2, players=3, open_money=False, expansions=("market",), modules=(5,))
    a = new_game(rs, ["Anna", "Boris", "Katharina"], seed=3)
    b = _other_assignments(a, 1)
    rng = random.Random(3)
    step = checked = 0
    while not a.finished:
        if a.decider != 1 and step % 7 == 0:
            # the strong search (the hint's) at every other of these steps: it costs ten times the normal level
            for level, iterations in (("normal", None), ("strong", 60))[: 2 if step % 14 == 0 else 1]:
                mine = decide(a, None, level, step, iterations=iterations).action
                assert _same_move(a, b, mine) == decide(b, None, level, step, iterations=iterations).action, step
                checked += 1
        action = rng.choice(legal_moves(a)).action
        other = _same_move(a, b, action)
        apply(a, action)
        apply(b, other)
        step += 1
    assert checked > 20
