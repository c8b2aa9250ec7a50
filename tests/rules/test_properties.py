"""Property tests of the rules core over random complete games (hypothesis).

A game is drawn as edition x players x options (the Market with 2-5 players in a third of the
2nd-edition games) x game seed x choice seed; the choice seed drives a
``random.Random`` that picks uniformly among ``legal_moves``. Each property is checked at every step
or at sampled steps (a separate sampler, so sampling never changes the game) of the whole game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from rules import (
    BUY,
    DISCARD,
    DRAWN,
    HAND,
    LOWER,
    OBSERVE,
    PASS,
    PLAY,
    PUB,
    TAKE,
    UPPER,
    Action,
    GameRecord,
    GameState,
    Move,
    RuleError,
    Ruleset,
    apply,
    catalogue,
    check,
    format_action,
    legal_moves,
    new_game,
    parse_for,
    replay,
    view,
)
from rules.cards import DECKS
from rules.prices import SeatContext, seat_context

from .market_helpers import MARKET_KINDS, MARKET_SCORE_EVENTS, assert_market_invariants

KINDS = (BUY, TAKE, PLAY, OBSERVE, DISCARD, PUB, PASS, *MARKET_KINDS)
MAX_ACTIONS = 5000  # a random game has ~150-250 actions; this bound only catches endless games
ROWS = (UPPER, LOWER, HAND, DRAWN)
PUB_AMOUNTS = range(12)

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Event = dict[str, Any]


# --- random games --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """What hypothesis draws: enough to replay the same random game."""

    edition: int
    players: int
    seed: int
    choice_seed: int
    mandatory_first_workers: bool = True
    open_money: bool = True
    open_hands: bool = False
    market: bool = False

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset(
            edition=self.edition,
            players=self.players,
            mandatory_first_workers=self.mandatory_first_workers,
            open_money=self.open_money,
            open_hands=self.open_hands,
            expansions=("market",) if self.market else (),
        )

    @property
    def seats(self) -> list[str]:
        return [f"P{i}" for i in range(self.players)]

    def start(self) -> GameState:
        return new_game(self.ruleset, self.seats, seed=self.seed)


def games(
    open_money: hs.SearchStrategy[bool] | None = None,
    open_hands: hs.SearchStrategy[bool] | None = None,
) -> hs.SearchStrategy[Game]:
    shapes = hs.sampled_from(
        [(ed, n, False) for ed in (1, 2) for n in (2, 3, 4)] + [(2, n, True) for n in (2, 3, 4, 5, 5)]
    )
    return hs.builds(
        lambda shape, **kw: Game(edition=shape[0], players=shape[1], market=shape[2], **kw),
        shape=shapes,
        seed=hs.integers(0, 2**32 - 1),
        choice_seed=hs.integers(0, 2**32 - 1),
        mandatory_first_workers=hs.sampled_from([True, True, True, False]),
        open_money=open_money if open_money is not None else hs.booleans(),
        open_hands=open_hands if open_hands is not None else hs.booleans(),
    )


@dataclass
class RandomGame:
    """Plays ``game`` with uniformly random legal moves. Iterating yields (moves, chosen move) with
    ``state`` before the move; the move is applied when the loop body returns."""

    game: Game
    state: GameState = field(init=False)
    rng: random.Random = field(init=False)
    sampler: random.Random = field(init=False)
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)  # of the last applied action

    def __post_init__(self) -> None:
        self.state = self.game.start()
        self.rng = random.Random(self.game.choice_seed)
        self.sampler = random.Random(self.game.choice_seed ^ 0x5EED5)

    def __iter__(self) -> Iterator[tuple[list[Move], Move]]:
        st = self.state
        while not st.finished:
            assert len(self.actions) < MAX_ACTIONS, f"not finished after {MAX_ACTIONS} actions"
            moves = legal_moves(st)
            assert moves, "no legal move in an unfinished game"
            move = self.rng.choice(moves)
            yield moves, move
            self.events = apply(st, move.action)
            self.actions.append(move.action)

    def sampled(self, rate: float) -> bool:
        return self.sampler.random() < rate

    def finish(self) -> GameState:
        for _ in self:
            pass
        return self.state


def record_of(game: Game, actions: list[Action]) -> GameRecord:
    cat = game.ruleset.catalogue
    return GameRecord(game.ruleset, game.seats, seed=game.seed, actions=[format_action(a, cat) for a in actions])


# --- candidate actions ---------------------------------------------------------------------------
@cache
def candidate_universe(edition: int, market: bool = False) -> tuple[Action, ...]:
    """Every action a player could name: each kind x card ('' or a type, and the stacks for observe,
    goods for 'as') x row (none or UPPER/LOWER/HAND/DRAWN) x target ('' or a type); pub also with 1..11 VP."""
    ids = [t.id for t in catalogue(edition, ("market",) if market else ()).types]
    goods = ("chicken", "grain", "apple", "fish", "cabbage")
    out = [Action(PUB, amount=k) for k in PUB_AMOUNTS if k]
    for kind in KINDS:
        names = ("", *ids, *DECKS, "market", *goods) if kind in (OBSERVE, "as") else ("", *ids)
        for c in names:
            for r in (-1, *ROWS):
                out += [Action(kind, c, r, t) for t in ("", *ids)]
    return tuple(out)


@cache
def untargeted_candidates(edition: int, market: bool) -> tuple[Action, ...]:
    return tuple(a for a in candidate_universe(edition, market) if not a.target)


@cache
def targeted_candidates(edition: int, market: bool) -> tuple[Action, ...]:
    return tuple(a for a in candidate_universe(edition, market) if a.target)


def candidates(st: GameState, legal: set[Action], rng: random.Random, full: bool) -> set[Action]:
    """All candidates (``full``) or: every untargeted one, every target for each listed card and a
    random sample of the other targeted ones."""
    ed = st.ruleset.edition
    mk = bool(st.ruleset.expansions)
    if full:
        return set(candidate_universe(ed, mk))
    out = set(untargeted_candidates(ed, mk)) | legal
    ids = [t.id for t in st.ruleset.catalogue.types]
    for a in legal:
        if a.kind in (BUY, PLAY, TAKE, DISCARD):
            for kind in (BUY, PLAY):
                out.update(Action(kind, a.card, r, t) for r in ROWS for t in ids)
            out.update(a._replace(good=g) for g in ("", "?", "fish", "apple", "grain"))  # MK-49 roundels
    out.update(rng.sample(targeted_candidates(ed, mk), 300))
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
        if a.kind != PUB:
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
    if st.pending is not None and st.pending.kind == "observatory":
        places.append(st.pending.card)
    if "market" in st.ext:
        places += st.ext["market"]["box"]
    return places


def assert_invariants(st: GameState) -> None:
    places = card_places(st)
    assert sorted(places) == list(range(len(st.cards))), "a card is lost or in two places"
    assert all(r >= 0 for r in st.rubles), st.rubles
    for s in range(st.n):
        assert st.vp[s] == sum(st.vp_by_source[s].values()), (s, st.vp[s], st.vp_by_source[s])
    cards = st.ruleset.catalogue.cards
    in_tableaux = {c for t in st.tableaux for c in t}
    assert all(c in in_tableaux and cards[c].ability == "observatory" for c in st.face_down)
    assert len(st.upper) + len(st.lower) <= st.ruleset.display_size
    assert sorted(st.tokens) == sorted(st.ruleset.tokens)
    assert all(0 <= s < st.n for s in st.tokens.values())
    assert 0 <= st.to_move < st.n
    if st.pending is not None:
        assert 0 <= st.pending.seat < st.n
    if st.ruleset.expansions:
        assert_market_invariants(st)


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
            elif t in MARKET_SCORE_EVENTS:
                exp_r[ev["seat"]] -= ev.get("rubles", 0)
                exp_v[ev["seat"]] += ev.get("vp", 0)
            elif t == "game_end":
                for f in ev["final"]:
                    exp_v[f["seat"]] += f["aristocrats"] + f["rubles_vp"] + f["hand_penalty"]
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
            if a.kind not in (BUY, PLAY, PUB, "confirm"):
                assert m.price == 0, m
            probe = st.copy()
            spent = probe.rubles[st.decider]
            events = apply(probe, a)
            first = events[0]
            kind = {"as": "good", "confirm": "crate_confirmed", "release": "crate_released"}.get(a.kind, a.kind)
            assert first["type"] == kind and first["seat"] == st.decider, (a, first)
            if a.kind in (BUY, PLAY):
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
        pool += g.sampler.sample(candidate_universe(game.edition, game.market), 40)
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


# --- records and JSON ----------------------------------------------------------------------------
@SETTINGS
@given(games())
def test_record_replays_to_the_same_state(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    cat = game.ruleset.catalogue
    cut = g.sampler.randrange(200)
    snapshot: dict[str, Any] | None = None
    for i, (moves, _) in enumerate(g):
        if i == cut:
            snapshot = st.to_json()
        for m in moves:
            assert parse_for(st, format_action(m.action, cat)) == m.action, m.action
    rec = record_of(game, g.actions)
    assert replay(rec).to_json() == st.to_json()
    assert replay(GameRecord.loads(rec.dumps())).to_json() == st.to_json()
    if snapshot is not None:
        assert replay(record_of(game, g.actions[:cut])).to_json() == snapshot


@SETTINGS
@given(games())
def test_json_round_trip_and_continuation(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    cut = g.sampler.randrange(200)
    saved: tuple[str, Action, Any] | None = None
    for i, (_, move) in enumerate(g):
        if i == cut or g.sampled(0.2):
            d = st.to_json()
            text = json.dumps(d)
            back = GameState.from_json(json.loads(text))
            assert back.to_json() == d
            assert st.copy().to_json() == d
            if i == cut:
                saved = (text, move.action, g.rng.getstate())  # the rng has chosen ``move``
    final = st.to_json()
    assert GameState.from_json(json.loads(json.dumps(final))).to_json() == final
    if saved is None:
        return
    text, action, rng_state = saved
    resumed = GameState.from_json(json.loads(text))
    apply(resumed, action)
    rng = random.Random()
    rng.setstate(rng_state)
    for _ in range(MAX_ACTIONS):
        if resumed.finished:
            break
        apply(resumed, rng.choice(legal_moves(resumed)).action)
    assert resumed.to_json() == final


# --- the end -------------------------------------------------------------------------------------
@SETTINGS
@given(games())
def test_every_game_ends_with_consistent_scores(game: Game) -> None:
    st = RandomGame(game).finish()
    assert st.finished and st.ending
    assert legal_moves(st) == []
    with pytest.raises(RuleError):
        check(st, Action(PASS))
    assert st.winners and all(0 <= s < st.n for s in st.winners)
    best = max((st.vp[s], st.rubles[s]) for s in range(st.n))
    assert st.winners == [s for s in range(st.n) if (st.vp[s], st.rubles[s]) == best]
    assert st.final is not None and len(st.final) == st.n
    for s, f in enumerate(st.final):
        assert f["seat"] == s
        assert f["vp"] == st.vp[s] == sum(st.vp_by_source[s].values())
        assert f["rubles_left"] == st.rubles[s] and 0 <= st.rubles[s] < 10
        assert f["hand_penalty"] == -5 * len(st.hands[s])
    assert len(st.history) == st.round


# --- views ---------------------------------------------------------------------------------------
def hide_secrets(st: GameState, seat: int | None, rng: random.Random) -> GameState:
    """A copy that differs from ``st`` only in what ``seat`` may not know: the stacks' order, other
    players' hands (swapped with stack cards) when hands are private, their rubles when money is hidden."""
    other = st.copy()
    for deck in other.decks.values():
        rng.shuffle(deck)
    stacks = [d for d in other.decks.values() if d]
    for s in range(other.n):
        if s == seat:
            continue
        if not other.ruleset.open_hands and stacks:
            hand = other.hands[s]
            for i in range(len(hand)):
                deck = rng.choice(stacks)
                j = rng.randrange(len(deck))
                hand[i], deck[j] = deck[j], hand[i]
        if not other.ruleset.open_money:
            other.rubles[s] += rng.randrange(1, 30)
    return other


