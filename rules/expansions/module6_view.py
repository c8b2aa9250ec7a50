"""Module 6 in the view (X-08, M6-21, UI-16, UI-17): each obstacle with each player's status, his
progress toward it and what it gave him."""

from __future__ import annotations

from typing import Any

from ..state import GameState
from .module6 import BONUS, KEY, m6, obstacle_info, placed, progress, status

STATUS_SYMBOLS = {"open": "Κ", "blocked": "∅", "met": ">", "passed": "+"}  # UI-16, as Yucata draws them


# --- view ----------------------------------------------------------------------------------------
def view_fields(st: GameState, seat: int | None, out: dict[str, Any]) -> None:
    """X-08, M6-21, UI-16, UI-17: each obstacle with, per player, its status, the progress toward it
    ("1/5") and what it gave him once passed."""
    m = m6(st)
    info = obstacle_info()
    obstacles = []
    for f, ob in placed(st):
        players = []
        for s in range(st.n):
            prog = progress(st, s, ob, f)
            state = status(st, s, f, ob)
            players.append({
                "status": state,
                "symbol": STATUS_SYMBOLS[state],
                "progress": prog,
                "text": ", ".join(f"{p['have']}/{p['need']}" for p in prog),
                "received": m["received"][s].get(str(f)),
            })
        obstacles.append({"field": f, "id": ob, "real": info[ob]["real"], "players": players})
    out[KEY] = {"obstacles": obstacles, "lost": list(m["lost"])}
    p = st.pending
    if p is not None and p.kind == BONUS and out.get("pending") is not None:
        out["pending"]["field"] = p.card
        out["pending"]["obstacle"] = m["obstacles"][str(p.card)]
