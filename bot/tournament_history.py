"""A tournament's page in ``/petersburg history``: its rounds, and one round's tables with their players'
places and their games (the cog adds each finished game's ▶️ Replay and 📈 Review)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.i18n import t

from .store import FINISHED, Store
from .store.tournaments import Tournament
from .tournament_text import who
from .tournaments import HEATS

MEDAL = {1: "🥇", 2: "🥈", 3: "🥉"}


@dataclass(frozen=True, slots=True)
class Page:
    text: str
    games: list[int]  # the round's finished games, in table order (their buttons)


async def tournament_page(store: Store, tr: Tournament, round_no: int | None, lang: str) -> Page:
    """The page of ``tr``: every round in a line, then the tables of ``round_no`` (default: the latest)."""
    rounds = await store.rounds(tr.id)
    tables = await store.tournament_tables(tr.id)
    status = t(f"bot.t_history_status_{tr.status}", lang)
    lines = [t("bot.t_history_title", lang, name=tr.name, status=status,
               format=t("bot.t_format_heats" if tr.format == HEATS else "bot.t_format_swiss", lang,
                        rounds=tr.settings["rounds"], heats=tr.settings["heats"]))]
    if not rounds:
        lines.append(t("bot.t_history_no_rounds", lang))
        return Page("\n".join(lines), [])
    for r in rounds:
        mine = [x for x in tables if x.round == r.round]
        done = sum(1 for x in mine if x.result is not None)
        lines.append(t("bot.t_history_round", lang, round=r.round, stage=t(f"bot.t_stage_{r.stage}", lang),
                       done=done, tables=len(mine)))
    shown = round_no if round_no is not None else rounds[-1].round
    if shown not in {r.round for r in rounds}:
        lines.append(t("bot.t_history_no_round", lang, round=shown, last=rounds[-1].round))
        return Page("\n".join(lines), [])
    lines.append(t("bot.t_history_tables", lang, round=shown))
    games: list[int] = []
    for x in (x for x in tables if x.round == shown):
        places = {int(u): int(p) for u, p, _ in (x.result or {}).get("seats", [])}
        seats = " · ".join(MEDAL.get(places.get(u, 0), "") + who(u, lang) for u in x.players)
        game = await store.get_game(x.game_id) if x.game_id is not None else None
        if game is not None and game.status == FINISHED:
            games.append(game.id)
        mark = "" if x.result is None else " ⚖️" if x.result.get("adjudicated") else " 🏁"
        where = f"<#{x.thread_id}>" if x.thread_id else "…"
        lines.append(t("bot.t_history_table", lang, table=x.table_no, where=where, game=f"#{game.id}" if game else "…",
                       seats=seats, mark=mark))
    return Page("\n".join(lines), games)
