"""``rules.advance`` (apply without building the events, for the searches) runs the same rules as ``apply``:
over random complete games of every family (``random_games.FAMILIES``), every listed action leaves the
same state either way, and an action that is not listed is refused with the same error, nothing changed.
"""

from __future__ import annotations

import pytest

from rules import BUY, PUB, Action, GameState, RuleError, advance, apply

from .random_games import FAMILIES, ROWS, Game, RandomGame, each_game

families = pytest.mark.parametrize("family", list(FAMILIES))


def refusal(step: object, st: GameState, action: Action) -> str | None:
    """The error code with which ``step`` (apply or advance) refuses ``action`` on a copy of ``st``."""
    probe = st.copy()
    before = probe.to_json()
    try:
        step(probe, action)  # type: ignore[operator]
    except RuleError as e:
        assert probe.to_json() == before, "a refused action changed the state"
        return e.code
    return None


@families
def test_advance_leaves_the_state_apply_leaves(family: str) -> None:

    @each_game(family)
    def _(game: Game) -> None:
        g = RandomGame(game)
        st = g.state
        ids = [t.id for t in st.ruleset.catalogue.types]
        for moves, move in g:
            logged, quiet = st.copy(), st.copy()
            apply(logged, move.action)
            advance(quiet, move.action)
            assert quiet.to_json() == logged.to_json(), move.action
            if g.sampled(0.2):
                legal = {m.action for m in moves}
                for a in (Action(BUY, g.sampler.choice(ids), g.sampler.choice(ROWS)), Action(PUB, amount=99)):
                    if a not in legal:
                        code = refusal(apply, st, a)
                        assert code is not None
                        assert refusal(advance, st, a) == code, a
