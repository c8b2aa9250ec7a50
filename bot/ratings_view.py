"""What people see of the ratings (``bot.ratings``): the lines under the final scores and the leaderboard by
rating, read from the store."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules.i18n import t

from .ratings import COMPUTER, USER, Change, Rating, computer_of, shown, user_of

if TYPE_CHECKING:
    from .store import Game, Store

LIMIT = 15  # lines of the leaderboard


def level_name(level: str, lang: str) -> str:
    """A computer level as the lobby's menu names it (Easy, Normal, Strong)."""
    name = t(f"choice.level_{level}", lang)
    return name if name != f"choice.level_{level}" else level


def player_label(player: str, lang: str) -> str:
    """A mention for a member, 🤖 and the level for a computer player."""
    user = user_of(player)
    return f"<@{user}>" if user is not None else f"🤖 {level_name(computer_of(player) or player, lang)}"


async def game_changes(store: Store, game_id: int) -> list[Change]:
    """The rating changes a finished game made (seat order; empty when it was not rated)."""
    rows = await store.fetch_all("SELECT seat, player, mu_before, sigma_before, mu, sigma FROM rating_changes "
                                 "WHERE game_id = ? ORDER BY seat", (game_id,))
    return [Change(int(r[0]), r[1], (float(r[2]), float(r[3])), (float(r[4]), float(r[5]))) for r in rows]


async def standings(store: Store, guild_id: int | None, *, everyone: bool) -> list[Rating]:
    """A server's ratings, best first by μ − 3σ (``everyone``: with the computer levels, else members only)."""
    only = "" if everyone else " AND user_id IS NOT NULL"
    rows = await store.fetch_all(f"SELECT player, mu, sigma, games, wins FROM ratings WHERE guild_id = ?{only}",
                                 (guild_id or 0,))
    out = [Rating(r[0], float(r[1]), float(r[2]), int(r[3]), int(r[4])) for r in rows]
    return sorted(out, key=lambda r: (-r.ordinal, -r.games, r.player))


def _levels(table: Sequence[Rating]) -> list[Rating]:
    """The computer levels among ``table``, weakest first."""
    return sorted((r for r in table if r.player.startswith(COMPUTER)), key=lambda r: (r.ordinal, r.player))


def _level(r: Rating, lang: str) -> str:
    """A computer level's rating row as its level is named."""
    return level_name(computer_of(r.player) or r.player, lang)


def _where(ordinal: float, levels: Sequence[Rating], lang: str) -> str:
    """" · rated above Normal" (the best level below), " · rated below Easy", or nothing without rated levels."""
    below = [lv for lv in levels if lv.ordinal < ordinal]
    if below:
        return t("bot.rating_above", lang, level=_level(below[-1], lang))
    if levels:
        return t("bot.rating_below", lang, level=_level(levels[0], lang))
    return ""


async def final_rating_field(store: Store, game: Game, lang: str) -> tuple[str, str] | None:
    """The final scores' ratings field (name, value): each counted seat's new rating and its change, where a
    person stands against the computer levels, and the seats that count for nobody. None: no results."""
    changes = await game_changes(store, game.id)
    results = await store.results(game.id)
    if not results:
        return None
    if not changes:
        return t("bot.rating_field", lang), t("bot.rating_not_rated", lang)
    levels = _levels(await standings(store, game.guild_id, everyone=True))
    lines = []
    per_player: dict[str, Change] = {}
    for c in changes:  # one line per player (two computers of one level share their rating)
        per_player.setdefault(c.player, c)
    for c in per_player.values():
        new, old = shown(*c.after), shown(*c.before)
        where = _where(c.after[0] - 3 * c.after[1], levels, lang) if c.user_id is not None else ""
        lines.append(t("bot.rating_line", lang, player=player_label(c.player, lang), rating=new,
                       change=f"{new - old:+d}".replace("-", "−")) + where)
    counted = {c.seat for c in changes}
    for r in sorted(results, key=lambda r: r.seat):
        if r.seat not in counted:
            lines.append(t("bot.rating_seat_not_counted", lang,
                           player=f"<@{r.user_id}>" if r.user_id is not None else r.name))
    return t("bot.rating_field", lang), "\n".join(lines)[:1024]


def leaderboard_by_rating(table: Sequence[Rating], lang: str, *, everyone: bool,
                          levels: Sequence[Rating] = ()) -> str:
    """The leaderboard by rating: rank, player, rating, games and wins; under a people-only board the computer
    levels' ratings, so that everyone sees where they stand."""
    if not table:
        return t("bot.rating_empty", lang)
    lines = [t("bot.rating_title_everyone" if everyone else "bot.rating_title", lang)]
    for rank, r in enumerate(table[:LIMIT], 1):
        lines.append(t("bot.rating_board_line", lang, rank=rank, player=player_label(r.player, lang),
                       rating=r.shown, games=r.games, wins=r.wins))
    if not everyone and levels:
        lines.append(t("bot.rating_levels", lang, levels=" · ".join(
            f"{_level(lv, lang)} {lv.shown}" for lv in reversed(levels))))
    return "\n".join(lines)


async def leaderboard_text(store: Store, guild_id: int | None, lang: str, *, everyone: bool) -> str:
    """The server's leaderboard by rating (see ``leaderboard_by_rating``)."""
    table = await standings(store, guild_id, everyone=True)
    shown_rows = table if everyone else [r for r in table if r.player.startswith(USER)]
    return leaderboard_by_rating(shown_rows, lang, everyone=everyone, levels=_levels(table))
