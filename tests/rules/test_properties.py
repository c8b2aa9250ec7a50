"""Property tests of the rules core over random complete games of every part of the game (hypothesis;
X-10). One suite for all parts: each test runs once per family of
``random_games.FAMILIES`` (the base game, the Market, the Banquet, IBG/SP+/Module 2, Modules 3 and 5,
Modules 4 and 6), whose games are drawn as shape x options x game seed x choice seed; the choice seed
drives a ``random.Random`` that picks uniformly among ``legal_moves``. Each property is checked at
every step or at sampled steps (a separate sampler, so sampling never changes the game).
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from rules import (
    BUY,
    DISCARD,
    HAND,
    LOWER,
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
from rules.describe import describe
from rules.expansions.module4 import event_ids
from rules.prices import SeatContext, seat_context
from rules.state import DRAWN

from .invariants import assert_invariants, expected_change
from .random_games import FAMILIES, KINDS, PUB_AMOUNTS, ROWS, Game, RandomGame, each_game

SILENT = {"dealt", "score", "marketplace"}  # events that may have no line of their own
GOODS = ("chicken", "grain", "apple", "fish", "cabbage")
families = pytest.mark.parametrize("family", list(FAMILIES))


# --- candidate actions ---------------------------------------------------------------------------
@cache
def candidate_universe(edition: int, market: bool = False, extras: tuple[str, ...] = ()) -> tuple[Action, ...]:
    """Every action a player could name: each kind x card ('' or a type, and the stacks for observe,
    goods for 'as') x row (none or UPPER/LOWER/HAND/DRAWN) x target ('' or a type); pub also with 1..11 VP.
    ``extras``: the card files of the game (the Market's, the Banquet's)."""
    ids = [t.id for t in catalogue(edition, extras or (("market",) if market else ())).types]
    out = [Action(PUB, amount=k) for k in PUB_AMOUNTS if k]
    out += [Action("assignment", amount=k) for k in range(17)]  # M5-02: an assignment's number
    out += [Action(k, amount=a) for k in ("guild_hall", "trading_house", "sycophant", "prison") for a in range(7)]
    for kind in KINDS:
        names = ("", *ids, *DECKS, "market", *GOODS) if kind in (OBSERVE, "as") else ("", *ids)
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


@cache
def module46_candidates(ids: tuple[str, ...]) -> tuple[Action, ...]:
    """Actions of the kinds of Modules 4 and 6 (events, the Grabber, bonuses, the order of two cards)
    with every field varied."""
    goods = ("", "fish")
    out: list[Action] = []
    for ev in (*event_ids(), "nothing"):
        out.append(Action("event", ev))
        for r in (UPPER, LOWER, HAND, -1):
            out += [Action("event", ev, r, t, 0, gd) for t in ids for gd in goods]
    for c in ids:
        out += [Action("grabber", c, -1, t, 0, gd) for t in ("", *ids) for gd in goods]
        out += [Action("bonus", side, -1, c) for side in ("rubles", "vp", "")]
        out += [Action("order", c, -1, t) for t in ids]
        out += [Action(k, c, r, "", 0, gd) for k in ("buy", "take") for r in (UPPER, LOWER, DRAWN)
                for gd in ("", "fish", "?", "apple")]
    out += [Action("bonus", "rubles"), Action("bonus", "vp"), Action("event", "sponsor", amount=1)]
    return tuple(out)


def purple_in_hand(st: GameState) -> bool:
    return any(st.cards[c].colour == "purple" for c in st.hands[st.decider])


def purple_candidates(st: GameState, rng: random.Random) -> list[Action]:
    """Plays of the purple cards in the decider's hand (the Banquet) with any target, player and choice,
    and Pickpocket actions with any card, row and amount: a sample of each."""
    ids = [t.id for t in st.ruleset.catalogue.types]
    out: list[Action] = []
    for card in {st.cards[c].id for c in st.hands[st.decider] if st.cards[c].colour == "purple"}:
        for _ in range(60):
            out.append(Action(PLAY, card, rng.choice((HAND, HAND, UPPER)), rng.choice(("", *ids)),
                              rng.randrange(st.n + 1), rng.choice(("", "", "rubles", "vp", "fish"))))
    for _ in range(40):
        out.append(Action("pickpocket", rng.choice(("", *ids)), rng.choice((UPPER, LOWER, HAND, -1)),
                          rng.choice(("", *ids)) if rng.random() < 0.2 else "", rng.randrange(4)))
    return out


# A step checked in ``full`` takes this many actions of the whole universe (190,000-375,000 actions, by the
# catalogue), any other sampled step this many of the untargeted ones (3,900-5,400): each step draws its own,
# so a game's steps cover the untargeted candidates many times over
FULL_SAMPLE = 90_000
UNTARGETED_SAMPLE = 1_500


def candidates(st: GameState, legal: set[Action], rng: random.Random, full: bool) -> set[Action]:
    """A sample of ``FULL_SAMPLE`` of all candidates (``full``) or: ``UNTARGETED_SAMPLE`` untargeted ones,
    every target for each listed card, each listed action with a field changed and a random sample of the
    other targeted ones; with Modules 4 or 6 a sample of their actions, with the Banquet the purple plays."""
    rs = st.ruleset
    ed, mk, extras = rs.edition, bool(rs.expansions), rs.catalogue.extras
    pool, size = ((candidate_universe(ed, mk, extras), FULL_SAMPLE) if full
                  else (untargeted_candidates(ed, mk, extras), UNTARGETED_SAMPLE))
    out = set(rng.sample(pool, min(size, len(pool)))) | legal
    ids = [t.id for t in rs.catalogue.types]
    for a in legal:
        if a.kind in (BUY, PLAY, TAKE, DISCARD):
            for kind in (BUY, PLAY):
                out.update(Action(kind, a.card, r, t) for r in ROWS for t in ids)
            out.update(a._replace(good=g) for g in ("", "?", "fish", "apple", "grain"))  # MK-49 roundels
        out.update((a._replace(amount=a.amount + 1), a._replace(row=0), a._replace(target="bank")))
    out.update(rng.sample(targeted_candidates(ed, mk, extras), 300))
    if 4 in rs.modules or 6 in rs.modules:
        out.update(rng.sample(module46_candidates(tuple(ids)), 400))
    if 1 in rs.modules:
        out.update(purple_candidates(st, rng))
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


# --- invariants, rubles and VP -------------------------------------------------------------------
@families
def test_cards_conserved_and_invariants_at_every_step(family: str) -> None:

    @each_game(family)
    def _(game: Game) -> None:
        g = RandomGame(game)
        assert_invariants(g.state)
        for _ in g:
            assert_invariants(g.state)
        assert_invariants(g.state)
        assert g.state.finished


@families
def test_rubles_and_vp_change_only_as_events_say_and_every_event_has_words(family: str) -> None:
    """M6-19 among them; every event has a line in English and German (describe)."""

    @each_game(family)
    def _(game: Game) -> None:
        g = RandomGame(game)
        st = g.state
        for _, move in g:
            probe = st.copy()
            events = apply(probe, move.action)
            dr, dv = expected_change(events, move, st.n)
            assert probe.rubles == [a + b for a, b in zip(st.rubles, dr, strict=True)], events
            assert probe.vp == [a + b for a, b in zip(st.vp, dv, strict=True)], events
            for ev in events:
                if ev["type"] not in SILENT:
                    for lang in ("en", "de"):
                        assert describe(ev, st.seats, st.ruleset.edition, lang), (ev, lang)


def context_facts(ctx: SeatContext) -> tuple[object, ...]:
    return (ctx.tableau, ctx.face_down, ctx.off, ctx.targets, ctx.hand_limit, ctx.observatory)


@families
def test_cached_seat_contexts_equal_fresh_ones(family: str) -> None:
    """The engine keeps each seat's SeatContext between decisions and extends it when a card is added:
    at every step, what it hands out equals a context built from scratch."""

    @each_game(family)
    def _(game: Game) -> None:
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
FIRST_EVENT = {"as": "good", "confirm": "crate_confirmed", "release": "crate_released",
               "assignment": "assignment_chosen", "bonus": "bonus_chosen"}
UNNAMED = ("put_back", "note")  # M2-04's card back on the pile; a purple card, the Pickpocket (BQ-26)
MODULE4_KINDS = ("event", "grabber", "order", "twin")  # their first event may be another's (a take, a discard)


@families
def test_listed_actions_apply_at_their_price(family: str) -> None:

    @each_game(family, heavy=True)
    def _(game: Game) -> None:
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
                if a.kind not in (BUY, PLAY, PUB, "confirm", "pickpocket", "sycophant", "trading_house", "grabber"):
                    assert m.price == 0, m
                probe = st.copy()
                spent = probe.rubles[st.decider]
                first = apply(probe, a)[0]
                assert first["seat"] == st.decider, (a, first)
                if first["type"] not in UNNAMED and a.kind not in MODULE4_KINDS:
                    assert first["type"] == FIRST_EVENT.get(a.kind, a.kind), (a, first)
                if first["type"] in (BUY, PLAY):
                    assert first["price"] == m.price
                    assert m.price <= spent
            assert st.to_json() == before, "check() or apply() on a copy changed the state"


@families
def test_unlisted_actions_are_rejected(family: str) -> None:
    """X-10: whatever a player could name is refused exactly when ``legal_moves`` does not list it; at
    sampled steps, more often where a decision is open; where Module 4's actions are listed (most turns
    from round 2 on), those actions and their variants as often, the turn's other candidates at the usual
    rate; with the Banquet, the purple plays and its decisions at every step where they can come up."""

    @each_game(family, heavy=True)
    def _(game: Game) -> None:
        g = RandomGame(game)
        st = g.state
        ids = tuple(t.id for t in st.ruleset.catalogue.types)
        # in a third of the games one step is checked against a large sample of every candidate
        full_at = g.sampler.randrange(150) if g.sampled(1 / 3) else -1
        for i, (moves, _) in enumerate(g):
            full = i == full_at
            own = [m.action for m in moves if m.action.kind in ("event", "grabber")]
            special = st.pending is not None or bool(own)
            legal = {m.action for m in moves}
            if full or g.sampled(0.5 if st.pending is not None else 0.06):
                pool = candidates(st, legal, g.sampler, full)
            elif own and g.sampled(0.5):
                pool = set(g.sampler.sample(module46_candidates(ids), 400)) | {
                    v for a in own for v in (a._replace(amount=a.amount + 1), a._replace(row=0),
                                             a._replace(target="bank"), a._replace(good="fish"))}
                if 1 in st.ruleset.modules:
                    pool |= set(purple_candidates(st, g.sampler))
            elif 1 in st.ruleset.modules and (purple_in_hand(st) or special):
                pool = set(purple_candidates(st, g.sampler))
            else:
                continue
            for a in pool | legal:
                assert rejected(st, a) == (a not in legal), (a, a in legal, st.pending)


@families
def test_actions_with_unused_fields_are_rejected(family: str) -> None:

    @each_game(family)
    def _(game: Game) -> None:
        g = RandomGame(game)
        st = g.state
        for moves, _ in g:
            for a in non_canonical(game.edition, {m.action for m in moves}, game.market):
                assert rejected(st, a), a


@families
def test_state_unchanged_when_check_or_apply_raises(family: str) -> None:

    @each_game(family)
    def _(game: Game) -> None:
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
