"""The flow of a game: setup, carrying out a turn, and phases and rounds (seed 000 / 001 "Der Ablauf
des Spiels"; BG-01, BG-03, BG-11 … BG-13). Pending decisions carry themselves out (``Hooks.decisions``);
each phase's scoring is a list of named steps (``Phase.steps``, ``Hooks.steps``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .actions import BUY, OBSERVE, PASS, PLAY, TAKE, Action, split_good
from .cards import CardType, Catalogue
from .checks import check
from .hooks import Event, Events
from .lots import shuffle
from .moves import BEFORE_ACTION
from .ruleset import Ruleset
from .scoring import end_game
from .seat_stats import SeatStats
from .state import ROW_NAMES, UPPER, GameState, Pending, remove_card


# --- setup ------------------------------------------------------------------------------------
def deal_tokens(
    n: int, rng: random.Random, tokens: Sequence[str] = ("hammer", "cathedral", "bust", "hand")
) -> dict[str, int]:
    """Start-player tokens (BG-01; MK-08): each player gets as many as all can get alike (two
    each with two players and four tokens), the rest go by lot to different players."""
    order = list(tokens)
    shuffle(rng, order)
    each = 2 if n == 2 else 1
    owners = [s for s in range(n) for _ in range(each)]
    extra = len(order) - len(owners)
    if extra == 1:
        owners.append(rng.randrange(n))
    elif extra > 1:
        owners.extend(rng.sample(range(n), extra))  # AMB-02: to different players
    return {tok: owners[i] for i, tok in enumerate(order)}


def _named_copy(cat: Catalogue, pool: list[int], name: str) -> int | None:
    """X-09: the first card of ``pool`` named ``name``; ``Ship Builder [fish]`` names the copy with
    that market roundel (copies that differ in it are told apart, MK-49), a bare name any copy."""
    bare, good = split_good(name)
    t = cat.lookup(bare)
    if t is None:
        return None
    for c in pool:
        if cat.cards[c] is t and (not good or cat.copy_goods[c] == good):
            return c
    return None


def new_game(
    ruleset: Ruleset,
    seats: Sequence[str],
    seed: int | None = None,
    stacks: Mapping[str, Sequence[str]] | None = None,
    tokens: dict[str, int] | None = None,
    given: Mapping[str, Any] | None = None,
) -> GameState:
    """A new game, with stacks shuffled from ``seed`` or given explicitly (type ids, top card first).

    Explicit stacks are for tests, puzzles and bug reports; stacks left out are shuffled from ``seed``.
    """
    if len(seats) != ruleset.players:
        raise ValueError(f"the ruleset is for {ruleset.players} players, {len(seats)} seats given")
    cat = ruleset.catalogue
    rng = random.Random(seed)
    decks: dict[str, list[int]] = {}
    for deck in ruleset.decks:
        ids = cat.deck_cards(deck)
        if stacks is not None and deck in stacks:
            pool = list(ids)
            order: list[int] = []
            for name in stacks[deck]:
                match = _named_copy(cat, pool, name)
                if match is None:
                    raise ValueError(f"stack {deck!r}: no (more) card {name!r} in this deck")
                pool.remove(match)
                order.append(match)
            shuffle(rng, pool)
            ids = order + pool  # named cards on top, the rest below in random order
        else:
            shuffle(rng, ids)
        decks[deck] = ids[::-1]  # top card at the end
    n = ruleset.players
    st = GameState(
        ruleset=ruleset,
        seats=list(seats),
        decks=decks,
        upper=[],
        lower=[],
        discard=[],
        rubles=[ruleset.starting_rubles] * n,
        vp=[0] * n,
        hands=[[] for _ in range(n)],
        tableaux=[[] for _ in range(n)],
        face_down=set(),
        tokens=dict(tokens) if tokens is not None else deal_tokens(n, rng, ruleset.tokens),
        seed=seed,
        vp_by_source=[{} for _ in range(n)],
        stats=[SeatStats() for _ in range(n)],
    )
    if sorted(st.tokens) != sorted(ruleset.tokens) or not all(0 <= s < n for s in st.tokens.values()):
        raise ValueError(f"tokens must give each of {', '.join(ruleset.tokens)} to a seat")
    fields = dict(given or {})
    unknown = set(fields) - set(ruleset.hooks.record_fields)
    if unknown:
        raise ValueError(f"this ruleset has no setup field {', '.join(sorted(unknown))}")
    for setup in ruleset.hooks.setups:
        setup(st, rng, fields)
    # The very first worker phase shows 2 workers per player (BG-01).
    _deal(st, ruleset.phases[0].deck, ruleset.first_workers, [])
    _begin_actions(st)
    for react in ruleset.hooks.phase_start:
        react(st, [])
    return st


# --- apply ---------------------------------------------------------------------------------------
def apply(st: GameState, action: Action, seat: int | None = None) -> list[Event]:
    """Validate and carry out ``action`` in place; return the events it caused (for the game log).

    On a RuleError nothing has changed.
    """
    checked = check(st, action, seat)
    events: list[Event] = []
    _apply(st, action, checked, events)
    if st.ruleset.hooks.interrupts:
        _interrupt(st, events)
    return events


def advance(st: GameState, action: Action) -> None:
    """``apply`` without the game's log, for the searches' playouts: the same check (RuleError, nothing
    changed) and the same rules carry ``action`` out, leaving the state ``apply`` leaves; only the events
    that record what happened are not built (``Events`` None)."""
    _apply(st, action, check(st, action, None), None)
    if st.ruleset.hooks.interrupts:
        _interrupt(st, None)


def _interrupt(st: GameState, events: Events) -> None:
    interrupts = st.ruleset.hooks.interrupts
    if interrupts and not st.finished:  # before the game waits: decisions queued meanwhile (M6-18)
        for opened in interrupts:
            if opened(st, events):
                break


def _logged(events: Events, caused: list[Event]) -> None:
    """What a part's decision or action returned joins the log (nothing to do without one)."""
    if events is not None:
        events.extend(caused)


