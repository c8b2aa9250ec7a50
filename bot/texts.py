"""Text for people: the board, hands, moves, events, the log, statistics, history and final scores, from
``rules.view`` output and stored events (worded by ``rules.describe``).

Pure functions (no Discord objects) so they are cheap to test. All words go through
``rules.i18n.t`` (keys in ``data/i18n/<lang>/bot.json`` and ``rules.json``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import DRAWN, HAND, LOWER, UPPER, Move
from rules.cards import any_type
from rules.describe import describe, headline
from rules.expansions.assignments import assignment_name, assignment_short
from rules.expansions.assistants import assistant_name
from rules.expansions.module4 import event_name
from rules.i18n import card_name, source_order, t

from .action_text import assignment_now, own_assignments, rubles
from .action_text import describe_action as describe_action
from .action_text import has_text as has_text
from .store import FinishedGame, Standing
from .timers import Timing

TOKEN_EMOJI = {"hammer": "🔨", "cathedral": "⛪", "bust": "🗿", "hand": "✋", "sack": "💰"}
COLOUR_EMOJI = {"green": "🟩", "blue": "🟦", "red": "🟥", "yellow": "🟨"}
ROW_KEYS = {UPPER: "row.upper", LOWER: "row.lower", HAND: "row.hand", DRAWN: "row.drawn"}


@dataclass(slots=True)
class BoardText:
    """A board as an embed: title, description and one field per player."""

    title: str
    description: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    footer: str = ""


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def card_label(card_id: str, edition: int, lang: str, with_cost: bool = True) -> str:
    """``Lumberjack (3)``: the card's name and printed cost."""
    name = card_name(card_id, edition, lang)
    if not with_cost:
        return name
    ct = any_type(edition, card_id)
    return f"{name} ({ct.cost})" if ct is not None else name


def move_choice_label(move: Move, edition: int, lang: str) -> str:
    """Label of a legal move in an autocomplete list (max 100 characters)."""
    return describe_action(move.action, edition, lang, move.price)[:100]


def _names(view: dict[str, Any], names: Sequence[str] | None) -> list[str]:
    return list(names) if names is not None else [p["name"] for p in view["players"]]


EVENT_EMOJI = {"observe": "🔭", "score": "💰", "pub": "🍺", "end_triggered": "⏳", "game_end": "🏁", "takeback": "↩️"}


def event_lines(events: Sequence[dict[str, Any]], names: Sequence[str], edition: int, lang: str, *,
                auto: str | None = None, hidden: Container[int] = ()) -> list[str]:
    """One action's events in words, by ``rules.describe`` (the one event formatter): the action itself,
    drawn cards, scorings, Pub decisions, new phases, the end. ``auto``: why the bot acted, added to the
    automatic action's line. ``hidden``: seats whose money the reader may not know (their scoring income
    in rubles is left out)."""
    lines: list[str] = []
    for i, ev in enumerate(events):
        kind = ev.get("type")
        if kind == "score" and ev.get("seat") in hidden:  # money hidden: the VP only (UI-15 where known)
            key = "bot.score_hidden_totals" if "vp_after" in ev else "bot.score_hidden"
            after = ev.get("vp_after", 0)
            line = t(key, lang, player=names[ev["seat"]], phase=t(f"phase.{ev['phase']}", lang), vp=ev["vp"],
                     vp_before=after - ev["vp"], vp_after=after) if ev.get("vp") else None
        else:
            line = describe(ev, names, edition, lang)
        if not line:
            continue
        if auto is not None and (ev.get("auto") or (auto == "computer" and i == 0)):
            line = line.rstrip(".") + " — " + t(f"bot.auto_{auto}", lang)
        emoji = EVENT_EMOJI.get(str(kind))
        lines.append(f"{emoji} {line}" if emoji else line)
    return lines


def action_headline(events: Sequence[dict[str, Any]], names: Sequence[str], edition: int, lang: str) -> str | None:
    """The action among ``events`` in one line (the board picture's "last action")."""
    return headline(events, names, edition, lang)


def log_text(rows: Sequence[tuple[int, Sequence[dict[str, Any]], str | None]], names: Sequence[str], edition: int,
             lang: str, hidden: Container[int] = ()) -> str:
    """The game log: per action (index, events, auto) its number and its events in words."""
    out: list[str] = []
    for idx, events, auto in rows:
        lines = event_lines(events, names, edition, lang, auto=auto, hidden=hidden)
        if not lines:
            continue
        out.append(f"`{idx + 1:>3}` {lines[0]}")
        out.extend(f"{'':>6}{line}" for line in lines[1:])
    return "\n".join(out)


