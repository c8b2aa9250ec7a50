"""An organiser's adjudication of a table: the places they decide end the table's game (aborted, not rated) and
are its result in the standings, written to the game's thread and the tournament's channel.

``places`` are given in the table's seat order (``2 1 3``: the first seat second, the second seat first …),
as a table's own places are: equal numbers share a place, and a shared place takes the places it covers
(``1 1 3``, never ``1 1 2``). Computer seats (``computers``) are places too, and the points follow the
places as for a game played to its end. No VP are counted for an adjudicated table (its VP share is 0).
"""

from __future__ import annotations

import re
from typing import Any

from .service import GameService
from .service_base import UserError
from .store import ABORTED, ACTIVE
from .store.tournaments import RUNNING, TableRow, Tournament

SPLIT = re.compile(r"[\s,;/]+")


def parse_places(text: str, seats: int) -> list[int]:
    """The places of ``seats`` seats from the organiser's text, or a UserError: one a seat, each 1 to
    ``seats``, a ranking as a table has (a place shared by k seats is followed by the place k further on)."""
    raw = [x for x in SPLIT.split(text.strip()) if x]
    if len(raw) != seats or not all(x.isdigit() for x in raw):
        raise UserError("tournament_places", n=seats)
    places = [int(x) for x in raw]
    ranked = sorted(places)
    for i, p in enumerate(ranked):
        if p != (i + 1 if i == 0 or p != ranked[i - 1] else ranked[i - 1]):
            raise UserError("tournament_places", n=seats)
    return places


def judged_result(table: TableRow, places: list[int]) -> dict[str, Any]:
    """The table's result from the organiser's places (the entrants' seats; VP 0)."""
    return {"size": len(table.players), "vp_total": 0, "adjudicated": True,
            "seats": [[u, p, 0] for u, p in zip(table.players, places, strict=True) if u > 0]}


async def adjudicate(svc: GameService, tr: Tournament, round_no: int, table_no: int, text: str,
                     user_id: int) -> tuple[TableRow, list[int]]:
    """Decide a table of the running round: its result (once) and its game ended, with a notice in its thread.
    UserError when the tournament, round or table is not one in play, or the places are wrong."""
    store = svc.store
    if tr.status != RUNNING:
        raise UserError("tournament_not_running")
    if round_no != tr.round:
        raise UserError("tournament_no_table", round=tr.round)
    table = next((x for x in await store.tournament_tables(tr.id, round_no) if x.table_no == table_no), None)
    if table is None:
        raise UserError("tournament_no_table", round=tr.round)
    if table.result is not None:
        raise UserError("tournament_table_over")
    if table.game_id is None:
        raise UserError("tournament_table_unmade")
    places = parse_places(text, len(table.players))
    async with svc.lock(table.game_id):
        game = await store.get_game(table.game_id)
        if game is None or game.status not in (ACTIVE, ABORTED):
            raise UserError("tournament_table_over")
        if not await store.set_table_result(table, judged_result(table, places)):
            raise UserError("tournament_table_over")
        named = ", ".join(f"{p}. " + (f"<@{u}>" if u > 0 else game.seats[i].name)
                          for i, (u, p) in sorted(enumerate(zip(table.players, places, strict=True)),
                                                  key=lambda x: x[1][1]))
        notice = ("bot.t_adjudicated_game", {"player": user_id, "places": named})
        if game.status == ACTIVE:
            await store.set_status(game.id, game.version, ABORTED, [notice])
        svc._modes.pop(game.id, None)
    table.result = judged_result(table, places)
    return table, places