def _apply(st: GameState, action: Action, checked: tuple[int, int, int], events: Events) -> None:
    p = st.pending
    st.action_count += 1
    hooks = st.ruleset.hooks
    if p is not None:
        _logged(events, hooks.decisions[p.kind].apply(st, p, action, checked))
        return
    card, target, pr = checked
    kind = action.kind
    decider = st.to_move
    if hooks.before_action:  # only parts with steps before the action set BEFORE_ACTION
        before = hooks.before_action.get(kind)
        if before is not None:  # no action; his regular turn follows (M4-03)
            st.ext[BEFORE_ACTION] = decider
            _logged(events, before.apply(st, decider, action, checked))
            return
        st.ext.pop(BEFORE_ACTION, None)
    if kind == PASS:
        st.passes += 1
        if events is not None:
            events.append({"type": "pass", "seat": decider})
        next_turn(st, events)
        return
    if kind == OBSERVE:
        st.face_down.add(card)
        drawn = st.decks[action.card].pop()
        st.pending = Pending("observatory", decider, drawn, card)
        if events is not None:
            events.append({"type": "observe", "seat": decider, "deck": action.card, "card": st.cards[drawn].id})
        return
    row = action.row
    if kind == TAKE:
        remove_card(st.upper if row == UPPER else st.lower, card)
        st.hands[decider].append(card)
        st.stats[decider].took()
        if events is not None:
            events.append({"type": "take", "seat": decider, "card": st.cards[card].id, "row": ROW_NAMES[row]})
    elif kind == PLAY and hooks.hand_plays and st.cards[card].ability in hooks.hand_plays:
        # a hand card played as an action (Hooks.hand_plays): never a pass (AMB-22)
        _logged(events, hooks.hand_plays[st.cards[card].ability or ""].apply(st, decider, action, checked))
    elif kind in (BUY, PLAY):
        remove_card(st.hands[decider] if kind == PLAY else st.upper if row == UPPER else st.lower, card)
        if events is not None:
            events.append(placed_event(kind, decider, st.cards[card], pr, row, target, st.cards))
        place(st, decider, card, target, pr, events)
    else:
        _logged(events, hooks.turn_actions[kind].apply(st, decider, action, checked))
    st.passes = 0
    after_turn(st, events)


def after_turn(st: GameState, events: Events) -> None:
    """The next turn, unless placing a card opened a decision (whose owner then continues the game)."""
    if st.pending is None:
        next_turn(st, events)


def placed_event(kind: str, seat: int, t: CardType, pr: int, row: int, target: int, cards: Sequence[CardType]) -> Event:
    ev: Event = {
        "type": kind,
        "seat": seat,
        "card": t.id,
        "price": pr,
        "row": ROW_NAMES[row],
    }
    if target >= 0:
        ev["displaced"] = cards[target].id
    return ev


def place(st: GameState, seat: int, card: int, target: int, pr: int, events: Events) -> None:
    """Pay and lay out a card; a trading card replaces ``target``, which goes to the discard pile.
    Then the expansions react (``Hooks.on_place``), e.g. with a decision about the new card."""
    rubles = st.rubles  # written out, not -=: compiled, a list item's -= is a generic in-place subtraction
    rubles[seat] = rubles[seat] - pr
    tab = st.tableaux[seat]
    st.stats[seat].placed(pr, target >= 0)
    if target >= 0:
        tab[tab.index(target)] = card
        discard(st, target)
    else:
        tab.append(card)
    for react in st.ruleset.hooks.on_place:
        react(st, seat, card, target, events)