@SETTINGS
@given(games())
def test_views_hide_hands_money_and_stack_order(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    rs = game.ruleset
    for _ in g:
        if not g.sampled(0.15):
            continue
        for seat in (*range(st.n), None):
            v = view(st, seat)
            json.dumps(v)
            assert "decks" not in v
            assert v["stacks"] == {k: len(d) for k, d in st.decks.items()}
            for s, p in enumerate(v["players"]):
                if s == seat:
                    assert p["hand"] is not None and p["rubles"] == st.rubles[s]
                    continue
                if not rs.open_hands:
                    assert p["hand"] is None
                if not rs.open_money:
                    assert p["rubles"] is None
            assert view(hide_secrets(st, seat, g.sampler), seat) == v, "the view depends on a secret"


@SETTINGS
@given(games(open_money=hs.just(False)))
def test_view_history_hides_money(game: Game) -> None:
    g = RandomGame(game)
    st = g.state
    for _ in g:
        if not g.sampled(0.2):
            continue
        for seat in (*range(st.n), None):
            for h, real in zip(view(st, seat)["history"], st.history, strict=True):
                shown = h.get("rubles")
                assert shown is None or all(r is None for s, r in enumerate(shown) if s != seat), h
                if seat is not None and shown is not None:
                    assert shown[seat] == real["rubles"][seat]
