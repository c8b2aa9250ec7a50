"""Golden images: fixed states (from fixed seeds, stored as view JSON next to the PNGs) must render
as before, within a small tolerance. Regenerate on purpose only: ``REGEN_GOLDEN=1 pytest tests/render``
(a missing view JSON is rebuilt from its seed; delete one to rebuild it). A failure writes the new
image and a difference image to tests/output/."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from render import render_board, render_card, render_final, render_hand
from rules import view

from .games import late, played

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
OUTPUT = Path(__file__).resolve().parent.parent / "output"
REGEN = os.environ.get("REGEN_GOLDEN") == "1"
MAX_MEAN = 1.0  # mean absolute difference per channel, 0..255
MAX_STRONG = 0.0005  # share of pixels that differ by more than STRONG in some channel
STRONG = 48


def _board_late() -> dict[str, Any]:
    st = late(played(2, 4, 7))
    return {"view": view(st, st.decider), "lang": "en", "last_action": "Boris bought Lumberjack for 3 rubles"}


def _board_de() -> dict[str, Any]:
    states = played(1, 3, 11)
    return {"view": view(states[int(len(states) * 0.95)], 0), "lang": "de", "last_action": "Boris passt"}


def _board_observatory() -> dict[str, Any]:
    for seed in range(1, 60):
        st = next((s for s in played(2, 2, seed) if s.pending is not None and s.pending.kind == "observatory"), None)
        if st is not None:
            return {"view": view(st, None), "lang": "en", "last_action": "Anna used an Observatory"}
    raise AssertionError("no Observatory in 60 games")


def _board_market() -> dict[str, Any]:
    st = late(played(2, 5, 7, market=True))
    return {"view": view(st, st.decider), "lang": "en", "last_action": "Elena bought Crate of Fish for 1 ruble"}


def _hand() -> dict[str, Any]:
    states = played(2, 4, 7)
    st = next(s for s in states[len(states) // 2 :] if not s.finished and s.decider == 0 and len(s.hands[0]) >= 3)
    return {"view": view(st, 0), "lang": "en"}


def _final() -> dict[str, Any]:
    return {"view": view(played(1, 3, 4)[-1], 1), "lang": "de"}


CASES: dict[str, tuple[Callable[[], dict[str, Any]], Callable[[dict[str, Any]], bytes]]] = {
    "board_ed2_4p_late_en": (_board_late, lambda c: render_board(c["view"], c["lang"], c["last_action"])),
    "board_ed1_3p_de": (_board_de, lambda c: render_board(c["view"], c["lang"], c["last_action"])),
    "board_ed2_2p_observatory_en": (_board_observatory, lambda c: render_board(c["view"], c["lang"], c["last_action"])),
    "board_ed2_5p_market_en": (_board_market, lambda c: render_board(c["view"], c["lang"], c["last_action"])),
    "hand_ed2_4p_en": (_hand, lambda c: render_hand(c["view"], c["lang"])),
    "final_ed1_3p_de": (_final, lambda c: render_final(c["view"], c["lang"])),
    "card_czar_and_carpenter_ed2_de": (lambda: {"card": "czar_and_carpenter", "edition": 2, "lang": "de"},
                                       lambda c: render_card(c["card"], c["edition"], c["lang"])),
    "card_mariinsky_theater_ed1_en": (lambda: {"card": "mariinsky_theater", "edition": 1, "lang": "en"},
                                      lambda c: render_card(c["card"], c["edition"], c["lang"])),
}


def _case(name: str) -> dict[str, Any]:
    path = GOLDEN / f"{name}.json"
    if not path.exists():
        if not REGEN:
            pytest.fail(f"{path} is missing: run REGEN_GOLDEN=1 pytest tests/render to create it")
        path.write_text(json.dumps(CASES[name][0](), ensure_ascii=False, sort_keys=True, indent=1) + "\n",
                        encoding="utf-8")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """Mean absolute difference per channel (0..255), and the share of pixels where some channel
    differs by more than ``STRONG`` (anti-aliasing drift between FreeType versions stays below it)."""
    if a.size != b.size:
        return 255.0, 1.0
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    mean = sum(ImageStat.Stat(diff).mean) / 3
    r, g, b_ = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b_)
    share = worst.point(lambda v: 255 if v > STRONG else 0).histogram()[255] / (a.width * a.height)
    return mean, share


def matches(png: bytes, golden: Path) -> tuple[bool, str]:
    """Whether ``png`` looks like the golden image, and the figures."""
    new = Image.open(io.BytesIO(png))
    old = Image.open(golden)
    if new.size != old.size:
        return False, f"size {new.size} != golden {old.size}"
    mean, share = difference(new, old)
    return mean <= MAX_MEAN and share <= MAX_STRONG, f"mean diff {mean:.3f}, strong pixels {share:.4%}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    case = _case(name)
    png = CASES[name][1](case)
    golden = GOLDEN / f"{name}.png"
    if REGEN:
        golden.write_bytes(png)
        return
    assert golden.exists(), f"{golden} is missing: run REGEN_GOLDEN=1 pytest tests/render to create it"
    ok, figures = matches(png, golden)
    if not ok:
        OUTPUT.mkdir(exist_ok=True)
        (OUTPUT / f"{name}.png").write_bytes(png)
        diff = ImageChops.difference(Image.open(io.BytesIO(png)).convert("RGB"), Image.open(golden).convert("RGB"))
        diff.save(OUTPUT / f"{name}.diff.png")
    assert ok, f"{name} differs from its golden image ({figures}); see tests/output/{name}.png"


def test_golden_comparison_catches_a_change() -> None:
    """The tolerance is small enough that a real change fails: one card less on the display."""
    name = "board_ed2_4p_late_en"
    golden = GOLDEN / f"{name}.png"
    if REGEN or not golden.exists():
        pytest.skip("golden images are being regenerated")
    case = _case(name)
    assert matches(render_board(case["view"], case["lang"], case["last_action"]), golden)[0]
    changed = json.loads(json.dumps(case["view"]))
    row = "lower" if changed["lower"] else "upper"
    changed[row] = changed[row][:-1]
    assert not matches(render_board(changed, case["lang"], case["last_action"]), golden)[0]
    other = render_board(case["view"], case["lang"], "Dmitri passed")
    assert not matches(other, golden)[0]
