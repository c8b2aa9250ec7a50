"""Driving games through SimCord like people do: commands, buttons and select menus."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple, cast

import discord
import simcord
from simcord.actors import MemberActor

from bot.client import PetersburgBot
from bot.service import GameService
from bot.store import ActionRow, Game
from rules import Action, GameState, legal_moves

TURN_RE = re.compile(r"<@(\d+)>")
# finishes games quickly; "as", "release" and "confirm" are the Market's decisions
PREFERENCE = ("buy", "pub", "take", "discard", "as", "confirm", "release", "pass")
# A position of 2nd edition + Market + Modules 1-6 at five players with five kinds of move (buy, take, play,
# event, Grabber): random game seed 1 (moves drawn with random.Random(1)), before its move 85 (about one
# position in 1,700 has five kinds).
FIVE_KINDS = (1, 85)


def bot_of(env: simcord.Env) -> PetersburgBot:
    bot = env.bot
    assert isinstance(bot, PetersburgBot)
    return bot


async def game_in(env: simcord.Env, channel: simcord.ChannelHandle) -> Game:
    """The game of the channel as stored (open, or the newest one)."""
    store = bot_of(env).store
    assert store is not None
    game = await store.open_game_in_channel(channel.id)
    if game is None:
        rows = await store.fetch_all("SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC", (channel.id,))
        game = await store.get_game(rows[0][0])
    assert game is not None
    return game


async def state_in(env: simcord.Env, channel: simcord.ChannelHandle) -> GameState:
    game = await game_in(env, channel)
    assert game.state is not None
    return GameState.from_json(game.state)


def setup_members(env: simcord.Env, n: int, guild: simcord.GuildHandle | None = None,
                  prefix: str = "p") -> list[MemberActor]:
    g = guild or env.guild
    return [g.add_member(env.create_user(f"{prefix}{i}")) for i in range(n)]


async def start_game(env: simcord.Env, channel: simcord.ChannelHandle, players: list[MemberActor],
                     **create: Any) -> None:
    """Create (first player hosts), join (the others) and start, all by slash command."""
    r = await players[0].slash(channel, "petersburg create", **create)
    assert r.acknowledged and r.ephemeral, r
    assert any(c.custom_id and c.custom_id.startswith("pb:l:") for m in channel.history()
               for row in m.components for c in getattr(row, "children", [])), "no lobby message"
    for p in players[1:]:
        r = await p.slash(channel, "petersburg join")
        assert r.response is not None and r.ephemeral
    r = await players[0].slash(channel, "petersburg start")
    assert r.acknowledged


async def pick_parts(channel: simcord.ChannelHandle, host: MemberActor, parts: list[str],
                     **create: Any) -> simcord.InteractionResult:
    """``host`` creates a game in ``channel`` (``create``: its options) and picks ``parts`` in the lobby's
    expansions select; the answer to the pick."""
    await host.slash(channel, "petersburg create", **create)
    lobby = next(m for m in reversed(channel.history())
                 if any((c.custom_id or "").startswith("pb:x:") for c in controls(m)))
    picker = next(c for c in controls(lobby) if (c.custom_id or "").startswith("pb:x:"))
    return await host.select(lobby, parts, custom_id=picker.custom_id)


def select_kind(custom_id: str) -> str:
    """The kind of move of a private menu's select (``pb:s:GAME:VERSION:guild_hall-0``: guild_hall)."""
    return re.sub(r"-?\d+$", "", custom_id.split(":")[-1])


def controls(message: discord.Message | simcord.ResponseMessage) -> list[Any]:
    msg = message.message if isinstance(message, simcord.ResponseMessage) else message
    return [c for row in msg.components for c in getattr(row, "children", [])]


def your_move_id(board: discord.Message) -> str | None:
    """The custom id of the board's "Your move" button (None: the game is over)."""
    return next((c.custom_id for c in controls(board) if (c.custom_id or "").startswith("pb:y:")), None)


async def new_table(env: simcord.Env, n: int = 2, **create: Any) -> tuple[simcord.ChannelHandle, list[MemberActor]]:
    """A new server with a channel where ``n`` members started a game (``create``: its options)."""
    channel = env.create_guild().create_text_channel("petersburg")
    players = setup_members(env, n)
    await start_game(env, channel, players, **create)
    return channel, players


async def tables_in(env: simcord.Env, count: int, name: str) -> list[tuple[simcord.ChannelHandle, list[MemberActor]]]:
    """``count`` channels ``{name}0``, ``{name}1`` … of one new server, in each two members who started a game."""
    guild = env.create_guild()
    tables = []
    for i in range(count):
        channel = guild.create_text_channel(f"{name}{i}")
        players = setup_members(env, 2, guild, prefix=f"{name[0]}{i}p")
        await start_game(env, channel, players)
        tables.append((channel, players))
    return tables


def board_message(channel: simcord.ChannelHandle) -> discord.Message:
    """The live board: the newest message with a "Your move" button."""
    for m in reversed(channel.history()):
        if your_move_id(m) is not None:
            return m
    raise AssertionError("no board with controls in the channel")


def boards_with_controls(channel: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in channel.history() if your_move_id(m) is not None]


