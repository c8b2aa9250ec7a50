"""The board image: round and phase, who decides, the last action, the four phases with their stacks
and start-player tokens, the parts' bands (assistants, marketplace, events and obstacles), the display's
upper and lower rows, and every player's area (``render.tableau``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.i18n import strings

from . import assistants as A
from . import icons
from . import market as M
from . import modules46 as M46
from . import style as S
from .canvas import Box, Canvas
from .common import (
    MARGIN,
    acting_seat,
    legend,
    phase_name,
    phases,
    player_marker,
    player_name,
    suffixed,
    token_icon,
    you,
)
from .display import display_bands, display_height, draw_display
from .tableau import draw_player, player_height
from .text import edition_name, join_names, tr

WIDTH = 1500
INNER = WIDTH - 2 * MARGIN
GAP = 14


def status_text(view: dict[str, Any], lang: str) -> tuple[Callable[[str], str], str]:
    """Who must act now (or who won): a sentence around a name, and the name."""
    if view.get("finished"):
        names = [player_name(view, s) for s in view.get("winners", [])]
        key = "winner" if len(names) == 1 else "winners"
        over = tr("game_over", lang)
        return (lambda nm: f"{over} · {tr(key, lang, names=nm)}"), join_names(names, lang)
    pending = view.get("pending")
    seat = acting_seat(view)
    assert seat is not None
    suffix = you(view, seat, lang)
    key = "to_move"
    if pending and pending.get("kind") == "observatory":
        key = "decides_observatory"
    elif pending and pending.get("kind") == "pub":
        key = "decides_pub"
    elif pending and f"render.decides_{pending.get('kind')}" in strings("en"):  # the expansions' decisions
        key = f"decides_{pending['kind']}"
    return (lambda nm: tr(key, lang, name=nm + suffix)), player_name(view, seat)


# --- drawing ----------------------------------------------------------------------------------
def _header(cv: Canvas, view: dict[str, Any], lang: str, y: int) -> int:
    """Round and phase, who decides, the edition, the discard pile and the last-round warning."""
    edition = int(view["edition"])
    title = f"{tr('round', lang, n=view['round'])} · {phase_name(view['phase'], lang)}"
    status_w = 700
    cv.text((MARGIN, y, WIDTH - MARGIN - status_w - GAP, y + 56), title, tag="header.title", style="bold", size=38,
            min_size=24, fill=S.INK)
    sx0 = WIDTH - MARGIN - status_w
    finished = bool(view.get("finished"))
    cv.draw.rounded_rectangle((sx0, y, WIDTH - MARGIN, y + 56), radius=14, fill=S.HILITE_TINT, outline=S.HILITE,
                              width=4)
    seat = acting_seat(view)
    tx = sx0 + 16
    if seat is not None:
        player_marker(cv, sx0 + 30, y + 28, 28, seat)
        tx = sx0 + 54
    elif finished:
        icons.shape(cv.draw, sx0 + 30, y + 28, 34, "star", S.HILITE, S.INK, 2)
        tx = sx0 + 54
    make, name = status_text(view, lang)
    cv.text_named((tx, y + 4, WIDTH - MARGIN - 14, y + 52), make, name, tag="header.status", style="bold", size=28,
                  min_size=16, lines=1, fill=S.INK)
    y += 56 + 6
    info = f"{edition_name(edition, lang)} · {tr('discard_count', lang, n=len(view.get('discard', [])))}"
    cv.text((MARGIN, y, WIDTH // 2, y + 30), info, tag="header.info", size=22, min_size=14, fill=S.INK_SOFT)
    sack = view.get("tokens", {}).get("sack")
    if view.get("ending") and not finished:
        cv.text((WIDTH // 2, y, WIDTH - MARGIN, y + 30), tr("last_round", lang), tag="header.ending", style="bold",
                size=24, min_size=14, fill=S.BAD, align="right")
    elif sack is not None and not view.get("market"):  # five players without the Market (P5-05, P5-08)
        cv.text_named((WIDTH // 2, y, WIDTH - MARGIN, y + 30), lambda nm: tr("sack_note", lang, name=nm),
                      player_name(view, int(sack)), tag="header.sack", size=22, min_size=14, fill=S.INK_SOFT,
                      align="right")
    return y + 30


def _last_action(cv: Canvas, text: str, lang: str, y: int) -> int:
    """The last action in words, as the caller gave it."""
    h = 46
    cv.draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + h), radius=10, fill=S.PANEL, outline=S.LINE, width=2)
    cv.text_named((MARGIN + 14, y + 3, WIDTH - MARGIN - 14, y + h - 3), lambda s: tr("last_action", lang, text=s),
                  text, tag="last_action", size=25, min_size=15, fill=S.INK)
    return y + h


def _phase_track(cv: Canvas, view: dict[str, Any], lang: str, y: int) -> int:
    """One box per phase: its stack with the cards left and who holds its start-player token."""
    edition = int(view["edition"])
    h = 128
    track = phases(view)
    n = len(track)
    bw = (INNER - GAP * (n - 1)) // n
    current = view["phase"]
    idx = [p[0] for p in track].index(current) if current in [p[0] for p in track] else -1
    tokens: dict[str, int] = view.get("tokens", {})
    stacks: dict[str, int] = view.get("stacks", {})
    for i, (phase, deck, tok) in enumerate(track):
        x0 = MARGIN + i * (bw + GAP)
        holder = tokens.get(tok)
        who = None if holder is None else (holder, you(view, holder, lang), player_name(view, holder))
        state = "now" if i == idx and not view.get("finished") else ("past" if i < idx else "later")
        cv.tile((x0, y, x0 + bw, y + h), _phase_box, (phase, deck, tok, state, stacks.get(deck, 0), who, edition, lang),
                f"phase.{phase}")
    return y + h


def _phase_box(cv: Canvas, box: Box, phase: str, deck: str, tok: str, state: str, count: int,
               who: tuple[int, str, str] | None, edition: int, lang: str, *, tag: str) -> None:
    """One phase's box (``state``: now, past or later): its name, its stack and count, its start-player token and
    who holds it (seat, the " (you)" suffix, name); painted once (``Canvas.tile``)."""
    x0, y, x1, _ = box
    h = box[3] - box[1]
    is_now = state == "now"
    fill = S.HILITE_TINT if is_now else (S.PANEL_DIM if state == "past" else S.PANEL)
    cv.draw.rounded_rectangle((x0, y, x1, y + h), radius=12, fill=fill, outline=S.HILITE if is_now else S.LINE,
                              width=6 if is_now else 2)
    st = S.deck_style(deck, edition)
    # Row 1: colour shape and phase name.
    icons.shape(cv.draw, x0 + 26, y + 26, 26, st.shape, st.dark, S.INK, 2)
    cv.text((x0 + 46, y + 8, x1 - 12, y + 44), phase_name(phase, lang), tag=f"{tag}.name", style="bold",
            size=27, min_size=16, fill=S.INK)
    # Row 2: the stack and its count.
    icons.card_back(cv.draw, x0 + 14, y + 49, 26, 34, st.dark, st.tint, st.shape)
    cv.text((x0 + 50, y + 48, x1 - 12, y + 84), tr("stack_count", lang, n=count), tag=f"{tag}.stack", size=24,
            min_size=14, fill=S.INK)
    # Row 3: the start-player token and who holds it.
    token_icon(cv, x0 + 27, y + 106, 30, tok, edition)
    tbox = (x0 + 72, y + 90, x1 - 12, y + 122)
    if who is not None:
        player_marker(cv, x0 + 58, y + 106, 18, who[0])
        cv.text_named(tbox, suffixed(who[1]), who[2], tag=f"{tag}.token", style="bold", size=22, min_size=14,
                      fill=S.INK)
    else:
        cv.text(tbox, "—", tag=f"{tag}.token", style="bold", size=22, fill=S.INK)


def draw_board(view: dict[str, Any], lang: str = "en", last_action: str | None = None) -> Canvas:
    """Lay out and draw the board; the Canvas keeps the image and every text box."""
    edition = int(view["edition"])
    players = view["players"]
    n = len(players)
    # Player grid: two per row; an odd last player spans the row.
    rows: list[list[int]] = [list(range(i, min(i + 2, n))) for i in range(0, n, 2)]
    half = (INNER - GAP) // 2
    row_h = [max(player_height(view, s, half if len(row) > 1 else INNER, lang) for s in row) for row in rows]
    bands = display_bands(view)
    market_h = M.height(view)
    modules_h = M46.height(view)
    assistants_h = A.height(view)
    height = (
        MARGIN + 62 + 30 + GAP + (46 + GAP if last_action else 0) + 128 + GAP + (market_h + GAP if market_h else 0)
        + (modules_h + GAP if modules_h else 0) + (assistants_h + GAP if assistants_h else 0)
        + display_height(bands, INNER) + GAP + 4 + sum(row_h) + GAP * len(rows) + 40 + MARGIN
    )
    cv = Canvas(WIDTH, height, S.BG)
    y = _header(cv, view, lang, MARGIN) + GAP
    if last_action:
        y = _last_action(cv, last_action, lang, y) + GAP
    y = _phase_track(cv, view, lang, y) + GAP
    if assistants_h:
        y = A.draw_assistants(cv, view, lang, y, WIDTH) + GAP
    if market_h:
        y = M.draw_marketplace(cv, view, lang, y, WIDTH) + GAP
    if modules_h:
        y = M46.draw(cv, view, lang, y, WIDTH) + GAP
    y = draw_display(cv, view, lang, y, INNER) + GAP + 4
    for row, h in zip(rows, row_h, strict=True):
        for j, seat in enumerate(row):
            x0 = MARGIN + j * (half + GAP)
            x1 = x0 + half if len(row) > 1 else WIDTH - MARGIN
            draw_player(cv, view, seat, (x0, y, x1, y + h), lang)
        y += h + GAP
    legend(cv, (MARGIN, y, WIDTH - MARGIN, y + 40), edition, lang, bool(view.get("market")), bool(view.get("banquet")))
    return cv

