"""``python -m bot [--sync] [--env-file PATH]``: run the bot (token from .env or the environment).

``python -m bot --version``: the version (``bot.__version__``, also the package's version in pyproject.toml).

``python -m bot copy-db --to postgresql://… [--from sqlite:///path] [--force]``: copy the database
(``bot.copydb``).

``python -m bot ratings --rebuild [--database URL]``: derive every rating again from the stored results
(``bot.ratings_cli``).

``python -m bot backup PATH``: back the SQLite database up, also while the bot runs (``bot.backup``).

``python -m bot review RECORD.json [--picture PNG]``: a finished game's review in words and its picture
(``bot.review_cli``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import __version__
from .config import Config, apply_proxies, check_backup_dir
from .envfile import ENV_FILE_HELP, hidden_message, load_env

if TYPE_CHECKING:
    from .client import PetersburgBot
    from .corebuild import Plan


COMMANDS = """the maintenance commands (each has its own --help):
  python -m bot backup PATH        back the SQLite database up, also while the bot runs
  python -m bot ratings --rebuild  derive every rating again from the stored games
  python -m bot copy-db --to URL   copy the database, e.g. from SQLite into PostgreSQL
  python -m bot review RECORD      a finished game's review in words, --picture PNG its picture"""


class _Redact(logging.Filter):
    """Replace the token wherever it would appear in a log record."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secret:
            msg = record.getMessage()
            if self.secret in msg:
                record.msg = msg.replace(self.secret, "<token>")
                record.args = ()
        return True


def setup_logging(level: str, token: str) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(_Redact(token))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level, logging.INFO))


async def _run(config: Config, sync: bool, core: Plan | None = None) -> int:
    """Open (and check) the database, log in, start the worker processes (and the compiled core's build, as
    ``core`` says: ``bot.corebuild``) and run the bot; 3 when the database cannot be used, 2 when Discord refuses
    the token, 4 when Discord cannot be reached."""
    from .client import make_bot, tune_gc, wall_clock
    from .store import Store, Unusable

    try:
        store = await Store.open(config.database, clock=wall_clock, pool_size=config.pool_size)
    except Unusable as e:
        print(f"error: {e}", file=sys.stderr)
        return 3
    try:
        bot = make_bot(config, sync_commands=sync, store=store)
        stop_on_sigterm(bot)
        tune_gc()
        try:
            async with bot:
                refused = await _log_in(bot, config)
                if refused:
                    return refused
                bot.begin_workers()  # only now: a bot that cannot log in starts no processes
                if core is not None:
                    start_core_build(core)
                return await _connect(bot, config)
        finally:  # also when SIGTERM's close is still stopping them
            await bot.stop_workers()
    finally:
        await store.close()
    return 0


async def _log_in(bot: PetersburgBot, config: Config) -> int:
    """Log in (``bot.login``); 0, or the exit code after one line that says what is wrong."""
    import aiohttp
    import discord

    try:
        await bot.login(config.token)
    except (discord.DiscordException, aiohttp.ClientError, OSError, TimeoutError) as e:
        if bot.setting_up:  # logged in: what failed is the bot's own setup (e.g. --sync), not the login
            raise
        print(f"error: {_login_problem(e, config)}", file=sys.stderr)
        return 2 if isinstance(e, discord.LoginFailure) else 4
    return 0


class _FirstConnection(logging.Filter):
    """On discord.py's log until the bot has first been connected to the gateway: notices (instead of logging
    it) the traceback of a failed first connection, after which discord.py would retry for ever with a
    sharded bot, and fail itself on the websocket it never had with one shard (``'NoneType' object has no
    attribute 'sequence'``)."""

    RETRY = ("Attempting a reconnect", "Failed to connect for shard_id")  # discord.client, discord.shard

    def __init__(self, bot: PetersburgBot) -> None:
        super().__init__()
        self.bot = bot
        self.error: BaseException | None = None
        self.failed = asyncio.Event()

    def connected(self) -> bool:
        return self.bot.ws is not None or bool(getattr(self.bot, "shards", None))

    def filter(self, record: logging.LogRecord) -> bool:
        if (record.exc_info is not None and record.exc_info[1] is not None and str(record.msg).startswith(self.RETRY)
                and not self.connected()):
            self.error = record.exc_info[1]
            self.failed.set()
            return False
        return True


async def _connect(bot: PetersburgBot, config: Config) -> int:
    """Connect to the gateway and run until the bot is closed (0); 4, after one line, when the first connection
    fails (once connected, discord.py reconnects by itself)."""
    first = _FirstConnection(bot)
    logs = [logging.getLogger("discord.client"), logging.getLogger("discord.shard")]
    for log in logs:
        log.addFilter(first)
    connecting = asyncio.ensure_future(bot.connect())
    failed = asyncio.ensure_future(first.failed.wait())
    try:
        await asyncio.wait({connecting, failed}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        failed.cancel()
        for log in logs:
            log.removeFilter(first)
    if not connecting.done():
        connecting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await connecting
        where = config.gateway_url or "Discord's gateway"
        print(f"error: cannot reach {where} (logged in, but the gateway connection failed: "
              f"{first.error or type(first.error).__name__}); check the network"
              + (" and DISCORD_GATEWAY_URL" if config.gateway_url else ""), file=sys.stderr)
        return 4
    connecting.result()  # what ended the connection, raised
    return 0


def _login_problem(error: BaseException, config: Config) -> str:
    """What went wrong at the login, and what to do, in one line."""
    import discord

    where = config.rest_proxy or "discord.com"
    if isinstance(error, discord.LoginFailure):
        return ("Discord refused the token (401 Unauthorized): check DISCORD_TOKEN in .env (Discord Developer "
                "Portal > your application > Bot > Reset Token)")
    if isinstance(error, discord.HTTPException):
        return f"Discord answered the login with {error.status} {error.text}".rstrip() + f" ({where}); try again later"
    return (f"cannot reach Discord ({where}): {error or type(error).__name__}; check the network"
            + (" and DISCORD_REST_PROXY" if config.rest_proxy else ""))


def start_core_build(core: Plan) -> None:
    """Build the compiled core in the background when ``core`` says so; once it is made the thinking and review
    pools take new workers, which run it (``bot.corebuild``)."""
    from . import corebuild, reviewing, thinking

    loop = asyncio.get_running_loop()
    renewing: set[asyncio.Task[None]] = set()

    def ready() -> None:
        from players.compile import status

        logging.getLogger(__name__).info("the compiled core is built: the computer players now run %s", status())
        for pool in (thinking.THINK, reviewing.REVIEW):
            task = loop.create_task(pool.renew())
            renewing.add(task)
            task.add_done_callback(renewing.discard)

    corebuild.start(core, ready)


def start_line(config: Config, core: Plan) -> str:
    """The bot's first log line: the version, the settings, where the games are kept (a SQLite file by its full
    path: a relative DATABASE_PATH is relative to the folder the bot starts in) and which core the computer
    players run."""
    from .store import Unusable, parse_database

    try:
        dialect, where = parse_database(config.database)
    except Unusable:
        dialect, where = "", ""
    kept = f"; games kept in {Path(where).resolve()}" if dialect == "sqlite" else ""
    return f"petersburg-discord {__version__} starting with {config}{kept}; computer players' core: {core.core}"


def version_text() -> str:
    """``--version``: the version, and which core the computer players run here (``players.compile.status``)."""
    from players.compile import status

    return f"petersburg-discord {__version__}\ncomputer players' core: {status()}"


class _Version(argparse.Action):
    """``--version``, worked out only when asked (the core's status reads the sources)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and which core the computer "
                         "players run (compiled, being built, or plain Python and why), and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(version_text())
        parser.exit()


def stop_on_sigterm(bot: PetersburgBot) -> None:
    """SIGTERM (``kill``, systemd, docker stop) closes the bot like Ctrl-C: the gateway, the worker processes
    and the database are closed, and the process ends with exit code 0."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not closing:
            logging.getLogger(__name__).info("SIGTERM: stopping")
            closing.append(loop.create_task(bot.close()))

    with contextlib.suppress(NotImplementedError, RuntimeError):  # no signal handlers (Windows)
        loop.add_signal_handler(signal.SIGTERM, stop)


def main(argv: list[str] | None = None) -> int:
    """``python -m bot``: the bot or a maintenance command; quiet when the reader of its output goes away
    (``python -m bot copy-db … | head``): exit code 1 then, as Python's documentation recommends, and no
    traceback."""
    try:
        try:
            return _main(argv)
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)  # what is still buffered must not fail again at the exit
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _main(argv: list[str] | None = None) -> int:
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["copy-db"]:
        from .copydb import main as copy_main

        return copy_main(args_in[1:])
    if args_in[:1] == ["ratings"]:
        from .ratings_cli import main as ratings_main

        return ratings_main(args_in[1:])
    if args_in[:1] == ["backup"]:
        from .backup import main as backup_main

        return backup_main(args_in[1:])
    if args_in[:1] == ["review"]:
        from .review_cli import main as review_main

        return review_main(args_in[1:])
    parser = argparse.ArgumentParser(prog="python -m bot", description="Saint Petersburg on Discord: run the bot.",
                                     epilog=COMMANDS, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sync", action="store_true",
                        help="push the slash commands to Discord at startup (to DEV_GUILD_ID if set, else globally)")
    parser.add_argument("--env-file", default=None, help=ENV_FILE_HELP)
    parser.add_argument("--version", action=_Version)
    args = parser.parse_args(args_in)
    try:
        hidden = load_env(args.env_file)
        config = Config.from_env()
        check_backup_dir(config)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not config.token and "DISCORD_TOKEN" in hidden:
        print(f"error: {hidden_message('DISCORD_TOKEN', args.env_file)}", file=sys.stderr)
        return 2
    if not config.token:
        print("error: no DISCORD_TOKEN. Copy .env.example to .env and put your bot token in DISCORD_TOKEN\n"
              "(Discord Developer Portal > your application > Bot > Reset Token), or export DISCORD_TOKEN.\n"
              "The first time, run `python -m bot --sync` so the slash commands are registered.",
              file=sys.stderr)
        return 2
    setup_logging(config.log_level, config.token)
    apply_proxies(config)
    for key in hidden:
        logging.getLogger(__name__).warning("%s", hidden_message(key, args.env_file))
    from players.compile import status

    from .corebuild import plan

    core = plan(status())
    logging.getLogger(__name__).info("%s", start_line(config, core))
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(_run(config, args.sync, core))
    return 0


if __name__ == "__main__":
    sys.exit(main())
