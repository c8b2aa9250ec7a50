"""The board and hand of a Banquet game (Module 1 and the 1st-edition Banquet; X-08,
X-12): a sound layout along random games, purple card faces on the display and in the hand (no cost,
their effect in a few words), a card with a Jester or Banquet on it and the Money Collector's chip
in the tableau, and which purple cards can be played now."""

from __future__ import annotations

import random

import pytest

from render import draw_board, draw_hand, draw_lookup, render_board, render_hand
from rules import GameState, Ruleset, apply, legal_moves, new_game, view
from tests.rules.helpers import bq_game, play

NAMES = ("Anna", "Boris", "Katharina Alexejewna", "Dmitri")


def _states(edition: int, players: int, market: bool, seed: int) -> list[GameState]:
    rs = Ruleset(edition=edition, players=players, expansions=("market",) if market else (), modules=(1,))
    st = new_game(rs, list(NAMES[:players]), seed=seed)
    rng = random.Random(seed)
    out = []
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
        out.append(st.copy())
    return out


@pytest.mark.parametrize(("edition", "players", "market"), [(1, 3, False), (2, 2, False), (2, 4, True)])
def test_banquet_board_and_hand_along_a_random_game(edition: int, players: int, market: bool) -> None:
    states = _states(edition, players, market, 70 + players)
    step = max(1, len(states) // 10)
    for i, st in enumerate(states[::step] + [states[-1]]):
        lang = ("en", "de")[i % 2]
        for seat in dict.fromkeys([None if st.finished else st.decider, None, 0]):
            v = view(st, seat)
            board = draw_board(v, lang)
            assert board.problems() == [], (i, seat)
            assert not [t.shown for t in board.texts if "render." in t.shown]
            assert draw_hand(v, lang).problems() == [], (i, seat)
    assert render_board(view(states[-1], None), "de").startswith(b"\x89PNG")


def _decorated() -> GameState:
    st = bq_game(market=True, phase="trading", hands={0: ["Jester", "Money Collector", "Banquet", "Pickpocket"]},
                 tableaux={0: ["Judge", "Judge", "Lumberjack"], 1: ["Senator"]},
                 upper=("Library", "Golden Donkey"), lower=("Black Market", "Author"))
    play(st, "play Jester on Judge")
    st.to_move = 0
    play(st, "play Banquet on Judge")
    st.to_move = 0
    return st


@pytest.mark.parametrize("lang", ["en", "de"])
def test_X_08_board_shows_attachments_and_the_chip(lang: str) -> None:
    st = _decorated()
    play(st, "play Money Collector", "buy Library")
    st.to_move = 0
    board = draw_board(view(st, 1), lang)
    assert board.problems() == []
    marks = {t.tag: t.shown for t in board.texts if t.tag.endswith(".marks")}
    jester, banquet = ("Jester", "Banquet") if lang == "en" else ("Hofnarr", "Bankett")
    red = [text for tag, text in marks.items() if tag.startswith("player.0.red")]
    assert len(red) == 1 and jester in red[0] and banquet in red[0]  # one Judge carries both, the other none
    blue = [text for tag, text in marks.items() if tag.startswith("player.0.blue")]
    assert blue == [{"en": "chip: no VP", "de": "Chip: keine Punkte"}[lang]]
    names = [t.shown for t in board.texts if t.tag.startswith("player.0.red") and t.tag.endswith(".name")]
    assert names.count("Judge" if lang == "en" else "Richter") == 2  # the decorated Judge stands apart
    shown = {t.text for t in board.texts if t.tag.startswith("display")}  # purple faces on the display
    assert {"Golden Donkey", "Black Market"} <= shown or {"Goldesel", "Schwarzmarkt"} <= shown
    assert not [t for t in board.texts if t.tag.startswith("display") and t.tag.endswith(".cost") and t.shown == "0"]


def test_hand_shows_purple_cards_and_which_can_be_played_now() -> None:
    st = _decorated()  # hand: Money Collector, Pickpocket
    hand = draw_hand(view(st, 0), "en")
    assert hand.problems() == []
    texts = {t.tag: t.text for t in hand.texts}
    order = [st.cards[c].id for c in st.hands[0]]
    mc, pp = order.index("money_collector"), order.index("pickpocket")
    assert texts[f"hand.{mc}.price"] == "free, as an action" and texts[f"hand.{mc}.playable"] == "can be played now"
    assert texts[f"hand.{pp}.price"] == "at a phase's start" and texts[f"hand.{pp}.playable"] == "not playable now"
    assert f"hand.{mc}.cost" not in texts  # free: no cost printed
    assert render_hand(view(st, 0), "de").startswith(b"\x89PNG")


@pytest.mark.parametrize("edition", [1, 2])
def test_every_banquet_card_lookup(edition: int) -> None:
    from rules.cards import raw_extra

    for entry in raw_extra("banquet"):
        if edition not in entry.get("editions", [1, 2]):
            continue
        for lang in ("en", "de"):
            cv = draw_lookup(entry["id"], edition, lang)
            assert cv.problems() == [], entry["id"]
