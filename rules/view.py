"""What one player may know (BG-15): everything public, their own hand, and others' hands
and money only when the ruleset opens them. The stacks' order never leaves the core."""

from __future__ import annotations

from typing import Any

from .actions import format_action
from .engine import hand_limit, legal_moves, price
from .state import GameState


def view(st: GameState, seat: int | None) -> dict[str, Any]:
    """A JSON-able view of the game for ``seat`` (None: a spectator)."""
    rs = st.ruleset
    cat = rs.catalogue
    cards = cat.cards
    markets = cat.markets
    phase = rs.phases[st.phase]
    players = []
    for s in range(st.n):
        own = seat == s
        hand_visible = own or rs.open_hands or st.finished
        players.append(
            {
                "seat": s,
                "name": st.seats[s],
                "vp": st.vp[s],
                "rubles": st.rubles[s] if (own or rs.open_money or st.finished) else None,
                "hand_count": len(st.hands[s]),
                "hand": [cards[c].id for c in st.hands[s]] if hand_visible else None,
                "hand_limit": hand_limit(st, s),
                "tableau": [
                    {"card": cards[c].id, "face_down": c in st.face_down, "market": markets[c]} for c in st.tableaux[s]
                ],
                "tokens": [tok for tok, owner in st.tokens.items() if owner == s],
                "vp_by_source": dict(st.vp_by_source[s]),
                "stats": _stats(st, s, seat),
            }
        )
    p = st.pending
    pending = None
    if p is not None:
        pending = {"kind": p.kind, "seat": p.seat}
        if p.kind == "observatory":
            pending["card"] = cards[p.card].id  # the drawn card is shown to everyone (BG-08)
            pending["market"] = markets[p.card]
    out: dict[str, Any] = {
        "edition": rs.edition,
        "players_count": st.n,
        "round": st.round,
        "phase": phase.key,
        "phase_index": st.phase,
        "to_move": st.to_move,
        "decider": None if st.finished else st.decider,
        "pending": pending,
        "upper": [cards[c].id for c in st.upper],
        "lower": [cards[c].id for c in st.lower],
        # the 2nd edition's market roundel of each physical card (copies of a type can differ)
        "upper_markets": [markets[c] for c in st.upper],
        "lower_markets": [markets[c] for c in st.lower],
        "phases": [{"key": ph.key, "deck": ph.deck, "token": ph.token, "scores": ph.scores} for ph in rs.phases],
        "stacks": {k: len(v) for k, v in st.decks.items()},
        "discard": [cards[c].id for c in st.discard],
        "tokens": dict(st.tokens),
        "ending": st.ending,
        "finished": st.finished,
        "players": players,
        "history": [_history_entry(h, st, seat) for h in st.history],
        "final": None if st.final is None else [dict(f) for f in st.final],
        "winners": list(st.winners),
        "open_money": rs.open_money,
        "viewer": seat,
    }
    if seat is not None and not st.finished:
        if st.decider == seat:
            out["moves"] = [
                {"action": list(m.action), "text": format_action(m.action, cat, seats=st.seats), "price": m.price}
                for m in legal_moves(st)
            ]
        out["hand_prices"] = hand_prices(st, seat)
    for fields in rs.hooks.view:  # the expansions' own view fields
        fields(st, seat, out)
    return out


def _stats(st: GameState, s: int, seat: int | None) -> dict[str, int]:
    """A player's counters; with money hidden, others' ruble figures (which add up to their money) are left out."""
    if st.ruleset.open_money or st.finished or s == seat:
        return st.stats[s].as_dict()
    return {k: v for k, v in st.stats[s].as_dict().items() if k != "spent" and not k.endswith("_rubles")}


def _history_entry(h: dict[str, Any], st: GameState, seat: int | None) -> dict[str, Any]:
    """A round's VP and rubles; others' rubles only when money is open (BG-15)."""
    if st.ruleset.open_money or st.finished:
        return dict(h)
    return {**h, "rubles": [r if s == seat else None for s, r in enumerate(h["rubles"])]}


def hand_prices(st: GameState, seat: int) -> list[dict[str, Any]]:
    """Each hand card with its current price for ``seat`` (cheapest target for trading cards) and
    whether it can be played right now."""
    cards = st.ruleset.catalogue.cards
    playable = {m.action.card for m in legal_moves(st) if m.action.kind == "play"} if st.decider == seat else set()
    from .engine import targets  # local: keeps the public import list short

    out = []
    for c in st.hands[seat]:
        t = cards[c]
        if t.trading:
            options = [price(st, seat, t, False, cards[x]) for x in targets(st, seat, t)]
            pr = min(options) if options else None
        else:
            pr = price(st, seat, t, False)
        out.append({"card": t.id, "price": pr, "playable": t.id in playable})
    return out


def unseen(st: GameState, seat: int | None) -> dict[str, dict[str, int]]:
    """What ``seat`` (None: a spectator) cannot see, per stack: the stack's cards and the other players'
    hidden hand cards of that stack's kind, merged and counted by card type, never in their order
    (UI-05, UI-06: Yucata shows a stack together with the opponents' hidden cards of its type)."""
    rs = st.ruleset
    cards = rs.catalogue.cards
    out: dict[str, dict[str, int]] = {}
    for key, deck in st.decks.items():
        counts: dict[str, int] = {}
        for c in deck:
            counts[cards[c].id] = counts.get(cards[c].id, 0) + 1
        out[key] = counts
    if not rs.open_hands and not st.finished:
        for s in range(st.n):
            if s == seat:
                continue
            for c in st.hands[s]:
                ct = cards[c]
                stack = rs.catalogue.copy_decks[c]  # a copy's own stack (BQ: Away With It!)
                if stack in out:
                    out[stack][ct.id] = out[stack].get(ct.id, 0) + 1
    return {k: dict(sorted(v.items())) for k, v in out.items()}
