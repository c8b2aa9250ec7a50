"""The README's picture (docs/channel.png): a real game played in SimCord, shown as a Discord channel.

From the repository root::

    .venv/bin/python scripts/channel_picture.py                      # writes docs/channel.png
    .venv/bin/python scripts/channel_picture.py --html /tmp/channel.html --no-screenshot

The bot runs inside SimCord (Discord simulated in this process, board pictures on) on a throwaway SQLite
file. Two people, Anna and Boris, and a computer player (normal) play a whole 2nd-edition game: the people
by clicking the board's ▶️ Your move and the first preferred legal move of their private menu (as in
``tests/bot/helpers.play_to_end``), the computer by itself. The script keeps what the channel showed
in round 3 (the game's start message and the live board with its picture and buttons) and the private menu
the player to move got there (ephemeral: only they see it), and the final scores at the end. It writes
them as an HTML page styled like Discord's dark theme (the fonts are the Noto fonts SimCord ships) and
screenshots it with headless Chromium (Debian: ``apt-get install -y chromium``; ``--chromium`` names
another binary). Each run deals a new game, so the picture changes from run to run.

The bot's messages, buttons, menus and images are the real ones; only the frame is drawn here: the
avatars, the application's name (a server owner names their own; SimCord calls it TestBot) and the
clock times.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import html
import logging
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

try:
    import simcord  # noqa: E402
except ImportError:
    sys.exit('scripts/channel_picture.py plays in SimCord (Discord simulated), which the test extra installs: '
             '.venv/bin/pip install -e ".[test]"')
import discord  # noqa: E402

BOT_NAME = "Saint Petersburg"
PEOPLE = ("Anna", "Boris")
WIDTH, HEIGHT = 1400, 3000  # the height is cropped to the page afterwards


@dataclass
class Control:
    """A button or select menu as Discord draws it."""

    kind: str  # "button" or "select"
    label: str = ""
    emoji: str = ""
    style: str = "secondary"  # primary, secondary, success, danger
    disabled: bool = False


@dataclass
class EmbedView:
    title: str = ""
    description: str = ""
    color: str = "#2b6cb0"
    fields: list[tuple[str, str, bool]] = field(default_factory=list)
    footer: str = ""
    image: bytes | None = None


@dataclass
class Shown:
    """One message as a member of the channel sees it."""

    author: str
    bot: bool
    content: str = ""
    embeds: list[EmbedView] = field(default_factory=list)
    rows: list[list[Control]] = field(default_factory=list)
    ephemeral: bool = False
    used: str = ""  # "Anna used ▶️ Your move": the interaction the message answers
    time: str = ""


@dataclass
class Scene:
    during: list[Shown]
    after: list[Shown]
    names: dict[int, str]  # user id -> display name, for mentions


async def shown(message: discord.Message, *, used: str = "", ephemeral: bool = False, time: str = "") -> Shown:
    """What ``message`` shows: its text, embeds with their attached pictures, and controls."""
    files = {a.filename: await a.read() for a in message.attachments}
    embeds = []
    for e in message.embeds:
        image = None
        if e.image and e.image.url and e.image.url.startswith("attachment://"):
            image = files.get(e.image.url.removeprefix("attachment://"))
        embeds.append(EmbedView(title=e.title or "", description=e.description or "",
                                color=str(e.color) if e.color else "#1e1f22",
                                fields=[(f.name or "", f.value or "", bool(f.inline)) for f in e.fields],
                                footer=e.footer.text or "" if e.footer else "", image=image))
    rows = []
    for row in message.components:
        controls = []
        for c in getattr(row, "children", []):
            if isinstance(c, discord.Button):
                controls.append(Control("button", c.label or "", str(c.emoji or ""), c.style.name, c.disabled))
            elif isinstance(c, discord.SelectMenu):
                controls.append(Control("select", c.placeholder or "", disabled=c.disabled))
        rows.append(controls)
    return Shown(BOT_NAME, True, message.content, embeds, rows, ephemeral, used, time)


async def play(round_shown: int = 3) -> Scene:
    """A whole game in SimCord; the channel and a private menu in ``round_shown``, the channel at the end."""
    from bot.client import PetersburgBot
    from bot.config import Config
    from bot.thinking import THINK
    from rules import GameState
    from tests.bot.helpers import act_by_buttons, board_message, decider_of, game_in, open_menu

    with tempfile.TemporaryDirectory() as tmp:
        bot = PetersburgBot(Config(token="x", database_path=str(Path(tmp) / "picture.sqlite3"),
                                   render_images=True, computer_pause=0.0, computer_seconds=0.2),
                            sync_commands=True)
        try:
            async with simcord.run(bot) as env:
                guild = env.create_guild()
                channel = guild.create_text_channel("petersburg")
                people = [guild.add_member(env.create_user(n)) for n in PEOPLE]
                names = {p.id: n for p, n in zip(people, PEOPLE, strict=True)}
                anna, boris = people
                await anna.slash(channel, "petersburg create", computers=1, level="normal")
                await boris.slash(channel, "petersburg join")
                await anna.slash(channel, "petersburg start")

                async def people_to_move() -> bool:
                    """Wait while the computer thinks; False once the game is over."""
                    for _ in range(2000):
                        game = await game_in(env, channel)
                        if game.status != "active":
                            return False
                        assert game.state is not None
                        if game.user_at(GameState.from_json(game.state).decider) in names:
                            return True
                        await asyncio.sleep(0.02)
                    raise RuntimeError("the computer player did not move")

                during: list[Shown] = []
                while await people_to_move():
                    game = await game_in(env, channel)
                    assert game.state is not None
                    st = GameState.from_json(game.state)
                    if not during and st.round >= round_shown and not st.pending:
                        start = next(m for m in channel.history() if "The game starts" in m.content)
                        board = board_message(channel)
                        mover = decider_of(board, people)
                        menu = await open_menu(mover, board)
                        during = [await shown(start, time="20:14"),
                                  await shown(board, time="20:31"),
                                  await shown(menu.message, used=f"{names[mover.id]} used ▶️ Your move",
                                              ephemeral=True, time="20:31")]
                    await act_by_buttons(env, channel, people)
                final = channel.history()[-1]
                after = [await shown(final, time="20:52")]
                assert "Final scores" in "".join(e.title or "" for e in final.embeds), "no final scores"
                assert bot.store is not None
                await bot.store.close()
                if bot.bugs:
                    raise RuntimeError(f"the bot hit errors: {bot.bugs!r}")
        finally:
            THINK.shutdown()
    return Scene(during, after, names)


# --- the page -------------------------------------------------------------------------------------------

MENTION = re.compile(r"&lt;@!?(\d+)&gt;")  # after escaping


def markdown(text: str, names: dict[int, str]) -> str:
    """Discord's markdown as far as the bot uses it: bold, italics, code, mentions and line breaks."""
    out = html.escape(text, quote=False)
    out = MENTION.sub(lambda m: f'<span class="mention">@{html.escape(names.get(int(m[1]), "someone"))}</span>',
                      out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", out)
    return out.replace("\n", "<br>")


def _png(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode()


def _controls(rows: list[list[Control]]) -> str:
    out = []
    for row in rows:
        items = []
        for c in row:
            label = html.escape(c.label)
            if c.kind == "select":
                items.append(f'<div class="select"><span>{label}</span><span class="chev">⌄</span></div>')
            else:
                emoji = f'<span class="emoji">{html.escape(c.emoji)}</span>' if c.emoji else ""
                items.append(f'<div class="button {c.style}{" disabled" if c.disabled else ""}">{emoji}{label}</div>')
        out.append(f'<div class="row">{"".join(items)}</div>')
    return "".join(out)


def _embed(e: EmbedView, names: dict[int, str]) -> str:
    parts = [f'<div class="title">{markdown(e.title, names)}</div>' if e.title else "",
             f'<div class="desc">{markdown(e.description, names)}</div>' if e.description else ""]
    if e.fields:
        cells = "".join(f'<div class="field{" inline" if inline else ""}"><div class="fname">{markdown(n, names)}'
                        f'</div><div class="fvalue">{markdown(v, names)}</div></div>' for n, v, inline in e.fields)
        parts.append(f'<div class="fields">{cells}</div>')
    if e.image is not None:
        parts.append(f'<img class="image" src="{_png(e.image)}">')
    if e.footer:
        parts.append(f'<div class="footer">{html.escape(e.footer)}</div>')
    return f'<div class="embed" style="border-left-color:{html.escape(e.color)}">{"".join(parts)}</div>'


def message_html(m: Shown, names: dict[int, str]) -> str:
    used = f'<div class="used">↱ <span class="mention">@{html.escape(m.used.split(" ", 1)[0])}</span> ' \
           f'{html.escape(m.used.split(" ", 1)[1])}</div>' if m.used else ""
    tag = '<span class="tag">APP</span>' if m.bot else ""
    body = f'<div class="content">{markdown(m.content, names)}</div>' if m.content else ""
    embeds = "".join(_embed(e, names) for e in m.embeds)
    note = ('<div class="only">👁 Only you can see this · <span class="link">Dismiss message</span></div>'
            if m.ephemeral else "")
    return (f'<div class="message{" ephemeral" if m.ephemeral else ""}">{used}<div class="line">'
            f'<div class="avatar">🏛</div><div class="main"><div class="head"><span class="author">'
            f'{html.escape(m.author)}</span>{tag}<span class="time">Today at {html.escape(m.time)}</span></div>'
            f'{body}{embeds}{_controls(m.rows)}{note}</div></div></div>')


def _fonts() -> str:
    """@font-face rules for the Noto fonts in SimCord's package (Latin text and colour emoji)."""
    folder = Path(simcord.__file__).parent / "preview" / "static" / "fonts"
    faces = [("Noto Sans", "noto-sans-latin-v2.015.ttf", "normal"),
             ("Noto Sans", "noto-sans-latin-italic-v2.015.ttf", "italic"),
             ("Noto Sans Mono", "noto-sans-mono-v2.014.ttf", "normal"),
             ("Noto Color Emoji", "noto-color-emoji-v2.051.ttf", "normal")]
    return "".join(f'@font-face{{font-family:"{family}";src:url("{(folder / name).as_uri()}");font-style:{style};'
                   f'font-weight:100 900}}' for family, name, style in faces if (folder / name).exists())


CSS = """
*{box-sizing:border-box}
body{margin:0;background:#1e1f22;color:#dbdee1;font:15px/1.375 "Noto Sans","Noto Color Emoji",sans-serif}
.window{display:flex;gap:14px;padding:14px}
.channel{flex:1;align-self:flex-start;background:#313338;border-radius:8px;overflow:hidden;min-width:0}
.bar{height:46px;display:flex;align-items:center;padding:0 16px;border-bottom:1px solid #1f2023;color:#f2f3f5;
     font-weight:600}
.bar .hash{color:#80848e;font-size:22px;margin-right:6px;font-weight:400}
.bar .topic{color:#949ba4;font-weight:400;font-size:13px;margin-left:12px;padding-left:12px;
            border-left:1px solid #3f4147}
.messages{padding:8px 0 14px}
.message{padding:4px 16px 4px 16px;margin-top:10px}
.message.ephemeral{background:rgba(88,101,242,.07);border-left:2px solid #5865f2}
.used{color:#b5bac1;font-size:13px;margin:0 0 2px 56px}
.line{display:flex}
.avatar{width:40px;height:40px;border-radius:50%;background:#2b6cb0;flex:none;margin-right:16px;display:flex;
        align-items:center;justify-content:center;font-size:22px}
.main{min-width:0;flex:1}
.head{display:flex;align-items:baseline;gap:6px}
.author{color:#f2f3f5;font-weight:600}
.tag{background:#5865f2;color:#fff;font-size:10px;font-weight:600;border-radius:3px;padding:1px 4px;
     position:relative;top:-1px}
.time{color:#949ba4;font-size:12px}
.content{white-space:normal;margin-top:2px}
.mention{background:rgba(88,101,242,.3);color:#c9cdfb;border-radius:3px;padding:0 2px;font-weight:500}
code{font-family:"Noto Sans Mono",monospace;background:#2b2d31;border-radius:3px;padding:0 3px;font-size:13px}
.embed{background:#2b2d31;border-left:4px solid;border-radius:4px;padding:8px 16px 14px 12px;margin-top:6px;
       max-width:700px}
.channel.wide{flex:0 0 840px}
.embed .title{color:#f2f3f5;font-weight:700;margin-top:6px}
.embed .desc{font-size:14px;margin-top:6px}
.fields{display:flex;flex-wrap:wrap;gap:8px 14px;margin-top:10px}
.field{font-size:14px;flex:1 1 100%}
.field.inline{flex:1 1 28%}
.fname{color:#f2f3f5;font-weight:600;margin-bottom:2px}
.image{display:block;max-width:100%;border-radius:4px;margin-top:14px}
.footer{color:#b5bac1;font-size:12px;margin-top:10px}
.row{display:flex;gap:8px;margin-top:8px;flex-wrap:wrap}
.button{height:32px;padding:0 14px;border-radius:8px;display:flex;align-items:center;gap:6px;color:#fff;
        font-size:14px;font-weight:500}
.button.primary{background:#5865f2}.button.secondary{background:#4e5058}.button.success{background:#248046}
.button.danger{background:#da373c}.button.disabled{opacity:.5}
.select{width:420px;max-width:100%;height:40px;background:#1e1f22;border:1px solid #1e1f22;border-radius:8px;
        display:flex;align-items:center;justify-content:space-between;padding:0 12px;color:#949ba4;font-size:14px}
.chev{font-size:18px;color:#dbdee1}
.only{color:#949ba4;font-size:12px;margin-top:8px}
.link{color:#00a8fc}
"""


def page(scene: Scene, width: int = WIDTH) -> str:
    """The whole page: the channel in round 3 beside the channel at the end of the game."""

    def channel(title: str, messages: list[Shown], wide: bool = False) -> str:
        body = "".join(message_html(m, scene.names) for m in messages)
        return (f'<div class="channel{" wide" if wide else ""}"><div class="bar"><span class="hash">#</span>petersburg'
                f'<span class="topic">{html.escape(title)}</span></div><div class="messages">{body}</div></div>')

    during = channel("during the game: the live board, and the private menu of the player to move", scene.during,
                     wide=True)
    after = channel("at the end of the game: the final scores", scene.after)
    return (f'<!doctype html><html><head><meta charset="utf-8"><style>{_fonts()}{CSS}'
            f"body{{width:{width}px}}</style></head><body><div class=\"window\">{during}{after}"
            "</div></body></html>")


def screenshot(html_file: Path, out: Path, width: int, height: int, chromium: str) -> None:
    """A PNG of ``html_file`` by headless Chromium, cut below the page's content."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
                        "--virtual-time-budget=15000",  # web fonts loaded before the screenshot (else blank text)
                        f"--user-data-dir={profile}", f"--screenshot={out.resolve()}",
                        f"--window-size={width},{height}", html_file.resolve().as_uri()],
                       check=True, capture_output=True, timeout=120)
    crop(out)


def crop(png: Path, margin: int = 14) -> None:
    """Cut the rows below the content (the page's background colour) off ``png``."""
    from PIL import Image, ImageChops

    with Image.open(png) as im:
        rgb = im.convert("RGB")
    background = Image.new("RGB", rgb.size, rgb.getpixel((rgb.width - 1, rgb.height - 1)))
    box = ImageChops.difference(rgb, background).getbbox()
    if box is not None:
        rgb.crop((0, 0, rgb.width, min(rgb.height, box[3] + margin))).save(png, optimize=True)


def main(argv: list[str] | None = None) -> int:
    from rules.cliargs import HelpFormatter

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None,
                                 formatter_class=HelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "channel.png",
                    help="the PNG to write (default: docs/channel.png)")
    ap.add_argument("--html", type=Path, help="also keep the HTML page here")
    ap.add_argument("--no-screenshot", action="store_true", help="write the HTML page only (needs --html)")
    ap.add_argument("--round", type=int, default=3, help="the round the left channel shows (default 3)")
    ap.add_argument("--width", type=int, default=WIDTH)
    ap.add_argument("--height", type=int, default=HEIGHT)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = ap.parse_args(argv)
    if args.no_screenshot and args.html is None:
        ap.error("--no-screenshot needs --html")
    if not args.no_screenshot and shutil.which(args.chromium) is None:  # before a game is played, not after
        ap.error(f"no Chromium here ({args.chromium}): install it (Debian: apt-get install -y chromium), name it "
                 "with --chromium, or write the page alone with --html FILE --no-screenshot")
    logging.basicConfig(level=logging.ERROR)
    scene = asyncio.run(play(args.round))
    text = page(scene, args.width)
    with tempfile.TemporaryDirectory() as tmp:
        html_file = args.html or Path(tmp) / "channel.html"
        html_file.write_text(text, encoding="utf-8")
        if not args.no_screenshot:
            screenshot(html_file, args.out, args.width, args.height, args.chromium)
            print(f"wrote {args.out}")
    if args.html:
        print(f"wrote {args.html}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