def decider_of(board: discord.Message, players: list[MemberActor]) -> MemberActor:
    """The player the board names as the one to decide."""
    text = "\n".join(e.description or "" for e in board.embeds)
    m = TURN_RE.findall(text)
    assert m, text
    uid = int(m[-1])
    return next(p for p in players if p.id == uid)


def decider(channel: simcord.ChannelHandle, players: list[MemberActor]) -> MemberActor:
    """The player the channel's live board names as the one to decide."""
    return decider_of(board_message(channel), players)


def decider_and_other(channel: simcord.ChannelHandle, players: list[MemberActor]) -> tuple[MemberActor, MemberActor]:
    """The player the live board names to decide, and another player (of two: the one waiting)."""
    actor = decider(channel, players)
    return actor, next(p for p in players if p is not actor)


async def open_menu(actor: MemberActor, board: discord.Message) -> simcord.ResponseMessage:
    """Click the board's "Your move": the private menu (or the private answer) the actor gets."""
    cid = your_move_id(board)
    assert cid is not None, "the board has no Your move button"
    result = await actor.click(board, custom_id=cid)
    shown = reply_of(result)
    assert shown.ephemeral, shown
    return shown


def pick_control(board: discord.Message | simcord.ResponseMessage) -> tuple[str, str, str | None]:
    """(kind, custom_id, value) by PREFERENCE: a select option value or a button (value None)."""
    items = controls(board)
    for kind in PREFERENCE:
        for c in items:
            cid = c.custom_id or ""
            if cid.startswith("pb:s:") and select_kind(cid) == kind:
                opts = [o.value for o in c.options]
                if kind == "pub":
                    opts = [o for o in opts if o.endswith("|0")]  # buy no VP (keep money simple)
                if opts:
                    return kind, cid, opts[0]
            if cid.startswith("pb:b:") and cid.split(":")[-1].startswith(kind + "|"):
                return kind, cid, None
    for c in items:  # an expansion's decision: its first choice
        cid = c.custom_id or ""
        if cid.startswith("pb:s:") and c.options:
            return select_kind(cid), cid, c.options[0].value
        if cid.startswith("pb:b:"):
            return cid.split(":")[-1].split("|")[0], cid, None
    raise AssertionError(f"no control to pick on {board.content!r}")


async def act_by_buttons(env: simcord.Env, channel: simcord.ChannelHandle,
                         players: list[MemberActor]) -> simcord.InteractionResult:
    """The player to decide takes the preferred legal move with the board's selects and buttons."""
    board = board_message(channel)
    actor = decider_of(board, players)
    menu = await open_menu(actor, board)
    kind, cid, value = pick_control(menu)
    if value is None:
        return await actor.click(menu, custom_id=cid)
    result = await actor.select(menu, [value], custom_id=cid)
    if value.startswith("?"):  # a trading card with several targets: choose one privately
        shown = result.followups[-1] if result.followups else result.response
        assert shown is not None and shown.ephemeral
        target = next(c for row in shown.message.components for c in cast(discord.ActionRow, row).children)
        assert isinstance(target, discord.SelectMenu)
        result = await actor.select(shown, [target.options[0].value], custom_id=target.custom_id)
    return result


async def act_by_commands(env: simcord.Env, channel: simcord.ChannelHandle,
                          players: list[MemberActor]) -> simcord.InteractionResult:
    """The player to decide takes the preferred legal move with slash commands and autocomplete."""
    board = board_message(channel)
    actor = decider_of(board, players)
    for kind in PREFERENCE:
        if kind == "pass":
            st = await state_in(env, channel)
            if any(m.action.kind == "pass" for m in legal_moves(st)):
                return await actor.slash(channel, "petersburg pass")
            continue
        if kind in ("pub", "discard", "as", "release", "confirm"):  # pending decisions: one command
            choices = await actor.autocomplete(channel, "petersburg decide", "choice", "")
            choices = [c for c in choices if c["value"].split(" ", 1)[-1].startswith(kind + " ")]
            if choices:
                return await actor.slash(channel, "petersburg decide", choice=choices[0]["value"])
            continue
        choices = await actor.autocomplete(channel, f"petersburg {kind}", "card", "")
        if choices:
            return await actor.slash(channel, f"petersburg {kind}", card=choices[0]["value"])
    choices = await actor.autocomplete(channel, "petersburg decide", "choice", "")
    if choices:  # an expansion's decision or turn action: its first choice
        return await actor.slash(channel, "petersburg decide", choice=choices[0]["value"])
    raise AssertionError("no legal move offered by autocomplete")


