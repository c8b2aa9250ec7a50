"""The live board's picture marks a seat whose member is away (the bot puts ``away`` into the spectator's
view of that seat: public data, not the rules core's state)."""

from __future__ import annotations

from render import draw_board
from rules import view

from .games import played


def test_the_board_marks_a_seat_away_in_both_languages() -> None:
    states = played(2, 3, 7)
    v = view(states[len(states) // 2], None)
    v["players"][1]["away"] = "4 Jan"
    names = {r.tag: r.shown for r in draw_board(v, "en").texts if r.tag.startswith("player.")
             and r.tag.endswith(".name")}
    assert "away until 4 Jan" in names["player.1.name"]
    assert "away" not in names["player.0.name"] and "away" not in names["player.2.name"]
    v["players"][1]["away"] = "4. Jan."
    names = {r.tag: r.shown for r in draw_board(v, "de").texts if r.tag == "player.1.name"}
    assert names["player.1.name"].endswith("weg bis 4. Jan.")
