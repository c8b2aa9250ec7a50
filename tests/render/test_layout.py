"""What the images show, and the layout guarantees behind "no text overflows its box"."""

from __future__ import annotations

import copy
import io
import json
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from PIL import Image

from render import (
    Canvas,
    TextBox,
    canvas,
    draw_board,
    draw_final,
    draw_hand,
    draw_lookup,
    fonts,
    render_board,
    render_card,
)
from render import style as S
from render.canvas import encode_png
from render.cardface import CARD_RATIO, draw_card
from render.final import _series
from render.fonts import ELLIPSIS, fit_text, font, text_width
from render.indexed import index_of, to_rgb
from render.style import BASE_COLOURS, BG, INK, palette_colours
from rules import Ruleset, catalogue, new_game, view
from rules.i18n import I18N_DIR

from .games import played, sample


def _texts(cv: Canvas, tag: str) -> list[TextBox]:
    return [r for r in cv.texts if r.tag == tag]


def _one(cv: Canvas, tag: str) -> TextBox:
    found = _texts(cv, tag)
    assert len(found) == 1, (tag, [r.tag for r in cv.texts])
    return found[0]


def _late_view(edition: int = 2, players: int = 4, seat: int | None = 0) -> dict[str, Any]:
    states = played(edition, players, 7)
    return view(states[int(len(states) * 0.85)], seat)


# --- fitting ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Lumberjack", "Mistress of Ceremonies", "Minister of Foreign Affairs",
                                  "Potjomkinsches Dorf", "Smolny-Kathedrale", "X" * 60, "", "Außenminister Straße"])
@pytest.mark.parametrize(("width", "height", "lines"), [(150, 60, 2), (90, 30, 1), (400, 200, 5), (20, 12, 1)])
def test_fit_never_exceeds_its_box(text: str, width: int, height: int, lines: int) -> None:
    fit = fit_text(text, "condbold", width, height, 24, 10, lines)
    assert len(fit.lines) <= lines
    assert fit.height <= height or not fit.lines
    for line in fit.lines:
        assert text_width(line, "condbold", fit.size) <= width
    if fit.truncated:
        assert fit.lines == () or fit.lines[-1].endswith(ELLIPSIS) or fit.lines[-1] == ""
    else:
        assert " ".join(fit.lines).replace("- ", "-") == text


def test_fit_prefers_large_then_wraps_then_shrinks_then_cuts() -> None:
    assert fit_text("Lumberjack", "bold", 400, 40, 24, 10).size == 24
    two = fit_text("Mistress of Ceremonies", "condbold", 150, 60, 22, 10, 2)
    assert two.lines == ("Mistress of", "Ceremonies") and not two.truncated
    small = fit_text("Mistress of Ceremonies", "condbold", 150, 30, 22, 10, 1)
    assert len(small.lines) == 1 and small.size < 22 and not small.truncated
    cut = fit_text("Mistress of Ceremonies", "condbold", 60, 30, 22, 14, 1)
    assert cut.truncated and cut.lines[0].endswith(ELLIPSIS)


def test_problems_reports_overflow_overlap_and_cuts() -> None:
    cv = Canvas(300, 200, BG)
    ok = cv.text((10, 10, 290, 50), "Lumberjack", tag="a", size=24)
    assert cv.problems() == []
    # A text whose ink leaves its box (as a broken layout would produce) is reported.
    cv.texts.append(TextBox("bad", "Lumberjack", (10, 10, 60, 50), ok.fit, ok.ink))
    assert any("sticks" in p for p in cv.problems())
    cv = Canvas(300, 200, BG)
    cv.text((10, 10, 290, 50), "Lumberjack", tag="a", size=24)
    cv.text((10, 10, 290, 50), "Lumberjack", tag="b", size=24)
    assert any("overlaps" in p for p in cv.problems())
    cv = Canvas(300, 200, BG)
    cv.text((10, 10, 60, 40), "Mistress of Ceremonies", tag="card.name", size=24, min_size=14)
    assert any("was cut" in p for p in cv.problems())
    cv = Canvas(300, 200, BG)
    cv.text_named((10, 10, 160, 40), lambda n: f"{n} to move", "Wolfgang Amadeus Mozart", tag="status", size=24,
                  min_size=14)
    rec = _one(cv, "status")
    assert rec.truncated and rec.shown.endswith(f"{ELLIPSIS} to move") and cv.problems() == []


def test_card_faces_keep_whole_names_at_every_display_width() -> None:
    for edition in (1, 2):
        for width in (140, 150, 160, 176, 250):
            h = round(width * CARD_RATIO)
            cv = Canvas(width + 10, h + 10, BG)
            for ct in catalogue(edition).types:
                for lang in ("en", "de"):
                    cv.texts.clear()
                    draw_card(cv, (5, 5, 5 + width, 5 + h), ct, edition, lang)
                    assert cv.problems() == [], (edition, width, ct.id, lang)


