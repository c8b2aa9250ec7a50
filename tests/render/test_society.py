"""Boards of In bester Gesellschaft (five tableaux without the Market, the Sack), SP+ and Module 2: a
sound layout along random games, the expansions' decisions named in the header, a face-down Debtor's
Prison drawn hatched and marked, and the card picked from the discard pile shown on the display."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from render import Canvas, draw_board, draw_final, draw_hand, render_board
from render import style as S
from render.cardface import draw_card
from rules import GameState, Ruleset, apply, legal_moves, new_game, view
from rules.cards import catalogue
from tests.rules.helpers import ibg, module2, play, society_game

from .games import LONG_NAMES, NAMES, sample


def _played(rs: Ruleset, seed: int, long_names: bool = False) -> list[GameState]:
    rng = random.Random(seed)
    st = new_game(rs, list((LONG_NAMES if long_names else NAMES)[: rs.players]), seed=seed)
    states = [st.copy()]
    while not st.finished:
        apply(st, rng.choice(legal_moves(st)).action)
        states.append(st.copy())
    return states


@pytest.mark.parametrize(
    ("rs", "long_names"),
    [(ibg(5), True), (ibg(5), False), (ibg(3), False), (Ruleset(edition=1, players=4,
      expansions=("new_society_replacements_only",)), False), (module2(4), True), (module2(5, market=True), False)],
)
def test_boards_and_hands_along_a_random_game(rs: Ruleset, long_names: bool) -> None:
    states = _played(rs, 11 + rs.players, long_names)
    for i, st in enumerate(sample(tuple(states), 10)):
        lang = ("en", "de")[i % 2]
        for seat in dict.fromkeys([None if st.finished else st.decider, None, 0]):
            v = view(st, seat)
            board = draw_board(v, lang, None)
            assert board.problems() == [], (i, seat)
            assert not [t.shown for t in board.texts if "render." in t.shown or "phase." in t.shown]
            assert board.width == 1500
            tags = {t.tag for t in board.texts}
            assert {f"player.{s}.name" for s in range(rs.players)} <= tags
            sack = "sack" in rs.tokens and "market" not in rs.expansions
            assert ("header.sack" in tags) == (sack and not (st.ending and not st.finished)), (i, seat)
            assert draw_hand(v, lang).problems() == []


def test_the_sack_holder_is_named_in_the_header() -> None:
    st = new_game(ibg(5), list(NAMES), seed=3)
    holder = NAMES[st.tokens["sack"]]
    board = draw_board(view(st, 0), "de", None)
    sack = next(t for t in board.texts if t.tag == "header.sack")
    assert sack.shown == f"Sack: {holder} (+2 Siegpunkte je Handwerker-Runde)"


@pytest.mark.parametrize(("kind", "words"), [("guild_hall", "Guild Hall"), ("trading_house", "Trading House"),
                                             ("sycophant", "Sycophants")])
def test_the_decisions_are_named_in_the_header(kind: str, words: str) -> None:
    names = {"guild_hall": "Guild Hall", "trading_house": "Trading House", "sycophant": "Sycophant"}
    phase = "aristocrats" if kind == "sycophant" else "buildings"
    st = society_game(module2(), {0: [names[kind]]}, phase=phase)
    st.passes = 1
    play(st, "pass")
    assert st.pending is not None and st.pending.kind == kind
    status = next(t for t in draw_board(view(st, 0), "en", None).texts if t.tag == "header.status")
    assert words in status.shown


def test_face_down_debtors_prison_and_the_picked_card() -> None:
    st = society_game(ibg(5), {0: ["Debtor's Prison", "Lumberjack"]}, discard=["Bank"])
    play(st, "prison Bank")
    v = view(st, 0)
    board = draw_board(v, "en", None)
    texts = {t.tag: t for t in board.texts}
    assert texts["player.0.blue.0.name"].shown == "Debtor's Prison"
    assert texts["player.0.blue.0.face_down"].shown == "face down"
    assert texts["display.drawn.label"].shown.split() == ["From", "the", "discard", "pile"]
    assert texts["header.status"].shown.endswith("buy, take or put back the card")
    # the real image: the face-down chip is grey and hatched, the Lumberjack's chip is not
    im = Image.open(io.BytesIO(render_board(v, "en"))).convert("RGB")
    box = texts["player.0.blue.0.name"].box
    chip = im.crop((box[0] - 40, box[1], box[2], box[3]))
    colours = {c for _, c in chip.getcolors(maxcolors=100_000) or []}
    assert S.GREY_TINT in colours
    green = texts["player.0.green.0.name"].box
    assert S.GREY_TINT not in {c for _, c in im.crop(green).getcolors(maxcolors=100_000) or []}



@pytest.mark.parametrize("edition", [1, 2])
def test_every_new_card_face_fits_its_card(edition: int) -> None:
    """The expansions' faces: texts fit (abilities in words), and nothing is drawn outside the card,
    e.g. the six worker symbols of the new Czar and Carpenter and the October Revolution (IBG-05)."""
    rs = ibg() if edition == 1 else module2()
    extra = [t for t in rs.catalogue.types if t not in catalogue(edition).types]
    assert len(extra) == (18 if edition == 1 else 11)
    for lang in ("en", "de"):
        for t in extra:
            cv = Canvas(200, 330, S.BG)
            draw_card(cv, (20, 15, 180, 315), t, edition, lang, tag="card")
            assert cv.problems() == [], t.id
            outside = [cv.rgb().crop(b) for b in ((0, 0, 200, 14), (0, 316, 200, 330), (0, 0, 19, 330),
                                                   (181, 0, 200, 330))]
            assert all(im.getcolors() == [(im.width * im.height, S.BG)] for im in outside), t.id
            if t.ability is not None or t.bonus_per or t.displaces_any:
                assert any(x.tag.startswith("card") and len(x.shown) > 12 for x in cv.texts), t.id


@pytest.mark.parametrize("rs", [ibg(5), module2(3), module2(5, market=True)])
def test_final_scores_name_the_new_vp_sources(rs: Ruleset) -> None:
    """The final table lists every VP source of these games in words (the Sack, the Guild Hall, the
    Trading House), never a bare key."""
    for seed in range(40):
        st = _played(rs, seed)[-1]
        sources = {k for s in range(rs.players) for k in st.vp_by_source[s]}
        if {"guild_hall", "trading_house"} & sources or "sack" in sources:
            break
    for lang in ("en", "de"):
        cv = draw_final(view(st, None), lang)
        assert cv.problems() == []
        shown = [t.shown for t in cv.texts]
        assert not [x for x in shown if "source." in x or "render." in x], shown
