"""The same move twice as a game's last move. The second one is answered "already made"
(``already_done``), like any repeated move, not "This game is not in play." (the game ended with the first)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import GameService, UserError
from bot.store import Store
from rules import Action, GameState, apply, format_action, legal_moves


async def _up_to_the_last_move(svc: GameService, game_id: int) -> tuple[int, Action, int]:
    """Random legal moves until the next one would end the game: (its version, the move, the mover)."""
    rng = random.Random(5)
    for _ in range(2000):
        game = await svc.game(game_id)
        st = GameState.from_json(game.state or {})
        moves = legal_moves(st)
        for m in moves:
            after = st.copy()
            apply(after, m.action, st.decider)
            if after.finished:
                uid = game.user_at(st.decider)
                assert uid is not None
                return game.version, m.action, uid
        uid = game.user_at(st.decider)
        assert uid is not None
        await svc.act(game_id, uid, rng.choice(moves).action, version=game.version)
    raise AssertionError("the game did not come near its end")


@pytest.mark.parametrize("typed", [False, True], ids=["button", "command"])
async def test_the_last_move_twice_is_already_made(tmp_path: Path, typed: bool) -> None:
    store = await Store.open(tmp_path / "g.sqlite3")
    try:
        svc = GameService(store)
        game = await svc.create(guild_id=1, channel_id=5, user_id=10, name="Ann", seed=3)
        await svc.join(5, 11, "Bob")
        await svc.start(5, 10)
        version, action, uid = await _up_to_the_last_move(svc, game.id)
        st = GameState.from_json((await svc.game(game.id)).state or {})
        move: Action | str = format_action(action, st.ruleset.catalogue, seats=st.seats) if typed else action
        out = await svc.act(game.id, uid, move, version=version)
        assert out.state.finished and out.game.status == "finished"
        with pytest.raises(UserError) as e:
            await svc.act(game.id, uid, move, version=version)
        assert e.value.code == "already_done"
        with pytest.raises(UserError) as other:  # someone else's click on that board: the game is over
            await svc.act(game.id, 11 if uid == 10 else 10, move, version=version)
        assert other.value.code == "not_active"
    finally:
        await store.close()
