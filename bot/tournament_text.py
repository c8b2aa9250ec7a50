"""A tournament in words: the announcement, its options, the standings (``bot.tournaments`` computes them)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rules.i18n import t

from .lobby import parts_of
from .store.tournaments import CANCELLED, DONE, RUNNING, Entrant, Tournament
from .tournaments import COMPUTER_LEVEL, DEFAULTS, HEATS, Standings

LINES = 25  # standings lines shown in the embed (the rest: /petersburg tournament standings)


def number(x: Fraction) -> str:
    """Points as people write them: 6, 4.5, 3.33."""
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.2f}".rstrip("0").rstrip(".")


def who(user: int, lang: str) -> str:
    """A table's seat in a message: the member's mention, or a computer seat's name (a negative id)."""
    return f"<@{user}>" if user > 0 else t("bot.computer_name", lang, level=t(f"bot.level_{COMPUTER_LEVEL}", lang))


def options_text(tr: Tournament, lang: str) -> str:
    """The tournament's options in words (the announcement's first lines)."""
    head, _players, *_ = announcement(tr, [], lang).split("\n")
    return head + game_options(tr.settings, lang)


def game_options(s: dict[str, Any], lang: str) -> str:
    """The games' parts and options in words (a line of the announcement)."""
    parts = ", ".join(t(f"bot.part_{k}", lang) for k in parts_of(s)) or t("bot.parts_none", lang)
    onoff = {k: t("bot.on" if int(s.get(k, DEFAULTS[k])) else "bot.off", lang) for k in ("takeback", "hints")}
    return t("bot.t_game_options", lang, parts=parts, language=t(f"bot.t_lang_{s.get('lang', 'en')}", lang),
             takebacks=onoff["takeback"], hints=onoff["hints"],
             rated=t("bot.t_rated" if int(s.get("rated", 1)) else "bot.t_unrated", lang),
             computers=t("bot.t_computers", lang) if int(s.get("computers", 0)) else "")


def announcement(tr: Tournament, entrants: list[Entrant], lang: str) -> str:
    """The announcement: the options in words, who has signed up, and where the tournament stands."""
    s = tr.settings
    fmt = t("bot.t_format_heats" if tr.format == HEATS else "bot.t_format_swiss", lang, rounds=s["rounds"],
            heats=s["heats"])
    money = t("bot.money_open" if s.get("open_money", True) else "bot.money_hidden", lang)
    until = s.get("signup_until")
    window = t("bot.t_window", lang, until=f"<t:{int(until)}:R>") if until else ""
    players = ", ".join(f"<@{e.user_id}>" for e in entrants) or t("bot.t_nobody", lang)
    text = t("bot.t_announce", lang, name=tr.name, format=fmt, size=s["size"],
             points=t(f"bot.t_points_{s['points']}", lang), edition=s["edition"], money=money,
             deadline=s["deadline_hours"], host=f"<@{tr.host_id}>", window=window, n=len(entrants),
             max=s["max_players"], players=players)
    text += game_options(s, lang)
    if tr.status == RUNNING:
        text += t("bot.t_status_running", lang, round=tr.round)
    elif tr.status == DONE:
        text += t("bot.t_status_finished", lang)
    elif tr.status == CANCELLED:
        text += t("bot.t_status_cancelled", lang)
    return text[:2000]


def standings_lines(table: Standings, lang: str, limit: int = LINES) -> list[str]:
    lines = [t("bot.t_standings_head", lang)]
    for r in table.rows[:limit]:
        share = f"{float(r.vp_share) * 100:.0f}"
        lines.append(t("bot.t_standings_line", lang, rank=r.rank, player=table.names.get(r.player, str(r.player)),
                       dropped=t("bot.t_dropped_mark", lang) if r.dropped else "", points=number(r.points),
                       games=r.games, byes=r.byes, buchholz=number(r.buchholz), share=share))
    return lines


def standings_embed_parts(tr: Tournament, table: Standings, lang: str) -> dict[str, Any]:
    """Title and description of the standings embed."""
    title = t("bot.t_standings_final" if table.finished else "bot.t_standings_title", lang, name=tr.name,
              round=tr.round)
    body = "\n".join(standings_lines(table, lang))
    return {"title": title[:256], "description": body[:4096]}


def standings_data(tr: Tournament, table: Standings, limit: int = LINES) -> dict[str, Any]:
    """The standings picture's data (``render.standings``): the same rows as the embed, in words."""
    rows = [{"rank": r.rank, "name": table.names.get(r.player, str(r.player)), "points": number(r.points),
             "games": r.games, "byes": r.byes, "buchholz": number(r.buchholz),
             "share": round(float(r.vp_share) * 100), "dropped": bool(r.dropped)} for r in table.rows[:limit]]
    return {"name": tr.name, "round": tr.round, "finished": table.finished, "rows": rows,
            "more": max(0, len(table.rows) - limit)}


def podium(tr: Tournament, table: Standings, lang: str) -> str:
    top = [f"<@{r.player}>" for r in table.rows[:3]] + ["-", "-", "-"]
    return t("bot.t_podium", lang, name=tr.name, first=top[0], second=top[1], third=top[2])
