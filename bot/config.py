"""Settings from the environment (and the settings file: ``bot.envfile``), each checked: a wrong value stops the
bot at start with one line naming the setting."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rules.i18n import LANGUAGES

from .store.urls import url_problem

DEFAULT_DATABASE = "data/petersburg.sqlite3"
DEFAULT_REMINDER, DEFAULT_INTERVAL, DEFAULT_AUTOPASS, DEFAULT_POLL = 60, 240, 0, 30.0
DEFAULT_LIVE = 5  # minutes: a player seen this recently plays live (no ping per turn)
DEFAULT_REVIEW_ITERATIONS = 64  # a review's budget per decision (``players.judge.DEFAULT_ITERATIONS``)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the bot reads from its environment (documented in .env.example)."""

    token: str = ""
    database_path: str = DEFAULT_DATABASE
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    language: str = "en"
    rest_proxy: str | None = None
    gateway_url: str | None = None
    render_images: bool = True  # tests and the benchmark switch image rendering off
    reminder_minutes: int = DEFAULT_REMINDER  # remind the player to decide after this long (0: never)
    reminder_interval_minutes: int = DEFAULT_INTERVAL  # then again every so often (0: only once)
    autopass_minutes: int = DEFAULT_AUTOPASS  # play the default action for an absent player after this long (0: off)
    live_minutes: int = DEFAULT_LIVE  # seen in the game this recently: playing live, not pinged per turn (0: off)
    timer_poll_seconds: float = DEFAULT_POLL  # how often due reminders and time-outs are looked for
    computer_seconds: float = 2.0  # the strong computer player's thinking time per move (its budget)
    computer_pause: float = 1.5  # seconds before a computer player's move, so people can follow
    hint_seconds: float = 1.0  # thinking time for /petersburg hint
    review_iterations: int = DEFAULT_REVIEW_ITERATIONS  # the strong search's iterations per reviewed decision
    database_url: str | None = None  # DATABASE_URL: postgresql://… or sqlite:///path (wins over database_path)
    pool_size: int = 10  # PostgreSQL connections per process at most
    sharded: bool = False  # SHARD_COUNT set: an AutoShardedBot
    shard_count: int | None = None  # None with sharded: as many as Discord recommends (SHARD_COUNT=auto)
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all)
    backup_dir: str | None = None  # BACKUP_DIR: periodic backups of the SQLite database go there (None: off)
    backup_hours: float = 24.0  # BACKUP_EVERY_HOURS: how often
    backup_keep: int = 7  # BACKUP_KEEP: how many periodic backups are kept (the newest)

    @property
    def database(self) -> str:
        """What ``Store.open`` opens: DATABASE_URL, else DATABASE_PATH."""
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read the settings; raises ValueError naming a malformed one."""
        e = os.environ if env is None else env
        token = e.get("DISCORD_TOKEN", "").strip()
        odd = [c for c in token if not (c.isascii() and (c.isalnum() or c in "._-"))]
        if odd:
            what = "a line break or a space" if any(c.isspace() for c in odd) else f"the character {odd[0]!r}"
            raise ValueError(f"DISCORD_TOKEN holds {what}, which no token has: put the token alone after "
                             "DISCORD_TOKEN= (Discord Developer Portal > your application > Bot > Reset Token)")
        guild = e.get("DEV_GUILD_ID", "").strip()
        if guild and not whole(guild):
            raise ValueError("DEV_GUILD_ID must be a server (guild) id: digits only")
        lang = (e.get("LANGUAGE", "") or "en").strip().lower()
        if lang not in LANGUAGES:
            raise ValueError(f"LANGUAGE must be one of {', '.join(LANGUAGES)}")
        minutes = {key: _minutes_setting(e, key, default) for key, default in (
            ("REMINDER_MINUTES", DEFAULT_REMINDER), ("REMINDER_INTERVAL_MINUTES", DEFAULT_INTERVAL),
            ("AUTOPASS_MINUTES", DEFAULT_AUTOPASS), ("LIVE_MINUTES", DEFAULT_LIVE))}
        poll = e.get("TIMER_POLL_SECONDS", "").strip()
        poll_seconds = number(poll, "TIMER_POLL_SECONDS must be a number of seconds") if poll else DEFAULT_POLL
        if not 1 <= poll_seconds <= 3600:
            raise ValueError("TIMER_POLL_SECONDS must be between 1 and 3600")
        seconds = {key: _seconds_setting(e, key, default, top) for key, default, top in (
            ("COMPUTER_SECONDS", 2.0, 30.0), ("COMPUTER_PAUSE_SECONDS", 1.5, 30.0), ("HINT_SECONDS", 1.0, 10.0))}
        url = e.get("DATABASE_URL", "").strip() or None
        if url is not None and not url.startswith(("postgresql://", "postgres://", "sqlite:///")):
            raise ValueError("DATABASE_URL must start with postgresql:// or sqlite:/// (or be empty)")
        url = None if url is None else checked_database(url, "DATABASE_URL")
        path = checked_database(e.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE, "DATABASE_PATH")
        pool = e.get("DATABASE_POOL_SIZE", "").strip() or "10"
        if not whole(pool) or not 1 <= int(pool) <= 1000:
            raise ValueError("DATABASE_POOL_SIZE must be a whole number from 1 to 1000")
        sharded, count, ids = _shards(e.get("SHARD_COUNT", "").strip().lower(), e.get("SHARD_IDS", "").strip())
        backup_hours = number(e.get("BACKUP_EVERY_HOURS", "").strip() or "24",
                              "BACKUP_EVERY_HOURS must be a number of hours")
        if not 0.01 <= backup_hours <= 24 * 365:
            raise ValueError("BACKUP_EVERY_HOURS must be between 0.01 and 8760 hours")
        iterations = e.get("REVIEW_ITERATIONS", "").strip() or str(DEFAULT_REVIEW_ITERATIONS)
        if not whole(iterations) or not 1 <= int(iterations) <= 100_000:
            raise ValueError("REVIEW_ITERATIONS must be a whole number from 1 to 100000")
        keep = e.get("BACKUP_KEEP", "").strip() or "7"
        if not whole(keep) or not 1 <= int(keep) <= 10000:
            raise ValueError("BACKUP_KEEP must be a whole number from 1 to 10000")
        level = (e.get("LOG_LEVEL", "") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}")
        return cls(
            database_url=url, pool_size=int(pool), sharded=sharded, shard_count=count, shard_ids=ids,
            token=token,
            database_path=path,
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
            language=lang,
            rest_proxy=e.get("DISCORD_REST_PROXY", "").strip().rstrip("/") or None,
            gateway_url=e.get("DISCORD_GATEWAY_URL", "").strip() or None,
            reminder_minutes=minutes["REMINDER_MINUTES"],
            reminder_interval_minutes=minutes["REMINDER_INTERVAL_MINUTES"],
            autopass_minutes=minutes["AUTOPASS_MINUTES"],
            live_minutes=minutes["LIVE_MINUTES"],
            timer_poll_seconds=poll_seconds,
            computer_seconds=seconds["COMPUTER_SECONDS"],
            computer_pause=seconds["COMPUTER_PAUSE_SECONDS"],
            hint_seconds=seconds["HINT_SECONDS"],
            review_iterations=int(iterations),
            backup_dir=os.path.expanduser(e.get("BACKUP_DIR", "").strip()) or None, backup_hours=backup_hours,
            backup_keep=int(keep),
        )

    def __repr__(self) -> str:  # never show the token
        from .store.urls import redact

        return (f"Config(database={redact(self.database)!r}, shards={self.shard_ids!r}/{self.shard_count!r}, "
                f"log_level={self.log_level!r}, "
                f"dev_guild_id={self.dev_guild_id!r}, language={self.language!r}, "
                f"rest_proxy={self.rest_proxy!r}, gateway_url={self.gateway_url!r}, "
                f"reminder_minutes={self.reminder_minutes}, "
                f"reminder_interval_minutes={self.reminder_interval_minutes}, "
                f"autopass_minutes={self.autopass_minutes}, live_minutes={self.live_minutes}, "
                f"computer_seconds={self.computer_seconds}, "
                f"computer_pause={self.computer_pause}, hint_seconds={self.hint_seconds}, "
                f"review_iterations={self.review_iterations}, "
                f"backup_dir={self.backup_dir!r}, backup_hours={self.backup_hours:g}, backup_keep={self.backup_keep}, "
                "token=<hidden>)")

    __str__ = __repr__


def check_backup_dir(config: Config) -> None:
    """ValueError naming ``BACKUP_DIR`` when periodic backups would go to a folder the bot cannot create or write
    into (checked at start, not a day later at the first backup); the folder is created when missing."""
    if not config.backup_dir or config.database.startswith(("postgresql://", "postgres://")):
        return  # (PostgreSQL is not backed up by the bot: it says so at start)
    folder = Path(config.backup_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise ValueError(f"BACKUP_DIR: the bot cannot write into {folder}: {e.strerror or e}") from None


MAX_MINUTES = 43200  # 30 days
_WHOLE = re.compile(r"[0-9]+")
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")


def whole(text: str) -> bool:
    """Digits 0-9 only (``str.isdigit`` also takes ``²`` and other digits that ``int`` refuses)."""
    return _WHOLE.fullmatch(text) is not None


def number(text: str, message: str) -> float:
    """A number written with the digits 0-9 and a point (``float`` also takes ``nan``, ``1_0`` and other
    scripts' digits); ValueError with ``message`` otherwise."""
    if _NUMBER.fullmatch(text) is None:
        raise ValueError(message)
    return float(text)


def checked_database(value: str, name: str) -> str:
    """``value`` of the setting or option ``name`` (DATABASE_URL, DATABASE_PATH, --to, ...) as ``Store.open``
    takes it, ``~`` expanded; ValueError naming ``name`` when it cannot keep the bot's games: a PostgreSQL URL
    that is not valid, a SQLite URL without a file, an in-memory database (every game lost when the process
    ends)."""
    text = value.strip()
    if text.startswith(("postgresql://", "postgres://")):
        problem = url_problem(text)
        if problem is not None:
            raise ValueError(f"{name} is not a valid PostgreSQL URL: {problem}")
        return text
    url = text.startswith("sqlite:///")
    path = text[len("sqlite:///"):] if url else text
    if "://" in text and not url:
        raise ValueError(f"{name} must be postgresql://…, sqlite:///path or a file path")
    if not path.strip():
        raise ValueError(f"{name} names no database file: e.g. sqlite:///data/petersburg.sqlite3 (relative to "
                         "where the bot runs) or sqlite:////srv/petersburg.sqlite3 (absolute)" if url else
                         f"{name} names no database file")
    if path == ":memory:" or path.startswith("file::memory:"):
        raise ValueError(f"{name} names an in-memory database, which loses every game when the process ends: "
                         "name a file, e.g. data/petersburg.sqlite3")
    path = os.path.expanduser(path)
    return f"sqlite:///{path}" if url else path


def database_setting(env: Mapping[str, str] | None = None) -> str:
    """The database the settings name (DATABASE_URL, else DATABASE_PATH, else the default), checked
    (``checked_database``: ValueError naming the setting)."""
    e = os.environ if env is None else env
    url = e.get("DATABASE_URL", "").strip()
    if url:
        return checked_database(url, "DATABASE_URL")
    return checked_database(e.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE, "DATABASE_PATH")


def _shards(count: str, ids: str) -> tuple[bool, int | None, tuple[int, ...] | None]:
    """(sharded, shard count, shard ids) from SHARD_COUNT (empty, ``auto`` or a number) and SHARD_IDS (empty or
    ids and ranges such as ``0,1`` or ``4-7``)."""
    if not count:
        if ids:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        return False, None, None
    if count == "auto":
        if ids:
            raise ValueError("SHARD_IDS needs a number in SHARD_COUNT, not auto")
        return True, None, None
    if not whole(count) or int(count) < 1:
        raise ValueError("SHARD_COUNT must be a whole number of shards (1 or more) or auto")
    n = int(count)
    if not ids:
        return True, n, None
    chosen: set[int] = set()
    for part in ids.split(","):
        lo, _, hi = part.strip().partition("-")
        if not whole(lo) or (hi and not whole(hi)):
            raise ValueError("SHARD_IDS must be shard numbers or ranges, e.g. 0,1 or 4-7")
        chosen.update(range(int(lo), int(hi or lo) + 1))
    if not chosen or max(chosen) >= n:
        raise ValueError(f"SHARD_IDS must be shard numbers from 0 to {n - 1}")
    return True, n, tuple(sorted(chosen))


def _minutes_setting(env: Mapping[str, str], key: str, default: int) -> int:
    """A whole number of minutes from 0 (off) to 30 days; ``off`` means 0."""
    raw = env.get(key, "").strip().lower()
    if not raw:
        return default
    if raw in ("off", "0"):
        return 0
    if not whole(raw) or int(raw) > MAX_MINUTES:
        raise ValueError(f"{key} must be a whole number of minutes from 0 (off) to {MAX_MINUTES}, or off")
    return int(raw)


def _seconds_setting(env: Mapping[str, str], key: str, default: float, top: float) -> float:
    """A number of seconds from 0 to ``top``."""
    raw = env.get(key, "").strip()
    if not raw:
        return default
    value = number(raw, f"{key} must be a number of seconds")
    if not 0 <= value <= top:
        raise ValueError(f"{key} must be between 0 and {top:g} seconds")
    return value


def apply_proxies(config: Config) -> None:
    """Point discord.py at a REST proxy and/or a gateway proxy when configured."""
    if config.rest_proxy:
        import discord.http

        discord.http.Route.BASE = config.rest_proxy
    if config.gateway_url:
        import yarl
        from discord.gateway import DiscordWebSocket

        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)