def duration(minutes: int, lang: str) -> str:
    """``90`` -> ``1 h 30 min``; 0 -> ``off``."""
    if minutes <= 0:
        return t("bot.off", lang)
    d, rest = divmod(minutes, 1440)
    h, m = divmod(rest, 60)
    parts = [f"{d} {t('bot.unit_d', lang)}" if d else "", f"{h} h" if h else "", f"{m} min" if m else ""]
    return " ".join(p for p in parts if p)


def timing_text(timing: Timing, lang: str) -> str:
    """The reminder, its interval and the time-out in words."""
    return t("bot.settings_line", lang, reminder=duration(timing.reminder, lang),
             interval=duration(timing.interval, lang), autopass=duration(timing.autopass, lang))


def _cell(value: Any) -> str:
    return "?" if value is None else str(value)


def _table(header: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]]) -> str:
    """A monospace table (for a code block): a label column, then one right-aligned column per player."""
    filled = [r for r in rows if r[0]]  # a row without a label is a blank separator
    lw = max([len(label) for label, _ in filled] + [1])
    widths = [max([len(h)] + [len(r[1][i]) for r in filled]) for i, h in enumerate(header)]
    lines = [" " * lw + "".join(f"  {h:>{w}}" for h, w in zip(header, widths, strict=True))]
    for label, cells in rows:
        if not label:
            lines.append("")
            continue
        lines.append(f"{label:<{lw}}" + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths, strict=True)))
    return "\n".join(lines)


