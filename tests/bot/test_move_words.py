"""Every move and decision of every part of the game in words, in English and German (the
private menu, autocomplete and the "✅ …" replies), never as a raw key or the record notation; the Moocher
names the player by name; an assignment is worded with what it would score now, from its owner's view."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator

from bot.action_text import describe_action, has_text, worded
from bot.texts import TOKEN_EMOJI
from cogs.menus import grouped, move_view
from rules import Action, GameState, Move, Ruleset, apply, format_action, legal_moves, new_game, view
from rules.expansions import offered

NAMES = ["Anna", "Boris", "Katharina", "Dmitri", "Olga"]
BASE_WORDS = ("buy", "take", "play", "pass", "discard", "confirm", "release")  # English words = notation
RAW = re.compile(r"(?:\b(?:act|bot|event|good|source|pending|token|deck)\.[a-z_]+)|[a-z]+_[a-z_]+|[{}]")


def allowed_rulesets() -> Iterator[Ruleset]:
    """Every combination of expansions and modules the rules core accepts (X-02), 2 to 5 players."""
    for edition in (1, 2):
        keys = [e.key for e in offered(edition)]
        for r in range(len(keys) + 1):
            for combo in itertools.combinations(keys, r):
                expansions = tuple(k for k in combo if not k.startswith("module"))
                modules = tuple(int(k[6:]) for k in combo if k.startswith("module"))
                for players in range(2, 6):
                    try:
                        rs = Ruleset(edition=edition, players=players, expansions=expansions, modules=modules)
                        rs.catalogue  # noqa: B018 (builds the combination: ValueError where not allowed)
                    except ValueError:
                        continue
                    yield rs


def _check_words(st: GameState, moves: list[Move], lang: str, kinds: set[str]) -> None:
    ed = st.ruleset.edition
    cat = st.ruleset.catalogue
    seat = st.decider
    own = view(st, seat) if st.pending is not None and st.pending.kind == "assignment" else None
    for m in moves:
        a = m.action
        label = describe_action(a, ed, lang, m.price, cat, seats=st.seats, view=own)
        notation = format_action(a, cat, lang, seats=st.seats)
        assert worded(a.kind), a  # not the notation fallback
        assert label != notation or a.kind in BASE_WORDS and lang == "en", (a, label)
        assert not RAW.search(label), (lang, a, label)
        bare = describe_action(a, ed, lang)  # the "✅ …" reply and the hint: no catalogue, no view
        assert not RAW.search(bare), (lang, a, bare)
        if a.kind == "play" and a.good in ("rubles", "vp"):  # the Moocher names its victim
            assert st.seats[a.amount] in label, label
            kinds.add("moocher")
        if a.kind == "assignment":
            assert ("VP" if lang == "en" else "SP") in label, label
        kinds.add(a.kind)


def test_every_legal_move_of_every_ruleset_has_words() -> None:
    """Random games of every allowed ruleset: no move reads as its notation or shows a raw key, in either
    language, and every kind offered in the private menu has a placeholder of its own."""
    rulesets = list(allowed_rulesets())
    assert len(rulesets) > 200
    kinds: set[str] = set()
    for i, rs in enumerate(rulesets):
        rng = random.Random(i)
        st = new_game(rs, NAMES[: rs.players], seed=i)
        lang = ("en", "de")[i % 2]
        steps = 0
        while not st.finished and steps < 3000:
            moves = legal_moves(st)
            _check_words(st, moves, lang, kinds)
            for kind in grouped(moves):
                assert has_text(f"bot.select_{kind}", lang), kind
            if st.pending is not None:  # a decision's private menu fits Discord's limits
                move_view(1, steps, st, lang)
            apply(st, rng.choice(moves).action)
            steps += 1
        assert st.finished
    expected = {"guild_hall", "trading_house", "sycophant", "prison", "pickpocket", "event", "grabber", "order",
                "assignment", "bonus", "moocher", "as", "confirm", "release", "pub", "observe", "discard"}
    assert expected <= kinds, expected - kinds


def test_purple_plays_name_card_target_and_player() -> None:
    """BQ-03 ... BQ-20: ``play Jester on Bank`` is a play on a card, not over it; the Moocher says whose card
    and what it takes, by the player's name (``format_action(..., seats=...)`` too)."""
    rs = Ruleset(edition=2, players=3, modules=(1,))
    cat = rs.catalogue
    jester = Action("play", "jester", 2, "bank")
    assert describe_action(jester, 2, "en") == "play Jester on Bank"
    assert describe_action(jester, 2, "de") == "spielt Hofnarr auf Bank aus"
    moocher = Action("play", "moocher", 2, "senator", 1, "vp")
    assert describe_action(moocher, 2, "en", seats=NAMES[:3]) == "play Moocher on Senator of Boris for its VP"
    assert "Boris" in format_action(moocher, cat, seats=NAMES[:3])
    assert describe_action(Action("play", "moocher", 2, "bank", 2, "rubles"), 2, "de", seats=NAMES[:3]) == (
        "spielt Schmarotzer auf Bank von Katharina aus, für die Rubel")


def test_decisions_in_words() -> None:
    """Module 2 (M2-03, M2-05, M2-09), the Debtor's Prison, the Pickpocket, Modules 4 and 6."""
    assert describe_action(Action("guild_hall", amount=3), 2, "en") == "Guild Hall: take 3 VP and 1 ruble"
    assert describe_action(Action("trading_house", amount=1), 2, "en", 3) == "Trading House: buy 2 VP: 3 rubles"
    assert describe_action(Action("trading_house", amount=1), 1, "de") == "Markthalle: kauft 2 SP"
    assert describe_action(Action("sycophant", amount=0), 2, "en") == "Sycophant: discard them all"
    assert describe_action(Action("prison", "bank"), 2, "en") == "use the Debtor's Prison on Bank from the discard pile"
    assert describe_action(Action("pickpocket", "lumberjack", 1, "", 1), 2, "en", 3) == (
        "play the Pickpocket before the start player: buy Lumberjack (lower row): 3 rubles")
    assert describe_action(Action("pickpocket"), 2, "de") == "spielt den Langfinger nicht aus"
    assert describe_action(Action("event", "ghost", 1, "library"), 2, "en") == (
        "take the event Ghost: discard Library (lower row)")
    assert describe_action(Action("order", "hen", -1, "bank"), 2, "en") == "discard Hen first, then Bank (on top)"
    assert describe_action(Action("bonus", "vp", -1, "library"), 2, "en") == "obstacle bonus: 5 VP of Library"
    assert describe_action(Action("buy", "wharf", 0, "ship_builder", 0, "fish"), 2, "en") == (
        "buy Wharf over Ship Builder (fish)")


def test_sack_has_an_emoji() -> None:
    assert "sack" in TOKEN_EMOJI and has_text("token.sack", "de")
