"""Text for people: the board, hands, moves, events and final scores, from ``rules.view`` output.

Pure functions (no Discord objects) so they are cheap to test. All words go through
``rules.i18n.t`` (keys in ``data/i18n/<lang>/bot.json`` and ``rules.json``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules import DRAWN, HAND, LOWER, UPPER, Action, Move, catalogue
from rules.i18n import card_name, t

TOKEN_EMOJI = {"hammer": "🔨", "cathedral": "⛪", "bust": "🗿", "hand": "✋"}
COLOUR_EMOJI = {"green": "🟩", "blue": "🟦", "red": "🟥"}
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


def rubles(n: int, lang: str) -> str:
    return t("bot.rubles", lang, n=n)


def card_label(card_id: str, edition: int, lang: str, with_cost: bool = True) -> str:
    """``Lumberjack (3)``: the card's name and printed cost."""
    name = card_name(card_id, edition, lang)
    if not with_cost:
        return name
    ct = catalogue(edition).by_id.get(card_id)
    return f"{name} ({ct.cost})" if ct is not None else name


def describe_action(action: Action, edition: int, lang: str, price: int | None = None) -> str:
    """A localized description of an action, e.g. ``buy Bank (lower row) over Market: 5 rubles``."""
    k = action.kind
    if k == "pass":
        return t("act.pass", lang)
    if k == "pub":
        text = t("act.pub", lang, vp=action.amount)
    elif k == "observe":
        text = t("act.observe", lang, deck=t(f"deck.{action.card}", lang))
    else:
        text = t(f"act.{k}", lang, card=card_name(action.card, edition, lang))
        if action.row == LOWER:
            text += " " + t("bot.from_lower", lang)
        if action.target:
            text += " " + t("bot.over", lang, card=card_name(action.target, edition, lang))
    if price:
        text += f": {rubles(price, lang)}"
    return text


def move_choice_label(move: Move, edition: int, lang: str) -> str:
    """Label of a legal move in an autocomplete list (max 100 characters)."""
    return describe_action(move.action, edition, lang, move.price)[:100]


def _names(view: dict[str, Any], names: Sequence[str] | None) -> list[str]:
    return list(names) if names is not None else [p["name"] for p in view["players"]]


def event_lines(events: list[dict[str, Any]], view: dict[str, Any], lang: str,
                names: Sequence[str] | None = None) -> list[str]:
    """What happened besides the action itself: drawn cards, scorings, new phases, end of game."""
    ed = view["edition"]
    who = _names(view, names)
    lines: list[str] = []
    scores: dict[str, list[str]] = {}
    for ev in events:
        kind = ev.get("type")
        if kind == "observe":
            lines.append(t("ev.observe", lang, player=who[ev["seat"]], deck=t(f"deck.{ev['deck']}", lang),
                           card=card_name(ev["card"], ed, lang)))
        elif kind == "score":
            part = t("ev.score_part", lang, player=who[ev["seat"]], rubles=ev["rubles"], vp=ev["vp"])
            scores.setdefault(ev["phase"], []).append(part)
        elif kind == "pub" and ev.get("vp"):
            lines.append(t("ev.pub", lang, player=who[ev["seat"]], vp=ev["vp"], rubles=ev["rubles"]))
        elif kind == "end_triggered":
            lines.append(t("ev.end_triggered", lang, deck=t(f"deck.{ev['deck']}", lang)))
        elif kind == "round_end":
            lines.append(t("ev.round_end", lang, round=ev["round"]))
        elif kind == "phase":
            lines.append(t("ev.phase", lang, phase=t(f"phase.{ev['phase']}", lang), round=ev["round"]))
    for phase, parts in scores.items():
        lines.insert(0, t("ev.scoring", lang, phase=t(f"phase.{phase}", lang), parts=", ".join(parts)))
    return lines


def _tableau(view: dict[str, Any], player: dict[str, Any], lang: str) -> str:
    ed = view["edition"]
    cat = catalogue(ed)
    by_colour: dict[str, Counter[str]] = {}
    for entry in player["tableau"]:
        ct = cat.by_id[entry["card"]]
        label = card_name(ct.id, ed, lang) + (" 💤" if entry["face_down"] else "")
        by_colour.setdefault(ct.colour, Counter())[label] += 1
    out = []
    for colour in ("green", "blue", "red"):
        cnt = by_colour.get(colour)
        if cnt:
            items = [f"{name} ×{n}" if n > 1 else name for name, n in cnt.items()]
            out.append(f"{COLOUR_EMOJI[colour]} " + ", ".join(items))
    return "\n".join(out) if out else t("bot.empty_tableau", lang)


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
        fields.append((name[:256], (stats + "\n" + _tableau(view, p, lang))[:1024]))
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
        parts = [f"{t('source.' + src, lang)}: {vp:+d}" for src, vp in p["vp_by_source"].items() if vp]
        f = final.get(s, {})
        parts.append(t("bot.rubles_left", lang, n=f.get("rubles_left", p["rubles"] or 0)))
        crown = " 👑" if s in view.get("winners", []) else ""
        fields.append((f"{rank}. {who[s]} — {p['vp']} {t('word.vp', lang)}{crown}"[:256], "\n".join(parts)[:1024]))
    return BoardText(t("bot.final_title", lang), t("bot.winners", lang, names=winners), fields)


def card_text(card_id: str, edition: int, lang: str) -> str:
    """A card's data: colour, cost, income and rule text."""
    ct = catalogue(edition).by_id[card_id]
    lines = [f"**{ct.name(lang)}** — {t('colour.' + ct.colour, lang)}"
             + (f", {t('bot.trading_card', lang)}" if ct.trading else ""),
             t("bot.card_stats", lang, cost=ct.cost, rubles=ct.rubles, vp=ct.vp, count=ct.count)]
    if ct.text(lang):
        lines.append(ct.text(lang))
    return "\n".join(lines)
