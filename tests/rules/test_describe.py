"""Events in words, both languages, for every event type a random game produces."""

from __future__ import annotations

import random

import pytest

from rules import Ruleset, apply, legal_moves, new_game
from rules.describe import describe, describe_all, headline
from tests.rules.helpers import play
from tests.rules.test_examples import FIRST_WORKERS, SEATS, walkthrough


def test_walkthrough_lines() -> None:
    st = walkthrough()
    events = play(st, *FIRST_WORKERS[:1])
    assert headline(events, SEATS, 2) == "Konrad bought Lumberjack for 3."
    assert headline(events, SEATS, 2, "de") == "Konrad kauft Holzfäller für 3."
    events = play(st, *FIRST_WORKERS[1:])
    lines = describe_all(events, SEATS, 2)
    # UI-15: each scoring as before + gained = after (seed 001: 22/22/21/20 rubles after the first workers)
    assert "Workers scoring: Konrad 16 + 6 = 22 rubles, 0 + 0 = 0 VP." in lines
    assert "Workers scoring: Holger 14 + 6 = 20 rubles, 0 + 0 = 0 VP." in lines
    assert "Wertung Handwerker: Konrad 16 + 6 = 22 Rubel, 0 + 0 = 0 SP." in describe_all(events, SEATS, 2, "de")
    assert "Round 1: Buildings phase." in lines


def test_UI_15_a_scoring_stored_before_the_totals_still_reads() -> None:
    old = {"type": "score", "phase": "workers", "seat": 0, "rubles": 6, "vp": 0}
    assert describe(old, SEATS, 2) == "Workers scoring: Konrad +6 rubles, +0 VP."


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_event_of_random_games_reads(lang: str) -> None:
    seen: set[str] = set()
    for seed in range(6):
        st = new_game(
            Ruleset(edition=1 + seed % 2, players=2 + seed % 3), ["A", "B", "C", "D"][: 2 + seed % 3], seed=seed
        )
        rng = random.Random(seed)
        while not st.finished:
            for e in apply(st, rng.choice(legal_moves(st)).action):
                seen.add(e["type"])
                line = describe(e, st.seats, st.ruleset.edition, lang)
                if line is not None:
                    assert "{" not in line and "log." not in line, line
    assert {"buy", "take", "pass", "score", "phase", "round_end", "game_end", "dealt"} <= seen


def test_one_ruble_is_singular_in_english_only() -> None:
    """English agrees "1 ruble" / "2 rubles" / "11 rubles" wherever a text counts rubles; German "Rubel" is both."""
    from rules.i18n import t

    assert t("bot.rubles_left", "en", n=1) == "1 ruble left"
    assert t("bot.rubles_left", "en", n=11) == "11 rubles left"
    assert t("bot.rubles_left", "en", n=21) == "21 rubles left"
    assert t("log.score", "en", phase="Workers", player="Anna", rubles=1, vp=1) == \
        "Workers scoring: Anna +1 ruble, +1 VP."
    assert t("bot.rubles_left", "de", n=1).replace("1", "2") == t("bot.rubles_left", "de", n=2)
