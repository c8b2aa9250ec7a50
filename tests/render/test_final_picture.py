"""The final-scores picture as Discord shows it in the final scores message (about ``SHOWN_WIDTH`` px wide):
its row labels read at 11 px or more there, and every player's name, a computer player's too, is drawn at one
size, in the head of the table and in the legend; its rows follow the rulebook's scoring order."""

from __future__ import annotations

import pytest

from render import draw_final
from render.final import SHOWN_WIDTH
from rules import view
from rules.i18n import source_order

from .games import played

NAMES = ["Anna", "🤖 Computer (normal)", "Boris", "Katharina", "🤖 Computer (strong) 2"]


@pytest.mark.parametrize(("players", "lang", "market"), [(2, "en", False), (3, "de", False), (4, "en", False),
                                                         (5, "de", True)])
def test_labels_read_at_11_px_and_names_share_one_size(players: int, lang: str, market: bool) -> None:
    v = view(played(2, players, 7, market=market)[-1], None)
    for p, name in zip(v["players"], NAMES, strict=False):
        p["name"] = name
    cv = draw_final(v, lang)
    assert cv.problems() == []
    scale = SHOWN_WIDTH / cv.width
    labels = [r for r in cv.texts if r.tag.startswith("final.label.")]
    assert len(labels) >= 9
    for r in labels:
        assert r.fit.size * scale >= 11, (r.tag, r.fit.size, cv.width)
    for part in ("final.name.", "final.legend."):
        names = [r for r in cv.texts if r.tag.startswith(part)]
        assert len(names) == players and len({r.fit.size for r in names}) == 1, [(r.shown, r.fit.size) for r in names]
        assert not any(r.truncated for r in names), [r.shown for r in names]
    rows = [r.tag.removeprefix("final.label.") for r in labels][:-2]  # then the total and the rubles left
    assert rows == source_order(rows)
