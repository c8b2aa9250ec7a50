"""The README's picture script builds its page without Chromium (``scripts/channel_picture.py``; the
screenshot itself needs Chromium and is not part of the tests)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from scripts import channel_picture
from scripts.channel_picture import Control, EmbedView, Scene, Shown, markdown, page


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 3), "white").save(out, format="PNG")
    return out.getvalue()


def test_markdown_as_the_bot_writes_it() -> None:
    names = {42: "Anna"}
    assert markdown("➡️ <@42> to decide.", names) == '➡️ <span class="mention">@Anna</span> to decide.'
    assert markdown("**5** VP · *Host* `x<y`\nnext", names) == "<b>5</b> VP · <i>Host</i> <code>x&lt;y</code><br>next"
    assert markdown("<@7> & co", names) == '<span class="mention">@someone</span> &amp; co'


def test_the_page_shows_board_buttons_private_menu_and_scores() -> None:
    board = Shown("Saint Petersburg", True, "", [EmbedView("Saint Petersburg — round 3", "➡️ <@1> to decide.",
                                                          fields=[("Anna", "**6** VP", True)], image=_png())],
                  [[Control("button", "Your move", "▶️", "success"), Control("button", "My hand", "🃏", "primary")],
                   [Control("select", "Pass automatically…")]])
    menu = Shown("Saint Petersburg", True, "Your move, Anna.", rows=[[Control("select", "Buy a card…")]],
                 ephemeral=True, used="Anna used ▶️ Your move")
    final = Shown("Saint Petersburg", True, "🏁 The game is over. Final scores:",
                  [EmbedView("Final scores", "🏆 Winner: **Anna**", "#d69e2e")])
    text = page(Scene([board, menu], [final], {1: "Anna"}))
    assert text.count('class="message"') == 2 and text.count('class="message ephemeral"') == 1
    assert "Only you can see this" in text and '<div class="used">' in text
    assert '<div class="button success"><span class="emoji">▶️</span>Your move</div>' in text
    assert "Pass automatically…" in text and "Buy a card…" in text
    assert 'src="data:image/png;base64,' in text and '<span class="mention">@Anna</span>' in text
    assert "border-left-color:#d69e2e" in text and "<b>Anna</b>" in text
    assert "<@1>" not in text


def test_without_chromium_it_stops_before_playing(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    played: list[int] = []

    async def play(at_round: int) -> Scene:  # the whole game the script would otherwise play first
        played.append(at_round)
        raise AssertionError("a game was played")

    monkeypatch.setattr(channel_picture, "play", play)
    with pytest.raises(SystemExit) as ended:
        channel_picture.main(["--chromium", "/nowhere/chromium"])
    assert ended.value.code == 2 and played == []
    err = capsys.readouterr().err
    assert "no Chromium" in err and "apt-get install -y chromium" in err and "--no-screenshot" in err