def test_german_letters_have_glyphs() -> None:
    """Every character of the German strings and card names is in the bundled fonts (no tofu boxes)."""
    chars = set("äöüÄÖÜß×−…·")
    for name in ("render.json", "rules.json"):  # the strings the images draw (bot.json is Discord's)
        chars.update("".join(json.loads((I18N_DIR / "de" / name).read_text(encoding="utf-8")).values()))
    for edition in (1, 2):
        for ct in catalogue(edition).types:
            chars.update(ct.name_de + ct.text_de)
    missing = "\U000f0000"  # a private-use code point: DejaVu draws its "missing glyph" box
    for style in ("regular", "bold", "cond", "condbold"):
        f = font(style, 24)
        tofu = (f.getbbox(missing), bytes(f.getmask(missing)))
        for ch in sorted(chars - {" ", "\n"}):
            assert (f.getbbox(ch), bytes(f.getmask(ch))) != tofu, (style, ch)


def test_a_computer_players_emoji_draws_no_empty_box() -> None:
    """Computer players are named "🤖 Computer (normal)" (bot.computer_name) and the bot's last-action line
    names them so too; DejaVu has no 🤖, so the pictures leave it out instead of drawing an empty box."""
    v = _late_view(2, 3, None)
    for p in v["players"]:
        p["name"] = "🤖 Computer (normal)"
    boards = [draw_board(v, lang, last_action="🤖 Computer (normal) passed ✅") for lang in ("en", "de")]
    for cv in [*boards, draw_final(v, "en")]:
        drawn = "".join(r.text for r in cv.texts)
        assert "Computer (normal)" in drawn
        assert "🤖" not in drawn and "✅" not in drawn and "  " not in drawn
    assert fonts.drawable("🤖 Computer (normal)") == "Computer (normal)"
    assert fonts.drawable("Anna ▶️ Boris ⚠") == "Anna ▶️ Boris ⚠"  # DejaVu draws these: kept as they are


def test_palette_holds_the_colours_drawn() -> None:
    """The fixed palette holds every flat colour exactly; the picture is drawn on it, and its PNG is that picture."""
    cols = palette_colours()
    assert len(cols) <= 256 and BG in cols and INK in cols
    for c in (*BASE_COLOURS, *S.PLAYER_COLOURS):
        assert to_rgb(Image.new("L", (1, 1), index_of(c))).getpixel((0, 0)) == c
    cv = draw_board(_late_view(), "en", "Boris passed")
    back = Image.open(io.BytesIO(cv.to_png())).convert("RGB")
    assert back.tobytes() == cv.rgb().tobytes()


def test_drawing_on_the_palette_gives_what_mapping_an_rgb_drawing_gives() -> None:
    """Text anti-aliased on one colour, or on several, becomes what drawing it in RGB and mapping it gives."""
    for under in ((S.BG,), (S.PANEL, S.HILITE_TINT)):
        cv = Canvas(300, 60, under[0])
        rgb = Image.new("RGB", (300, 60), under[0])
        if len(under) > 1:  # two colours under the text
            cv.draw.rectangle((0, 30, 299, 59), fill=under[1])
            rgb.paste(under[1], (0, 30, 300, 60))
        rec = cv.text((10, 5, 290, 55), "Wolfgang", tag="t", style="bold", size=40, fill=S.INK)
        assert rec.fit.lines == ("Wolfgang",) and rec.fit.size == 40
        mask, _ = fonts.text_mask("Wolfgang", "bold", 40)
        rgb.paste(S.INK, rec.ink[:2], mask)
        assert cv.rgb().tobytes() == Image.open(io.BytesIO(encode_png(rgb))).convert("RGB").tobytes()


def test_threads_give_the_same_images() -> None:
    """The bot may render in worker threads: the shared fonts and caches must not mix images up."""
    views = [_late_view(e, n, s) for e in (1, 2) for n in (2, 4) for s in (0, None)]
    expected = [render_board(v, "de") for v in views]
    for f in (fonts.text_mask, fonts.text_width, fonts.fit_text):
        f.cache_clear()
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda v: render_board(v, "de"), views * 2))
    assert got == expected * 2