def discard(st: GameState, card: int) -> None:
    """A card to the discard pile, unless an expansion sends it to the box (``Hooks.boxed``)."""
    for to_box in st.ruleset.hooks.boxed:
        if to_box(st, card):
            return
    st.discard.append(card)


# --- flow ----------------------------------------------------------------------------------------
def next_turn(st: GameState, events: Events) -> None:
    """After a turn: the phase ends when all passed in succession or the display is empty (BG-03).
    An expansion may first go on with the same player's turn (``Hooks.turn_end``, e.g. BQ-14); after a
    step before the action (``Hooks.before_action``) the same player's regular turn follows."""
    rs = st.ruleset
    if rs.hooks.before_action and BEFORE_ACTION in st.ext:  # only such parts set it
        return
    for goes_on in rs.hooks.turn_end:
        if goes_on(st, events):
            return
    n = len(st.seats)
    if st.passes >= n or (not st.upper and not st.lower and rs.display_empty_ends_phase):
        run_steps(st, 0, events)
    else:
        to_move = st.to_move + 1
        st.to_move = 0 if to_move == n else to_move


def _begin_actions(st: GameState) -> None:
    st.to_move = st.tokens[st.ruleset.phases[st.phase].token]
    st.passes = 0


def _deal(st: GameState, deck: str, count: int, events: Events) -> None:
    """Place up to ``count`` cards from ``deck`` in the upper row; placing a stack's last card, or a
    stack too short to fill the display, triggers the end of the game (BG-13)."""
    stack = st.decks[deck]
    top = len(stack) - max(0, min(count, len(stack)))
    dealt = stack[top:]  # the top card (the end of the list) first, as drawn one by one
    dealt.reverse()
    del stack[top:]
    st.upper.extend(dealt)
    for react in st.ruleset.hooks.dealt:
        react(st, dealt)
    if count > 0 and not stack and not st.ending:
        st.ending = True
        if events is not None:
            events.append({"type": "end_triggered", "deck": deck})
    if dealt and events is not None:
        cards = st.cards
        events.append({"type": "dealt", "deck": deck, "cards": [cards[c].id for c in dealt]})


def run_steps(st: GameState, start: int, events: Events) -> None:
    """Run the phase's scoring steps from index ``start``; a step that opens a decision suspends them
    (the decision calls ``resume_after`` when done); after the last one the game goes on."""
    steps = st.ruleset.phases[st.phase].steps
    table = st.ruleset.hooks.steps
    for i in range(start, len(steps)):
        if table[steps[i]](st, events):
            return
    after_scoring(st, events)


def resume_after(st: GameState, step: str, events: Events) -> None:
    """Continue the phase's scoring after step ``step``, whose decisions are all taken."""
    st.pending = None
    run_steps(st, st.ruleset.phases[st.phase].steps.index(step) + 1, events)


def after_scoring(st: GameState, events: Events) -> None:
    phases = st.ruleset.phases
    if st.phase + 1 < len(phases):
        _start_phase(st, st.phase + 1, events)
        return
    # End of a round (BG-12): lower row discarded, upper row moves down, tokens pass left;
    # the expansions' end-of-round steps come first (e.g. crates on the display go to the box, MK-17).
    for step in st.ruleset.hooks.round_end:
        step(st, events)
    st.discard.extend(st.lower)
    st.lower = st.upper
    st.upper = []
    step_seats = st.ruleset.token_step
    st.tokens = {tok: (s + step_seats) % st.n for tok, s in st.tokens.items()}
    st.history.append({"round": st.round, "vp": list(st.vp), "rubles": list(st.rubles)})
    if events is not None:
        events.append({"type": "round_end", "round": st.round})
    if st.ending:
        end_game(st, events)
        return
    st.round += 1
    if st.ruleset.observatory_reset == "round":
        st.face_down.clear()
    _start_phase(st, 0, events)


def _start_phase(st: GameState, index: int, events: Events) -> None:
    """New cards (BG-11): the upper row is filled from the phase's stack to 8 in both rows."""
    st.phase = index
    if st.ruleset.observatory_reset == "phase":
        st.face_down.clear()
    phase = st.ruleset.phases[index]
    need = st.ruleset.display_size - len(st.upper) - len(st.lower)
    if events is not None:
        events.append({"type": "phase", "phase": phase.key, "round": st.round})
    if need > 0:
        _deal(st, phase.deck, need, events)
    _begin_actions(st)
    for react in st.ruleset.hooks.phase_start:  # e.g. the Sack's VP (P5-08), a decision before the first turn (BQ-21)
        react(st, events)
        if st.pending is not None:
            return
    if st.ruleset.display_empty_ends_phase and not st.upper and not st.lower:
        run_steps(st, 0, events)
        return
