"""A game's review in words and as the picture's data, for one reader (``reader``: the seat they held, or None).

Nothing hidden during play is revealed: a decision is told by the words the channel showed for it (the
action's public headline, ``bot.texts.action_headline``), its chances and its label; the move the strong
player preferred is named to the decision's own seat, and to the others only where naming it reveals nothing
that was hidden then (``preferred_public``: else "another move"). The decisions' positions come from the
replay (``bot.replays.ReplayGame``), which the replay viewer shows too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules import GameState, parse_for
from rules.i18n import t
from rules.view import view

from .action_text import describe_action
from .replays import ReplayGame
from .texts import action_headline

COSTLIEST = 3  # decisions told per seat
SWINGS = 5  # the biggest swings marked on the picture


def pct(chance: float) -> int:
    return round(100 * chance)


def drop(d: dict[str, Any]) -> float:
    """The decision's drop of the mover's chance to win, in points."""
    return max(0.0, 100.0 * (float(d["before"]) - float(d["after"])))


def preferred_words(d: dict[str, Any], st: GameState, lang: str, reader: int | None) -> str | None:
    """The preferred move in words for ``reader``; None where naming it would reveal something hidden."""
    own = reader is not None and reader == d["seat"]
    if not own and not d["preferred_public"]:
        return None
    action = parse_for(st, str(d["preferred"]))
    return describe_action(action, st.ruleset.edition, lang, cat=st.ruleset.catalogue,
                           view=view(st, int(d["seat"])) if own else None)


def played_words(d: dict[str, Any], r: ReplayGame, names: Sequence[str], edition: int, lang: str) -> str:
    """The move played, as the channel showed it."""
    row = r.rows[int(d["index"])]
    line = action_headline(row.events, names, edition, lang) or str(d["played"])
    return line.rstrip(".")


def decision_text(d: dict[str, Any], r: ReplayGame, names: Sequence[str], lang: str, reader: int | None) -> str:
    """"Round 3, Buildings: Boris bought Market for 5; the strong player preferred … (chance to win 41 % → 28 %)"."""
    st = r.state(int(d["index"]))
    edition = st.ruleset.edition
    played = played_words(d, r, names, edition, lang)
    phase = t(f"phase.{d['phase']}", lang)
    chances = {"before": pct(d["before"]), "after": pct(d["after"])}
    if d["preferred"] == d["played"]:
        return t("bot.review_agrees", lang, round=d["round"], phase=phase, played=played, **chances)
    preferred = preferred_words(d, st, lang, reader)
    if preferred is None:
        return t("bot.review_decision_hidden", lang, round=d["round"], phase=phase, played=played, **chances)
    return t("bot.review_decision", lang, round=d["round"], phase=phase, played=played, preferred=preferred,
             **chances)


def label_text(label: str | None, lang: str) -> str:
    return t(f"bot.review_label_{label or 'good'}", lang)


def costliest(review: dict[str, Any], seat: int, k: int = COSTLIEST) -> list[dict[str, Any]]:
    """The seat's ``k`` decisions that cost it most (drops above nothing), in the order played."""
    own = [d for d in review["decisions"] if d["seat"] == seat and drop(d) > 0]
    return sorted(sorted(own, key=drop, reverse=True)[:k], key=lambda d: int(d["index"]))


def mistakes_of(review: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The seat's labelled decisions, in the order played."""
    return [d for d in review["decisions"] if d["seat"] == seat and d["label"]]


def seat_line(summary: dict[str, Any], name: str, lang: str) -> str:
    return t("bot.review_seat", lang, player=name, accuracy=round(float(summary["accuracy"])),
             inaccuracies=summary["inaccuracies"], mistakes=summary["mistakes"], blunders=summary["blunders"],
             decisions=summary["decisions"])


def summary_text(review: dict[str, Any], r: ReplayGame, names: Sequence[str], lang: str,
                 reader: int | None) -> list[str]:
    """Per seat: its accuracy and counts, then its costliest decisions in words."""
    lines: list[str] = []
    for s in review["seats"]:
        seat = int(s["seat"])
        lines.append(seat_line(s, names[seat], lang))
        lines += [f"• {decision_text(d, r, names, lang, reader)}" for d in costliest(review, seat)]
    return lines


def chart_data(review: dict[str, Any], r: ReplayGame, names: Sequence[str]) -> dict[str, Any]:
    """The picture's data (``render.review``): the seats, the chances, where each phase begins, the swings."""
    phases: list[list[Any]] = []
    for k, s in enumerate(r.states):
        key = [int(s["round"]), str(GameState.from_json(s).phase_key)] if k == 0 or s["phase"] != r.states[k - 1][
            "phase"] or s["round"] != r.states[k - 1]["round"] else None
        if key is not None:
            phases.append([k, *key])
    ranked = sorted(review["decisions"], key=drop, reverse=True)[:SWINGS]
    swings = [[int(d["index"]) + 1, int(d["seat"])] for d in ranked if drop(d) > 0]
    seats = [{"name": names[int(s["seat"])], **{k: s[k] for k in ("accuracy", "inaccuracies", "mistakes",
                                                                  "blunders")}} for s in review["seats"]]
    return {"seats": seats, "chances": review["chances"], "phases": phases, "swings": swings,
            "edition": r.state(0).ruleset.edition, "game": r.game_id}
