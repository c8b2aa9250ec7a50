"""The review's words reveal nothing hidden: a decision is told by the words the channel showed for it; the
move the strong player preferred is named to the decision's own seat, and to others only where naming it
reveals nothing (``preferred_public``: with hidden money, a purchase tells what the mover could afford)."""

from __future__ import annotations

import random

from bot.replays import rebuild
from bot.review_text import decision_text, preferred_words, summary_text
from bot.reviewing import judge
from bot.store import ActionRow
from bot.texts import action_headline
from cogs.review_viewer import review_step_lines
from players.review import preferred_is_public
from rules import GameRecord, Ruleset, apply, legal_moves, new_game, parse_for
from rules.record import notation

NAMES = ["Anna", "Boris"]


def _game() -> tuple[GameRecord, list[ActionRow]]:
    st = new_game(Ruleset(edition=2, players=2, open_money=False), NAMES, seed=5)
    rng, actions = random.Random(2), []
    rows: list[ActionRow] = []
    while not st.finished:
        move = rng.choice(legal_moves(st))
        actions.append(notation(st, move.action))
        seat = st.decider
        events = apply(st, move.action)
        rows.append(ActionRow(1, len(rows), seat, None, actions[-1], list(events), 0.0, None))
    return GameRecord(st.ruleset, NAMES, seed=5, actions=actions), rows


def test_the_preferred_purchase_is_named_to_its_seat_only() -> None:
    record, rows = _game()
    r = rebuild(1, record, rows)
    d = judge(record.to_json(), 0, 1, 0)
    st = r.state(0)
    played = parse_for(st, d["played"])
    other = next(m.action for m in legal_moves(st) if m.action.kind == "buy" and m.action != played)
    assert not preferred_is_public(st.ruleset, other, played)
    d = {**d, "preferred": notation(st, other), "preferred_public": False, "before": 0.41, "after": 0.28,
         "label": "mistake"}
    mover = d["seat"]
    named = preferred_words(d, st, "en", mover)
    assert named is not None
    public = action_headline(rows[0].events, NAMES, 2, "en")
    assert public is not None
    for reader in (None, 1 - mover):
        text = decision_text(d, r, NAMES, "en", reader)
        assert "another move" in text and named not in text and "41 % → 28 %" in text
        assert public.rstrip(".") in text
        assert not any(named in line for line in review_step_lines({"decisions": [d]}, r, 1, NAMES, "en", reader))
    own = decision_text(d, r, NAMES, "en", mover)
    assert named in own and "another move" not in own
    assert any(named in line for line in review_step_lines({"decisions": [d]}, r, 1, NAMES, "en", mover))
    german = decision_text(d, r, NAMES, "de", None)
    assert "einen anderen Zug" in german and german.startswith("Runde 1, ")
    summary = {"seats": [{"seat": s, "accuracy": 90.0, "inaccuracies": 0, "mistakes": int(s == mover),
                          "blunders": 0, "decisions": 1} for s in (0, 1)], "decisions": [d]}
    assert "another move" in "\n".join(summary_text(summary, r, NAMES, "en", None))
