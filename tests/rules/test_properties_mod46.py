"""Property tests over random complete games with Module 4 (events) and Module 6 (obstacles): each,
both, always with the Market (X-02), 2-5 players (expansions.md X-10). A game is drawn as modules x
players x options x game seed x choice seed; the choice seed picks uniformly among ``legal_moves``."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from rules import Action, GameRecord, RuleError, apply, check, format_action, replay
from rules.autopass import default_action
from rules.expansions.module4 import event_ids, m4, slots
from rules.expansions.module6 import is_real, m6, placed
from rules.record import parse_for
from rules.state import DRAWN, HAND, LOWER, UPPER, GameState

from .market_helpers import MARKET_SCORE_EVENTS, assert_market_invariants
from .random_games import HEAVY, SETTINGS, Game, RandomGame
from .test_properties import candidates, card_places, rejected

MODULES = ((4,), (6,), (4, 6))


def games46() -> hs.SearchStrategy[Game]:
    return hs.builds(
        lambda modules, players, **kw: Game(edition=2, players=players, market=True, modules=modules, **kw),
        modules=hs.sampled_from(MODULES),
        players=hs.sampled_from((2, 3, 4, 5)),
        seed=hs.integers(0, 2**32 - 1),
        choice_seed=hs.integers(0, 2**32 - 1),
        mandatory_first_workers=hs.sampled_from([True, True, True, False]),
        open_money=hs.booleans(),
        open_hands=hs.booleans(),
    )


# --- invariants -----------------------------------------------------------------------------------------
def assert_invariants46(st: GameState) -> None:
    assert sorted(card_places(st)) == list(range(len(st.cards))), "a card is lost or in two places"
    assert all(r >= 0 for r in st.rubles), st.rubles
    for s in range(st.n):
        assert st.vp[s] == sum(st.vp_by_source[s].values())
    assert_market_invariants(st)
    mods = st.ruleset.modules
    if 4 in mods:
        m = m4(st)
        assert sorted(m["free"] + list(m["used"])) == sorted(event_ids())
        assert len(set(m["used"].values())) == len(m["used"]) <= st.n  # one event a player (M4-02, P5-13)
        for key, row in (("upper_slots", st.upper), ("lower_slots", st.lower)):
            held = [c for c in slots(st, key) if c >= 0]
            assert len(held) == len(set(held)) and set(held) <= set(row)
        assert len(st.upper) <= st.ruleset.display_size + 1  # + a Twin's second card
        if st.round == 1:
            assert not m["used"]
    if 6 in mods:
        m = m6(st)
        for s in range(st.n):
            for f, ob in placed(st):
                if is_real(ob) and f not in m["passed"][s]:
                    assert st.vp[s] <= f - 1, (s, f, st.vp[s])  # M6-11: held before it
        assert not m["to_pay"]
        if m["queue"]:  # choices still to make wait behind an open one
            assert st.pending is not None and st.pending.kind == "bonus", m["queue"]


@SETTINGS
@given(games46())
def test_X_10_cards_conserved_and_module_invariants_at_every_step(game: Game) -> None:
    g = RandomGame(game)
    for _ in g:
        assert_invariants46(g.state)
    assert_invariants46(g.state)
    assert g.state.finished


# --- rubles and VP only as the events say ---------------------------------------------------------------
def expected_change(events: list[dict[str, Any]], price: int, n: int) -> tuple[list[int], list[int]]:
    dr, dv = [0] * n, [0] * n
    for ev in events:
        t = ev["type"]
        s = ev.get("seat", 0)
        if t in ("buy", "play", "grab"):
            dr[s] -= ev["price"]
        elif t == "pub":
            dr[s] -= ev["rubles"]
            dv[s] += ev["vp"]
        elif t == "score":
            dr[s] += ev["rubles"]
            dv[s] += ev["vp"]
        elif t in MARKET_SCORE_EVENTS:
            dr[s] -= ev.get("rubles", 0)
            dv[s] += ev.get("vp", 0)
        elif t in ("obstacle_passed", "bonus_chosen"):
            dr[s] += ev["rubles"]
            dv[s] += ev["vp"]
        elif t == "obstacle_blocked":
            dv[s] -= ev["vp"]
        elif t == "event" and ev["event"] == "sponsor":
            for x in range(n):
                dr[x] += 6 if x == s else 2
        elif t == "game_end":
            for f in ev["final"]:
                dv[f["seat"]] += f["aristocrats"] + f["rubles_vp"] + f["hand_penalty"]
                dr[f["seat"]] -= 10 * f["rubles_vp"]
    return dr, dv


@SETTINGS
@given(games46())
def test_M6_19_rubles_and_vp_change_only_as_events_say(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    for _, move in g:
        probe = st.copy()
        events = apply(probe, move.action)
        dr, dv = expected_change(events, move.price, st.n)
        assert probe.rubles == [a + b for a, b in zip(st.rubles, dr, strict=True)], events
        assert probe.vp == [a + b for a, b in zip(st.vp, dv, strict=True)], events


# --- legal moves agree with check -----------------------------------------------------------------------
@cache
def module_candidates(ids: tuple[str, ...]) -> tuple[Action, ...]:
    """Actions of the modules' kinds with every field varied."""
    goods = ("", "fish", "?", "apple")
    out: list[Action] = []
    for ev in (*event_ids(), "nothing"):
        out.append(Action("event", ev))
        for row in (UPPER, LOWER, HAND, -1):
            out += [Action("event", ev, row, t, 0, gd) for t in ids for gd in goods[:2]]
    for c in ids:
        out += [Action("grabber", c, -1, t, 0, gd) for t in ("", *ids) for gd in goods[:2]]
        out += [Action("bonus", side, -1, c) for side in ("rubles", "vp", "")]
        out += [Action("order", c, -1, t) for t in ids]
        out += [Action(k, c, row, "", 0, gd) for k in ("buy", "take") for row in (UPPER, LOWER, DRAWN) for gd in goods]
    out += [Action("bonus", "rubles"), Action("bonus", "vp"), Action("event", "sponsor", amount=1)]
    return tuple(out)