def stats_text(view: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> BoardText:
    """Yucata-style overview from a player's view: income per phase kind in rubles and VP, rubles spent,
    cards bought, taken and traded, VP by source (the final breakdown at the end), VP per round. Figures
    the viewer may not know (hidden money) show as ``?``."""
    who = _names(view, names)
    players = view["players"]
    header = [w[:9] for w in who]
    rows: list[tuple[str, list[str]]] = []
    scoring = list(dict.fromkeys(ph["key"] for ph in view["phases"] if ph["scores"]))
    for key in scoring:
        phase = t(f"phase.{key}", lang)
        rows.append((t("bot.stat_rubles", lang, phase=phase),
                     [_cell(None if p["rubles"] is None else p["stats"].get(f"{key}_rubles", 0)) for p in players]))
        rows.append((t("bot.stat_vp", lang, phase=phase), [_cell(p["stats"].get(f"{key}_vp", 0)) for p in players]))
    rows.append((t("bot.stat_spent", lang),
                 [_cell(None if p["rubles"] is None else p["stats"].get("spent", 0)) for p in players]))
    for counter in ("bought", "taken", "traded"):
        rows.append((t(f"bot.stat_{counter}", lang), [_cell(p["stats"].get(counter, 0)) for p in players]))
    for counter in ("crates_paid", "marketplace_vp"):  # the Market (Yucata's summary table shows them)
        if any(counter in p["stats"] for p in players):
            rows.append((t(f"bot.stat_{counter}", lang), [_cell(p["stats"].get(counter, 0)) for p in players]))
    rows.append(("", []))
    sources = source_order(src for p in players for src, vp in p["vp_by_source"].items() if vp)
    for src in sources:
        rows.append((t(f"source.{src}", lang), [f"{p['vp_by_source'].get(src, 0):+d}" for p in players]))
    rows.append((t("bot.stat_total_vp", lang), [str(p["vp"]) for p in players]))
    rows.append((t("bot.stat_rubles_now", lang), [_cell(p["rubles"]) for p in players]))
    table = _table(header, rows)
    if view["finished"]:
        title = t("bot.stats_title_final", lang)
    else:
        title = t("bot.stats_title", lang, round=view["round"], phase=t(f"phase.{view['phase']}", lang))
    fields: list[tuple[str, str]] = []
    if view["history"]:
        per_round = [f"{who[s]}: " + " → ".join(str(h["vp"][s]) for h in view["history"]) for s in range(len(who))]
        fields.append((t("bot.stat_vp_per_round", lang), "\n".join(per_round)[:1024]))
    footer = t("bot.stats_hidden", lang) if any(p["rubles"] is None for p in players) else ""
    return BoardText(title[:256], f"```\n{table}\n```", fields, footer)


def history_text(games: Sequence[FinishedGame], lang: str) -> str:
    """Recent finished games: number, date, edition, scores, winners crowned."""
    if not games:
        return t("bot.history_empty", lang)
    lines = [t("bot.history_title", lang)]
    for g in games:
        scores = " · ".join(
            ("👑 " if r.winner else "") + (f"<@{r.user_id}>" if r.user_id else r.name) + f" {r.vp}" for r in g.results)
        if any(r.computer for r in g.results):
            scores += " · 🤖"
        lines.append(t("bot.history_line", lang, game=g.id, date=f"<t:{int(g.finished_at)}:d>", edition=g.edition,
                       scores=scores))
    return "\n".join(lines)


def leaderboard_text(standings: Sequence[Standing], lang: str) -> str:
    """The server's leaderboard: wins, games, average and best VP."""
    if not standings:
        return t("bot.history_empty", lang)
    lines = [t("bot.leaderboard_title", lang)]
    for rank, s in enumerate(standings, 1):
        lines.append(t("bot.leaderboard_line", lang, rank=rank, player=f"<@{s.user_id}>", wins=s.wins,
                       games=s.games, average=f"{s.average:.1f}", best=s.best))
    return "\n".join(lines)


def _tableau(view: dict[str, Any], player: dict[str, Any], lang: str) -> str:
    ed = view["edition"]
    by_colour: dict[str, Counter[str]] = {}
    for entry in player["tableau"]:
        ct = any_type(ed, entry["card"])
        if ct is None:
            raise KeyError(entry["card"])
        label = card_name(ct.id, ed, lang) + (" 💤" if entry["face_down"] else "")
        by_colour.setdefault(ct.colour, Counter())[label] += 1
    out = []
    for colour in ("green", "yellow", "blue", "red"):
        cnt = by_colour.get(colour)
        if cnt:
            items = [f"{name} ×{n}" if n > 1 else name for name, n in cnt.items()]
            out.append(f"{COLOUR_EMOJI[colour]} " + ", ".join(items))
    return "\n".join(out) if out else t("bot.empty_tableau", lang)


def _parts_lines(view: dict[str, Any], lang: str) -> list[str]:
    """The modules' public board lines: the events, free or used (M4-16)."""
    events = (view.get("module4") or {}).get("events")
    if not events:
        return []
    names = [(event_name(e["id"], lang), e["used_by"] is None) for e in events]
    words = [name if free else f"~~{name}~~" for name, free in names]
    return [f"**{t('bot.events', lang)}:** " + " · ".join(words)]


def _player_parts(view: dict[str, Any], player: dict[str, Any], lang: str) -> list[str]:
    """A player's assistant and discount (M3-08) and his status at each obstacle with his progress toward it
    (M6-21, UI-16: Κ not reached, ∅ blocked, > met, + passed); the public view's, nothing secret."""
    out: list[str] = []
    assistant = player.get("assistant")
    if assistant:
        entry = next((a for a in view.get("assistants") or [] if a["assistant"] == assistant), None)
        discount = (entry or {}).get("discount", [])
        off = ", ".join(t(f"render.assistant_discount.{sel}", lang, n=n) for sel, n in discount)
        out.append(f"🧑‍💼 {assistant_name(assistant, lang)}" + (f" ({off})" if off else ""))
    obstacles = (view.get("module6") or {}).get("obstacles") or []
    marks = []
    for ob in obstacles:
        mine = ob["players"][player["seat"]]
        progress = f" {mine['text']}" if mine["text"] and mine["status"] != "passed" else ""
        marks.append(f"{ob['field']}{mine['symbol']}{progress}")
    if marks:
        out.append("🚧 " + " · ".join(marks))
    return out


def board_text(view: dict[str, Any], lang: str, *, names: Sequence[str] | None = None,
               mentions: Sequence[str] | None = None, last: Sequence[str] = ()) -> BoardText:
    """The public board (``view`` for a spectator): rows, stacks, players, whose turn it is."""
    ed = view["edition"]
    who = _names(view, names)
    title = t("bot.board_title", lang, round=view["round"], phase=t(f"phase.{view['phase']}", lang))
    lines: list[str] = [f"» {x}" for x in last]
    if lines:
        lines.append("")

    def row(ids: list[str]) -> str:
        return " · ".join(card_label(c, ed, lang) for c in ids) or "—"

    lines.append(f"**{_cap(t('row.upper', lang))}:** {row(view['upper'])}")
    lines.append(f"**{_cap(t('row.lower', lang))}:** {row(view['lower'])}")
    stacks = " · ".join(f"{t(f'deck.{k}', lang)} {n}" for k, n in view["stacks"].items())
    lines.append(f"**{t('bot.stacks', lang)}:** {stacks}")
    if view["ending"] and not view["finished"]:
        lines.append(t("bot.last_round", lang))
    pending = view.get("pending")
    if pending is not None and not view["finished"]:
        if pending["kind"] == "observatory":
            lines.append(t("bot.pending_observatory", lang, player=who[pending["seat"]],
                           card=card_label(pending["card"], ed, lang)))
        elif pending["kind"] == "pub":
            lines.append(t("bot.pending_pub", lang, player=who[pending["seat"]]))
        else:  # the Market's and the expansions' decisions: the rules' own words for what is asked
            card = card_label(pending["card"], ed, lang) if pending.get("card") else ""
            public = f"bot.pending_public.{pending['kind']}"  # worded for all who read the board (M5-19)
            what = t(public if has_text(public, lang) else f"pending.{pending['kind']}", lang, card=card)
            lines.append(t("bot.pending_generic", lang, player=who[pending["seat"]], what=what))
    lines.extend(_parts_lines(view, lang))
    decider = view.get("decider")
    if decider is not None:
        mention = mentions[decider] if mentions is not None and decider < len(mentions) else who[decider]
        lines.append("")
        lines.append(t("bot.to_decide", lang, player=mention))
    fields: list[tuple[str, str]] = []
    for p in view["players"]:
        tokens = "".join(TOKEN_EMOJI.get(tok, "") for tok in p["tokens"])
        marker = "▶ " if decider == p["seat"] else ""
        name = f"{marker}{who[p['seat']]} {tokens}".strip()
        money = "?" if p["rubles"] is None else str(p["rubles"])
        stats = t("bot.player_line", lang, vp=p["vp"], rubles=money, hand=p["hand_count"], limit=p["hand_limit"])
        extra = "".join("\n" + x for x in _player_parts(view, p, lang))
        fields.append((name[:256], (stats + extra + "\n" + _tableau(view, p, lang))[:1024]))
    footer = t("bot.edition", lang, edition=ed)
    return BoardText(title, "\n".join(lines)[:4000], fields, footer)


def hand_text(view: dict[str, Any], lang: str) -> str:
    """A player's own hand (``view`` for that seat) with current prices."""
    seat = view["viewer"]
    ed = view["edition"]
    me = view["players"][seat]
    prices = {h["card"]: h for h in view.get("hand_prices", [])}
    lines = [t("bot.hand_title", lang, n=me["hand_count"], limit=me["hand_limit"])]
    if not me["hand"]:
        lines.append(t("bot.hand_empty", lang))
    for cid in me["hand"] or []:
        info = prices.get(cid)
        extra = ""
        if info is not None:
            cost = t("bot.no_target", lang) if info["price"] is None else rubles(info["price"], lang)
            extra = " — " + cost
            if info["playable"]:
                extra += " ✅"
        lines.append(f"• {card_label(cid, ed, lang)}{extra}")
    if me["rubles"] is not None:
        lines.append(t("bot.you_have", lang, rubles=me["rubles"], vp=me["vp"]))
    mine = own_assignments(view)  # M5-19, UI-13: the owner's only, with what each would score now
    if mine:
        lines.append(t("bot.hand_assignments", lang))
        for entry in mine:
            chosen = t("bot.hand_assignment_chosen", lang) if me.get("assignment_chosen") == entry["id"] else ""
            lines.append(t("bot.hand_assignment", lang, name=assignment_name(entry["id"], lang),
                           what=assignment_short(entry["id"], len(view["players"]), lang),
                           now=assignment_now(entry, lang)) + chosen)
    return "\n".join(lines)


def final_text(view: dict[str, Any], lang: str, names: Sequence[str] | None = None) -> BoardText:
    """Final scores with the breakdown by source, winners first."""
    who = _names(view, names)
    final = {f["seat"]: f for f in view.get("final") or []}
    order = sorted(view["players"], key=lambda p: (-p["vp"], -(p["rubles"] or 0)))
    winners = ", ".join(who[s] for s in view.get("winners", []))
    fields: list[tuple[str, str]] = []
    for rank, p in enumerate(order, 1):
        s = p["seat"]
        by_source = p["vp_by_source"]  # in the rulebook's scoring order, the same for every player
        parts = [f"{t('source.' + src, lang)}: {by_source[src]:+d}" for src in source_order(by_source)
                 if by_source[src]]
        f = final.get(s, {})
        parts.append(t("bot.rubles_left", lang, n=f.get("rubles_left", p["rubles"] or 0)))
        crown = " 👑" if s in view.get("winners", []) else ""
        fields.append((f"{rank}. {who[s]} — {p['vp']} {t('word.vp', lang)}{crown}"[:256], "\n".join(parts)[:1024]))
    return BoardText(t("bot.final_title", lang), t("bot.winners", lang, names=winners), fields)


def card_text(card_id: str, edition: int, lang: str) -> str:
    """A card's data: colour, cost, income and rule text."""
    ct = any_type(edition, card_id)
    if ct is None:
        raise KeyError(card_id)
    lines = [f"**{ct.name(lang)}** — {t('colour.' + ct.colour, lang)}"
             + (f", {t('bot.trading_card', lang)}" if ct.trading else ""),
             t("bot.card_stats", lang, cost=ct.cost, rubles=ct.rubles, vp=ct.vp, count=ct.count)]
    if ct.text(lang):
        lines.append(ct.text(lang))
    return "\n".join(lines)
