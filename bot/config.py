"""Settings from the environment and a small ``.env`` reader (no extra dependency)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rules.i18n import LANGUAGES

DEFAULT_DATABASE = "data/petersburg.sqlite3"


def read_env_file(path: str | Path) -> dict[str, str]:
    """Parse ``KEY=value`` lines (``#`` comments, optional ``export``, optional quotes)."""
    out: dict[str, str] = {}
    p = Path(path)
    if not p.is_file():
        return out
    for raw in p.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[7:].lstrip()
        key, sep, value = line.partition("=")
        if not sep:
            continue
        key = key.strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        out[key] = value
    return out


def load_env(path: str | Path = ".env") -> None:
    """Put the ``.env`` settings into ``os.environ`` (variables already set win)."""
    for key, value in read_env_file(path).items():
        os.environ.setdefault(key, value)


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

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Read the settings; raises ValueError naming a malformed one."""
        e = os.environ if env is None else env
        guild = e.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError("DEV_GUILD_ID must be a server (guild) id: digits only")
        lang = (e.get("LANGUAGE", "") or "en").strip().lower()
        if lang not in LANGUAGES:
            raise ValueError(f"LANGUAGE must be one of {', '.join(LANGUAGES)}")
        return cls(
            token=e.get("DISCORD_TOKEN", "").strip(),
            database_path=e.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE,
            log_level=(e.get("LOG_LEVEL", "") or "INFO").strip().upper(),
            dev_guild_id=int(guild) if guild else None,
            language=lang,
            rest_proxy=e.get("DISCORD_REST_PROXY", "").strip().rstrip("/") or None,
            gateway_url=e.get("DISCORD_GATEWAY_URL", "").strip() or None,
        )

    def __repr__(self) -> str:  # never show the token
        return (f"Config(database_path={self.database_path!r}, log_level={self.log_level!r}, "
                f"dev_guild_id={self.dev_guild_id!r}, language={self.language!r}, "
                f"rest_proxy={self.rest_proxy!r}, gateway_url={self.gateway_url!r}, token=<hidden>)")

    __str__ = __repr__


def apply_proxies(config: Config) -> None:
    """Point discord.py at a REST proxy and/or a gateway proxy when configured."""
    if config.rest_proxy:
        import discord.http

        discord.http.Route.BASE = config.rest_proxy
    if config.gateway_url:
        import yarl
        from discord.gateway import DiscordWebSocket

        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)