@HEAVY
@given(games46())
def test_X_10_legal_moves_and_check_agree(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    ids = tuple(t.id for t in st.ruleset.catalogue.types)
    for moves, _ in g:
        special = st.pending is not None or any(m.action.kind in ("event", "grabber") for m in moves)
        if not (g.sampled(0.5 if special else 0.04)):
            continue
        before = st.to_json()
        legal = {m.action for m in moves}
        assert len(legal) == len(moves), "an action is listed twice"
        for m in moves:
            assert check(st, m.action)[2] == m.price, m
            probe = st.copy()
            apply(probe, m.action)
        pool = set(g.sampler.sample(module_candidates(ids), 400)) | candidates(st, legal, g.sampler, False)
        for a in pool:
            assert rejected(st, a) == (a not in legal), (a, a in legal)
        assert st.to_json() == before, "check() or apply() on a copy changed the state"


@SETTINGS
@given(games46())
def test_X_07_X_09_every_listed_move_reads_back_and_the_default_is_legal(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    cat = st.ruleset.catalogue
    for moves, _ in g:
        for m in moves:
            assert parse_for(st, format_action(m.action, cat)) == m.action, m
        assert default_action(st) in {m.action for m in moves}
        for seat in range(st.n):  # listed, but by somebody who is not deciding
            if seat != st.decider:
                with pytest.raises(RuleError):
                    apply(st, moves[0].action, seat)


@SETTINGS
@given(games46())
def test_X_10_a_seeded_game_replays_identically(game: Game) -> None:
    g = RandomGame(game)
    st = g.finish()
    cat = st.ruleset.catalogue
    rec = GameRecord(game.ruleset, game.seats, seed=game.seed, actions=[format_action(a, cat) for a in g.actions])
    again = replay(GameRecord.loads(rec.dumps()))
    assert again.to_json() == st.to_json()


def test_the_computer_players_finish_games_with_modules_4_and_6() -> None:
    """The levels normal and strong (players.ai.choose) pick among legal_moves: whole games, no error."""
    from players.ai import choose
    from rules import Ruleset, new_game

    for level, players, modules in (("normal", 3, (4, 6)), ("strong", 2, (4, 6)), ("normal", 5, (4,)),
                                    ("strong", 4, (6,))):
        rs = Ruleset(edition=2, players=players, expansions=("market",), modules=modules)
        st = new_game(rs, [f"P{i}" for i in range(players)], seed=players)
        rng = random.Random(players)
        while not st.finished:
            apply(st, choose(st, level=level, rng=rng, budget_s=0.02))
        assert st.finished