async def play_to_end(env: simcord.Env, channel: simcord.ChannelHandle, players: list[MemberActor],
                      *, by: str = "buttons", limit: int = 600) -> int:
    """Drive the game to its end; returns the number of actions the players took (the bot's automatic
    passes, e.g. when passing is the only legal move, come on top)."""
    store = bot_of(env).store
    assert store is not None
    for n in range(limit):
        game = await game_in(env, channel)
        if game.status != "active":
            return n
        before = game.version
        actor = decider_of(board_message(channel), players)
        if by == "buttons" or (by == "mixed" and n % 2 == 0):
            await act_by_buttons(env, channel, players)
        else:
            await act_by_commands(env, channel, players)
        after = await game_in(env, channel)
        rows = await store.actions(game.id, since=len(await store.actions(game.id)) - (after.version - before))
        assert after.version > before and rows, f"action {n} was not applied"
        assert rows[0].user_id == actor.id and rows[0].auto is None, f"action {n} was not the player's"
        assert all(r.user_id is None and r.auto == "forced" for r in rows[1:]), f"action {n}: {rows[1:]}"
    raise AssertionError("the game did not end")


async def choose_seed(env: simcord.Env, channel: simcord.ChannelHandle, seed: int) -> None:
    """A known deal for the channel's lobby (the lobby draws its seed at random)."""
    store = bot_of(env).store
    assert store is not None
    async with store.transaction() as conn:
        await conn.execute("UPDATE games SET seed = ? WHERE channel_id = ?", (seed, channel.id))


async def time_out_once(env: simcord.Env, channel: simcord.ChannelHandle, host: MemberActor,
                        game_id: int) -> list[ActionRow]:
    """The player to decide is away: the host's 5-minute time-out decides for him (X-07); returns the
    actions the time-outs took."""
    await host.slash(channel, "petersburg host settings", autopass="5")
    await env.advance_time(6 * 60)
    await host.slash(channel, "petersburg host settings", autopass="off")
    store = bot_of(env).store
    assert store is not None
    rows = [r for r in await store.actions(game_id) if r.auto == "timeout"]
    assert rows, "the time-out did not decide"
    return rows


async def play_whole_game(env: simcord.Env, channel: simcord.ChannelHandle, players: list[MemberActor],
                          restart: Callable[[], PetersburgBot], *, restart_at: int,
                          away: Callable[[GameState], bool], limit: int = 4000) -> ActionRow:
    """Drive the game to its end, every third move by commands and the others by buttons, the bot
    restarted (``restart`` makes the new one) before move ``restart_at``; the first time ``away`` holds
    for the state, the player to decide is away and the time-out decides. Returns that time-out's action."""
    timed_out: ActionRow | None = None
    restarted = False
    for n in range(limit):
        game = await game_in(env, channel)
        if game.status != "active":
            break
        if timed_out is None and away(await state_in(env, channel)):
            timed_out = (await time_out_once(env, channel, players[0], game.id))[-1]
            continue
        if n == restart_at:
            old = bot_of(env)
            await env.restart_bot(restart())
            assert old.store is not None
            await old.store.close()
            restarted = True
        if n % 3 == 2:
            await act_by_commands(env, channel, players)
        else:
            await act_by_buttons(env, channel, players)
    game = await game_in(env, channel)
    assert game.status == "finished" and game.final_posted, "the game did not end"
    assert restarted and timed_out is not None, (restarted, timed_out)
    return timed_out


class RandomMove(NamedTuple):
    """A move for ``GameService.act``: who, what, and the board version it was chosen against."""

    user_id: int
    action: Action
    version: int


async def random_move(svc: GameService, game_id: int, rng: random.Random) -> RandomMove | None:
    """A random legal move of whoever decides in game ``game_id``; None when the game is not in play."""
    game = await svc.game(game_id)
    if game.status != "active":
        return None
    st = GameState.from_json(game.state or {})
    uid = game.user_at(st.decider)
    assert uid is not None
    return RandomMove(uid, rng.choice(legal_moves(st)).action, game.version)


def versions_in(path: Path) -> dict[int, int]:
    """Game id -> version in the SQLite file at ``path``, read by a connection of its own (read-only)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        return dict(db.execute("SELECT id, version FROM games").fetchall())
    finally:
        db.close()


def take_card(st: GameState, type_id: str) -> int:
    """A physical card of ``type_id`` pulled out of its stack or the discard pile (for rigging a state)."""
    for deck in [*st.decks.values(), st.discard]:
        for c in deck:
            if st.cards[c].id == type_id:
                deck.remove(c)
                return c
    raise AssertionError(type_id)


async def rig(env: simcord.Env, channel: simcord.ChannelHandle, players: list[MemberActor],
              change: Callable[[GameState], None]) -> None:
    """Rewrite the stored state (as if play had reached it), then show the board again."""
    game = await game_in(env, channel)
    st = await state_in(env, channel)
    change(st)
    store = bot_of(env).store
    assert store is not None
    async with store.transaction() as conn:
        await conn.execute("UPDATE games SET state = ?, version = version + 1 WHERE id = ?",
                           (json.dumps(st.to_json()), game.id))
    await players[0].slash(channel, "petersburg board")


def texts(messages: list[discord.Message], needle: str) -> list[str]:
    """The contents (and embed descriptions) of ``messages`` that contain ``needle``."""
    out = []
    for m in messages:
        body = "\n".join([m.content, *[e.description or "" for e in m.embeds]])
        if needle in body:
            out.append(body)
    return out


def reply_of(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    """The last answer (response or followup) of an interaction."""
    msgs = [m for m in [result.response, *result.followups] if m is not None]
    assert msgs, result
    return msgs[-1]