@pytest.mark.parametrize(("edition", "players", "market"), [(1, 2, False), (2, 4, False), (2, 5, True)])
def test_tiles_paint_what_painting_in_place_paints(edition: int, players: int, market: bool,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Card faces and tableau chips are painted once and pasted (``Canvas.tile``): the boards and hands have the
    same pixels and the same text records as when every part is painted in place."""
    states = sample(played(edition, players, 3, market=market), 8)
    for st in states:
        for v, draw in ((view(st, None), lambda v: draw_board(v, "de", "Boris passed")),
                        (view(st, st.decider), lambda v: draw_hand(v, "en"))):
            monkeypatch.setattr(canvas, "TILES", False)
            direct = draw(v)
            monkeypatch.setattr(canvas, "TILES", True)
            tiled, again = draw(v), draw(v)  # painted, then pasted from the kept tiles
            for cv in (tiled, again):
                assert cv.image.tobytes() == direct.image.tobytes()
                assert cv.texts == direct.texts


def test_tiles_kept_stay_within_their_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(canvas, "TILE_BYTES", 200_000)
    monkeypatch.setattr(canvas, "_tiles", OrderedDict())
    monkeypatch.setattr(canvas, "_tiles_bytes", [0])
    draw_board(_late_view(2, 4, None), "en")
    assert 0 < canvas._tiles_bytes[0] <= 200_000 or len(canvas._tiles) == 1
    assert canvas._tiles_bytes[0] == sum(t.bytes for t in canvas._tiles.values())


# --- determinism, size ------------------------------------------------------------------------
def test_output_is_deterministic() -> None:
    v = _late_view()
    first = render_board(v, "de", "pass")
    render_board(_late_view(1, 3), "en")  # other work in between (warm caches) changes nothing
    assert render_board(copy.deepcopy(v), "de", "pass") == first
    assert render_card("bank", 2, "de") == render_card("bank", 2, "de")


def test_late_four_player_board_is_small_and_wide_enough() -> None:
    v = _late_view()
    png = render_board(v, "en", "Anna bought Lumberjack for 3 rubles")
    assert len(png) < 400_000
    cv = draw_board(v, "en")
    assert 1200 <= cv.width <= 1600 and cv.height < 2000
    assert len(cv.to_png()) == len(render_board(v, "en"))


# --- what the board shows ---------------------------------------------------------------------
def test_board_shows_phase_round_stacks_tokens_and_mover() -> None:
    v = _late_view()
    cv = draw_board(v, "en", "Boris passed")
    phase = {"workers": "Workers", "buildings": "Buildings", "aristocrats": "Aristocrats", "trading": "Trading cards"}
    assert _one(cv, "header.title").shown == f"Round {v['round']} · {phase[v['phase']]}"
    for deck, n in v["stacks"].items():
        assert _one(cv, f"phase.{deck}.stack").shown == f"{n} left"
    for tok, seat in v["tokens"].items():
        tok_phase = {"hammer": "workers", "cathedral": "buildings", "bust": "aristocrats", "hand": "trading"}[tok]
        assert v["players"][seat]["name"] in _one(cv, f"phase.{tok_phase}.token").shown
    decider = v["players"][v["decider"]]["name"]
    assert decider in _one(cv, "header.status").shown
    assert _one(cv, "last_action").shown == "Last: Boris passed"
    shown = [r.text for r in cv.texts if r.tag.startswith("display.") and r.tag.endswith(".name")]
    cards = catalogue(v["edition"]).by_id
    assert shown == [cards[c].name("en") for c in v["upper"] + v["lower"]]
    assert "last_action" not in {r.tag for r in draw_board(v, "en").texts}


def test_board_in_german() -> None:
    v = _late_view(1, 3)
    cv = draw_board(v, "de", "Anna passt")
    assert _one(cv, "header.title").shown.startswith("Durchgang ")
    assert _one(cv, "last_action").shown == "Zuletzt: Anna passt"
    assert "(du)" in " ".join(r.shown for r in cv.texts)


def test_tableau_is_grouped_by_colour_with_counts_and_face_down_marks() -> None:
    v = _late_view()
    v["players"][1]["tableau"] = (
        [{"card": "lumberjack", "face_down": False}] * 3
        + [{"card": "observatory", "face_down": True}, {"card": "observatory", "face_down": False}]
        + [{"card": "wharf", "face_down": False}, {"card": "author", "face_down": False}]
    )
    cv = draw_board(v, "en")
    assert cv.problems() == []
    assert _one(cv, "player.1.green").shown == "Workers (4)"
    assert _one(cv, "player.1.green.0.name").shown == "Lumberjack"
    assert _one(cv, "player.1.green.0.count").shown == "×3"
    assert _one(cv, "player.1.green.1.name").shown == "Wharf"
    assert _one(cv, "player.1.blue").shown == "Buildings (2)"
    assert [r.shown for r in cv.texts if r.tag.endswith(".face_down")] == ["face down"]
    assert _one(cv, "player.1.red.0.name").shown == "Author"


def test_hidden_money_is_a_question_mark() -> None:
    states = played(2, 3, 5, open_money=False)
    st = states[len(states) // 2]
    v = view(st, 0)
    cv = draw_board(v, "en")
    assert _one(cv, "player.0.rubles").shown == str(st.rubles[0])
    assert _one(cv, "player.1.rubles").shown == "?"
    assert _one(cv, "player.2.rubles").shown == "?"
    # The charts do not give away what the board hides (the view's history holds everyone's rubles).
    labels, series = _series(v, "rubles", "en")
    assert series[0] == [h["rubles"][0] for h in v["history"]]
    assert all(x is None for x in series[1] + series[2])


def test_pending_observatory_shows_the_drawn_card() -> None:
    for seed in range(1, 40):
        states = played(2, 2, seed)
        hit = next((s for s in states if s.pending is not None and s.pending.kind == "observatory"), None)
        if hit is not None:
            break
    else:
        pytest.skip("no Observatory drawn in these games")
    v = view(hit, None)
    cv = draw_board(v, "en")
    assert _one(cv, "display.drawn.label").shown == "Drawn card"
    drawn = catalogue(2).by_id[v["pending"]["card"]].name("en")
    assert _one(cv, "display.drawn.0.name").text == drawn
    assert "drawn card" in _one(cv, "header.status").shown


def test_finished_board_names_the_winner() -> None:
    states = played(1, 4, 3)
    v = view(states[-1], None)
    cv = draw_board(v, "de")
    winners = [v["players"][s]["name"] for s in v["winners"]]
    status = _one(cv, "header.status").shown
    assert status.startswith("Spielende") and all(w in status for w in winners)


def test_first_state_has_empty_areas() -> None:
    st = new_game(Ruleset(edition=2, players=2), ["A", "B"], seed=1)
    cv = draw_board(view(st, 0), "en")
    assert cv.problems() == []
    assert _one(cv, "display.lower.empty").shown == "empty"
    assert _one(cv, "player.0.empty").shown == "no cards yet"


# --- hand, final, card ------------------------------------------------------------------------
def test_hand_shows_prices_and_playability() -> None:
    states = played(2, 4, 7)
    st = next(s for s in states if not s.finished and s.decider == 0 and len(s.hands[0]) >= 2)
    v = view(st, 0)
    cv = draw_hand(v, "en")
    assert cv.problems() == []
    for i, info in enumerate(v["hand_prices"]):
        price = _one(cv, f"hand.{i}.price").shown
        if info["price"] is None:
            assert price == "nothing to displace"
        else:
            assert price == ("1 ruble" if info["price"] == 1 else f"{info['price']} rubles")
        playable = _one(cv, f"hand.{i}.playable").text
        assert playable == ("can be played now" if info["playable"] else "not playable now")
    assert [r.text for r in cv.texts if r.tag.startswith("hand.") and r.tag.endswith(".name")] == [
        catalogue(2).by_id[c].name("en") for c in v["players"][0]["hand"]
    ]


def test_hand_of_a_spectator_and_an_empty_hand() -> None:
    v = _late_view(seat=None)
    assert _one(draw_hand(v, "de"), "hand.hidden").shown.startswith("Diese Hand")
    v = _late_view()
    v["players"][0]["hand"] = []
    v["players"][0]["hand_count"] = 0
    v["hand_prices"] = []
    assert _one(draw_hand(v, "en"), "hand.empty").shown == "No cards in hand."


def test_final_table_shows_every_source_and_the_total() -> None:
    states = played(2, 3, 9)
    v = view(states[-1], 0)
    cv = draw_final(v, "en")
    for j, p in enumerate(v["players"]):
        for key in ("workers", "buildings", "aristocrats", "pub", "aristocrat_bonus", "rubles", "hand_penalty"):
            val = p["vp_by_source"].get(key, 0)
            assert _one(cv, f"final.{key}.{j}").shown == (f"−{-val}" if val < 0 else str(val))
        assert _one(cv, f"final.total.{j}").shown == str(p["vp"])
    assert _one(cv, "final.label.aristocrat_bonus").shown == "Distinct aristocrats"
    assert _one(cv, "final.title").shown == "Final scores"
    xs = [r.shown for r in cv.texts if r.tag.startswith("chart.vp.x")]
    assert xs == [str(h["round"]) for h in v["history"]] + ["End"]


def test_card_lookup_facts() -> None:
    cv = draw_lookup("mariinsky_theater", 1, "de")
    assert _one(cv, "lookup.name").shown == "Mariinskij-Theater"
    assert _one(cv, "lookup.cost").shown == "Kosten: 10 Rubel"
    assert _one(cv, "lookup.displaces").shown.startswith("Ersetzt")
    assert _one(cv, "lookup.card.cost").shown == "10"
    cv = draw_lookup("ship_builder", 2, "en")
    assert len([r for r in cv.texts if r.tag.startswith("lookup.market.")]) == 1  # the "?" roundel's mark
    assert _one(cv, "lookup.goods").shown.startswith("grain, chickens")
    with pytest.raises(ValueError):
        render_card("no_such_card", 2)
