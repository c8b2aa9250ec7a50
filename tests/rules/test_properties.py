"""Property tests of the rules core over random complete games (hypothesis).

A game is drawn as edition x players x options (the Market with 2-5 players in a third of the
2nd-edition games) x game seed x choice seed; the choice seed drives a
``random.Random`` that picks uniformly among ``legal_moves``. Each property is checked at every step
or at sampled steps (a separate sampler, so sampling never changes the game) of the whole game.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given

from rules import (
    BUY,
    DISCARD,
    OBSERVE,
    PASS,
    PLAY,
    PUB,
    TAKE,
    UPPER,
    Action,
    GameState,
    RuleError,
    Ruleset,
    apply,
    catalogue,
    check,
    new_game,
    parse_for,
)
from rules.cards import DECKS
from rules.prices import SeatContext, seat_context

from .banquet_helpers import assert_banquet_invariants
from .market_helpers import MARKET_SCORE_EVENTS, assert_market_invariants
from .module35_helpers import assert_module_invariants
from .random_games import (
    HEAVY,
    KINDS,
    PUB_AMOUNTS,
    ROWS,
    SETTINGS,
    Game,
    RandomGame,
    games,
)


# --- candidate actions ---------------------------------------------------------------------------
@cache
def candidate_universe(edition: int, market: bool = False, extras: tuple[str, ...] = ()) -> tuple[Action, ...]:
    """Every action a player could name: each kind x card ('' or a type, and the stacks for observe,
    goods for 'as') x row (none or UPPER/LOWER/HAND/DRAWN) x target ('' or a type); pub also with 1..11 VP.
    ``extras``: the card files of the game (the Market's, the Banquet's)."""
    ids = [t.id for t in catalogue(edition, extras or (("market",) if market else ())).types]
    goods = ("chicken", "grain", "apple", "fish", "cabbage")
    out = [Action(PUB, amount=k) for k in PUB_AMOUNTS if k]
    out += [Action("assignment", amount=k) for k in range(17)]  # M5-02: an assignment's number
    for kind in KINDS:
        names = ("", *ids, *DECKS, "market", *goods) if kind in (OBSERVE, "as") else ("", *ids)
        for c in names:
            for r in (-1, *ROWS):
                out += [Action(kind, c, r, t) for t in ("", *ids)]
    return tuple(out)


@cache
def untargeted_candidates(edition: int, market: bool, extras: tuple[str, ...] = ()) -> tuple[Action, ...]:
    return tuple(a for a in candidate_universe(edition, market, extras) if not a.target)


@cache
def targeted_candidates(edition: int, market: bool, extras: tuple[str, ...] = ()) -> tuple[Action, ...]:
    return tuple(a for a in candidate_universe(edition, market, extras) if a.target)


def candidates(st: GameState, legal: set[Action], rng: random.Random, full: bool) -> set[Action]:
    """All candidates (``full``) or: every untargeted one, every target for each listed card and a
    random sample of the other targeted ones."""
    ed = st.ruleset.edition
    mk = bool(st.ruleset.expansions)
    extras = st.ruleset.catalogue.extras
    if full:
        return set(candidate_universe(ed, mk, extras))
    out = set(untargeted_candidates(ed, mk, extras)) | legal
    ids = [t.id for t in st.ruleset.catalogue.types]
    for a in legal:
        if a.kind in (BUY, PLAY, TAKE, DISCARD):
            for kind in (BUY, PLAY):
                out.update(Action(kind, a.card, r, t) for r in ROWS for t in ids)
            out.update(a._replace(good=g) for g in ("", "?", "fish", "apple", "grain"))  # MK-49 roundels
    out.update(rng.sample(targeted_candidates(ed, mk, extras), 300))
    return out


def non_canonical(edition: int, legal: set[Action], roundels: bool = False) -> set[Action]:
    """Listed actions with a field their kind does not use filled in (e.g. a pass with a card)."""
    some_id = catalogue(edition).types[0].id
    out: set[Action] = set()
    for a in legal:
        if a.kind in (PASS, PUB, OBSERVE):
            out.add(a._replace(row=UPPER))
            out.add(a._replace(target=some_id))
            out.add(a._replace(good="fish"))
        if a.kind in (PASS, PUB):
            out.add(a._replace(card=some_id))
        if a.kind in (TAKE, DISCARD):
            out.add(a._replace(target=some_id))
        if a.kind != PUB and a.good not in ("rubles", "vp"):  # the Moocher's amount names a seat
            out.add(a._replace(amount=3))
        if not roundels:
            out.add(a._replace(good="fish"))
    return out - legal


def rejected(st: GameState, action: Action, seat: int | None = None) -> bool:
    try:
        check(st, action, seat)
    except RuleError:
        return True
    return False


# --- invariants ----------------------------------------------------------------------------------
def card_places(st: GameState) -> list[int]:
    """Every physical card where it lies, once per place it appears in."""
    places: list[int] = []
    for deck in st.decks.values():
        places += deck
    places += st.upper + st.lower + st.discard
    for h in st.hands:
        places += h
    for t in st.tableaux:
        places += t
    p = st.pending
    if p is not None and st.ruleset.hooks.decisions[p.kind].drawn and p.card >= 0 and p.card not in st.discard:
        places.append(p.card)  # drawn (Observatory), or picked from the discard pile (M2-04)
    if "market" in st.ext:
        places += st.ext["market"]["box"]
    if "banquet" in st.ext:  # played purple cards in the box, Jester and Banquet on their cards
        places += st.ext["banquet"]["box"] + [a for a, _, _ in st.ext["banquet"]["attached"]]
    cat = st.ruleset.catalogue
    places += [c for c, t in enumerate(cat.cards) if t.id in cat.removed]  # in the box from the start
    return places


def assert_invariants(st: GameState) -> None:
    places = card_places(st)
    assert sorted(places) == list(range(len(st.cards))), "a card is lost or in two places"
    assert all(r >= 0 for r in st.rubles), st.rubles
    for s in range(st.n):
        assert st.vp[s] == sum(st.vp_by_source[s].values()), (s, st.vp[s], st.vp_by_source[s])
    cards = st.ruleset.catalogue.cards
    in_tableaux = {c for t in st.tableaux for c in t}
    # face down: a used Observatory (rules-notes 8) or Debtor's Prison (M2-04), always in a tableau
    assert all(c in in_tableaux and cards[c].ability in ("observatory", "debtors_prison") for c in st.face_down)
    # the first workers phase shows 2 per player (rules-notes 1; P5-09: 10 of a display of 8)
    assert len(st.upper) + len(st.lower) <= max(st.ruleset.display_size, st.ruleset.first_workers)
    assert sorted(st.tokens) == sorted(st.ruleset.tokens)
    assert all(0 <= s < st.n for s in st.tokens.values())
    assert 0 <= st.to_move < st.n
    if st.pending is not None:
        assert 0 <= st.pending.seat < st.n
    if "market" in st.ruleset.expansions:
        assert_market_invariants(st)
    if st.ruleset.modules:
        assert_module_invariants(st)
    if 1 in st.ruleset.modules:
        assert_banquet_invariants(st)


@SETTINGS
@given(games())
def test_cards_conserved_and_invariants_at_every_step(game: Game) -> None:
    g = RandomGame(game)
    assert_invariants(g.state)
    for _ in g:
        assert_invariants(g.state)
    assert_invariants(g.state)


@SETTINGS
@given(games())
def test_rubles_and_vp_change_only_as_events_say(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    for _, move in g:
        rubles, vp = list(st.rubles), list(st.vp)
        events = apply(probe := st.copy(), move.action)
        exp_r, exp_v = list(rubles), list(vp)
        for ev in events:
            t = ev["type"]
            if t in (BUY, PLAY):
                assert ev["price"] == move.price
                exp_r[ev["seat"]] -= ev["price"]
            elif t == PUB:
                assert ev["rubles"] == move.price == 2 * ev["vp"]
                exp_r[ev["seat"]] -= ev["rubles"]
                exp_v[ev["seat"]] += ev["vp"]
            elif t == "score":
                exp_r[ev["seat"]] += ev["rubles"]
                exp_v[ev["seat"]] += ev["vp"]
            elif t == "note":  # an expansion's log line, with what it gives (BQ-15, BQ-19)
                exp_r[ev["seat"]] += ev.get("gain_rubles", 0)
                exp_v[ev["seat"]] += ev.get("gain_vp", 0)
            elif t in ("sack", "guild_hall"):  # P5-08; M2-09: what they give
                exp_r[ev["seat"]] += ev.get("rubles", 0)
                exp_v[ev["seat"]] += ev["vp"]
            elif t in ("trading_house", "sycophant"):  # M2-03: 3 rubles for 2 VP; M2-05: 1 ruble each kept
                exp_r[ev["seat"]] -= ev["rubles"]
                exp_v[ev["seat"]] += ev.get("vp", 0)
            elif t in MARKET_SCORE_EVENTS:
                exp_r[ev["seat"]] -= ev.get("rubles", 0)
                exp_v[ev["seat"]] += ev.get("vp", 0)
            elif t == "game_end":
                for f in ev["final"]:
                    exp_v[f["seat"]] += (f["aristocrats"] + f["rubles_vp"] + f["hand_penalty"]
                                         + f.get("assignment_vp", 0))
                    exp_r[f["seat"]] -= 10 * f["rubles_vp"]
        assert probe.rubles == exp_r, events
        assert probe.vp == exp_v, events


def context_facts(ctx: SeatContext) -> tuple[object, ...]:
    return (ctx.tableau, ctx.face_down, ctx.off, ctx.targets, ctx.hand_limit, ctx.observatory)


@SETTINGS
@given(games())
def test_cached_seat_contexts_equal_fresh_ones(game: Game) -> None:
    """The engine keeps each seat's SeatContext between decisions and extends it when a card is added:
    at every step, what it hands out equals a context built from scratch."""
    g = RandomGame(game)
    st = g.state
    for _ in g:
        for seat in range(st.n):
            assert context_facts(seat_context(st, seat)) == context_facts(SeatContext.fresh(st, seat))


@pytest.mark.parametrize("edition", [1, 2])
def test_extended_context_equals_fresh_for_every_card(edition: int) -> None:
    """Adding any card (discounts, Warehouses, Observatories, trading cards...) to a tableau by hand:
    the extended context equals a fresh one, with and without a face-down Observatory."""
    st = new_game(Ruleset(edition=edition, players=2), ["A", "B"], seed=edition)
    cards = st.cards
    firsts = {t: next(c for c, tt in enumerate(cards) if tt is t) for t in st.ruleset.catalogue.types}
    observatory = next(c for c, t in enumerate(cards) if t.ability == "observatory")
    workers = [c for c in range(len(cards)) if cards[c].deck == "workers"][:4]
    for t, c in firsts.items():
        # no Observatory yet / a face-down one before it / the added card itself face down
        for base, face_down in ((workers, set()), (workers + [observatory], {observatory}), (workers, {c})):
            if c in base:
                continue
            st.face_down = set(face_down)
            st.tableaux[0] = list(base)
            seat_context(st, 0)
            st.tableaux[0].append(c)
            assert context_facts(seat_context(st, 0)) == context_facts(SeatContext.fresh(st, 0)), t.id


# --- legal moves agree with check ----------------------------------------------------------------
@HEAVY
@given(games())
def test_listed_actions_apply_at_their_price(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    for moves, _ in g:
        if not g.sampled(0.25):
            continue
        before = st.to_json()
        assert len({m.action for m in moves}) == len(moves), "an action is listed twice"
        for m in moves:
            a = m.action
            _, _, pr = check(st, a)
            assert pr == m.price, (a, pr, m.price)
            if a.kind not in (BUY, PLAY, PUB, "confirm", "pickpocket", "sycophant", "trading_house"):
                assert m.price == 0, m
            probe = st.copy()
            spent = probe.rubles[st.decider]
            events = apply(probe, a)
            first = events[0]
            kind = {"as": "good", "confirm": "crate_confirmed", "release": "crate_released",
                    "assignment": "assignment_chosen"}.get(a.kind, a.kind)
            if first["type"] == "put_back":  # the Debtor's Prison's card back on the pile (M2-04)
                kind = "put_back"
            if first["type"] == "note":  # a purple card, the Pickpocket, the Black Market (BQ-26)
                kind = "note"
            assert first["type"] == kind and first["seat"] == st.decider, (a, first)
            if first["type"] in (BUY, PLAY):
                assert first["price"] == m.price
                assert m.price <= spent
        assert st.to_json() == before, "check() or apply() on a copy changed the state"


@HEAVY
@given(games())
def test_unlisted_actions_are_rejected(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    # in a third of the games one step is checked against every candidate (~90,000 actions)
    full_at = g.sampler.randrange(150) if g.sampled(1 / 3) else -1
    for i, (moves, _) in enumerate(g):
        full = i == full_at
        if not (full or g.sampled(0.06)):
            continue
        legal = {m.action for m in moves}
        for a in candidates(st, legal, g.sampler, full):
            assert rejected(st, a) == (a not in legal), (a, a in legal)


@SETTINGS
@given(games())
def test_actions_with_unused_fields_are_rejected(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    for moves, _ in g:
        for a in non_canonical(game.edition, {m.action for m in moves}, game.market):
            assert rejected(st, a), a


@SETTINGS
@given(games())
def test_state_unchanged_when_check_or_apply_raises(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    ids = [t.id for t in st.ruleset.catalogue.types]
    for moves, _ in g:
        if not g.sampled(0.15):
            continue
        before = st.to_json()
        legal = {m.action for m in moves}
        pool = [Action(BUY, g.sampler.choice(ids), g.sampler.choice(ROWS)), Action(PUB, amount=99)]
        pool += g.sampler.sample(candidate_universe(game.edition, game.market, st.ruleset.catalogue.extras), 40)
        for a in pool:
            if a in legal:
                continue
            with pytest.raises(RuleError):
                check(st, a)
            with pytest.raises(RuleError):
                apply(st, a)
            assert st.to_json() == before, a
        for seat in range(st.n):  # listed actions, but by someone who is not deciding
            if seat == st.decider:
                continue
            for m in moves[:5]:
                with pytest.raises(RuleError):
                    apply(st, m.action, seat)
                assert st.to_json() == before
        for text in ("", "jump", "buy", "buy Nobody", "pub x", "observe nowhere", "pass now"):
            with pytest.raises(RuleError):
                apply(st, parse_for(st, text))
            assert st.to_json() == before
    assert g.state.finished
    final = st.to_json()
    with pytest.raises(RuleError):
        apply(st, Action(PASS))
    assert st.to_json() == final
