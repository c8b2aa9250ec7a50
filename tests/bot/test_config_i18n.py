"""Settings, the command line without a token, the translations and the translator."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import discord
import pytest
import simcord
from discord import app_commands

from bot.__main__ import _Redact
from bot.config import Config
from bot.envfile import read_env_file
from bot.translator import Translator, locale_str
from rules.i18n import I18N_DIR

ROOT = Path(__file__).resolve().parents[2]


def test_env_file_reader(tmp_path: Path) -> None:
    f = tmp_path / ".env"
    f.write_text('# comment\nDISCORD_TOKEN="abc.def"\nexport LOG_LEVEL=debug\nDEV_GUILD_ID=123 # dev\n'
                 "LANGUAGE='de'\nbroken line\n", encoding="utf-8")
    env = read_env_file(f)
    assert env == {"DISCORD_TOKEN": "abc.def", "LOG_LEVEL": "debug", "DEV_GUILD_ID": "123", "LANGUAGE": "de"}
    cfg = Config.from_env(env)
    assert (cfg.token, cfg.log_level, cfg.dev_guild_id, cfg.language) == ("abc.def", "DEBUG", 123, "de")
    assert cfg.database_path == "data/petersburg.sqlite3" and cfg.rest_proxy is None and cfg.gateway_url is None
    assert "abc.def" not in repr(cfg) and "abc.def" not in str(cfg)
    with pytest.raises(ValueError):
        Config.from_env({"DEV_GUILD_ID": "guild"})
    with pytest.raises(ValueError):
        Config.from_env({"LANGUAGE": "fr"})


def test_env_example_documents_every_setting() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "LOG_LEVEL", "DEV_GUILD_ID", "LANGUAGE", "DISCORD_REST_PROXY",
                "DISCORD_GATEWAY_URL", "REMINDER_MINUTES", "REMINDER_INTERVAL_MINUTES", "AUTOPASS_MINUTES",
                "TIMER_POLL_SECONDS"):
        assert re.search(rf"^{key}=", text, re.M), key


def test_without_token_explains_and_exits_nonzero(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "bot", "--env-file", os.devnull], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert "DISCORD_TOKEN" in proc.stderr and ".env.example" in proc.stderr


def test_token_redacted_from_logs(caplog: pytest.LogCaptureFixture) -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "connecting with %s", ("s3cr3t.tok",), None)
    assert _Redact("s3cr3t.tok").filter(record)
    assert "s3cr3t.tok" not in record.getMessage() and "<token>" in record.getMessage()


def _keys_used() -> set[str]:
    used: set[str] = set()
    for folder in ("bot", "cogs"):
        for p in (ROOT / folder).glob("*.py"):
            src = p.read_text(encoding="utf-8")
            used |= set(re.findall(r'''(?:\bt|_|error_text)\(\s*["']((?:bot|act|ev|cmd|opt|choice)\.[a-z_0-9]+)''',
                                   src))
            used |= {f"error.{c}" for c in re.findall(r'UserError\(\s*"([a-z_]+)"', src)}
    return used


def test_every_text_exists_in_english_and_german() -> None:
    en, de = ({k: v for p in sorted((I18N_DIR / lang).iterdir(), key=lambda p: p.name)  # bot.json, bot_parts.json
               if p.name.startswith("bot") and p.name.endswith(".json")
               for k, v in json.loads(p.read_text(encoding="utf-8")).items()} for lang in ("en", "de"))
    assert set(en) == set(de)
    used = _keys_used()
    assert len(used) > 60
    assert used - set(en) == set()
    for k in en:
        # the same placeholders in both languages
        assert set(re.findall(r"{(\w+)", en[k])) == set(re.findall(r"{(\w+)", de[k])), k
        if k.startswith(("cmd.", "opt.", "choice.")):
            assert 1 <= len(en[k]) <= 100 and 1 <= len(de[k]) <= 100, k


async def test_translator_gives_german_descriptions() -> None:
    tr = Translator()
    s = locale_str("cmd.create")
    ctx = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_description, None)  # type: ignore[call-overload]
    assert s.message.startswith("Open a new game")
    assert (await tr.translate(s, discord.Locale.german, ctx) or "").startswith("Ein neues Spiel")
    assert await tr.translate(s, discord.Locale.japanese, ctx) is None
    assert await tr.translate(app_commands.locale_str("create"), discord.Locale.german, ctx) is None


async def test_synced_commands_carry_german_descriptions(env: simcord.Env) -> None:
    guild = env.create_guild()
    root = env.backend.find_command("petersburg", guild.id, type=1)
    assert root is not None
    assert root["description_localizations"]["de"].startswith("Sankt Petersburg")
    subs = {o["name"]: o for o in root["options"]}
    assert set(subs) >= {"create", "join", "leave", "start", "board", "hand", "buy", "take", "play", "pass",
                         "observatory", "decide", "card", "rules", "host", "log", "stats", "export", "history",
                         "leaderboard"}
    assert subs["host"]["type"] == 2  # a subcommand group: the host's commands
    assert {o["name"] for o in subs["host"]["options"]} == {"abort", "kick", "replace", "settings", "addbot"}
    assert subs["host"]["description_localizations"]["de"].startswith("Gastgeber")
    pass_mode = next(o for o in subs["pass"]["options"] if o["name"] == "mode")
    assert [c["value"] for c in pass_mode["choices"]] == ["turn", "display", "phase", "off"]
    assert pass_mode["choices"][2]["name_localizations"]["de"] == "für den Rest dieser Runde passen"
    assert subs["create"]["description_localizations"]["de"].startswith("Ein neues Spiel")
    edition = next(o for o in subs["create"]["options"] if o["name"] == "edition")
    assert edition["choices"][0]["name_localizations"]["de"] == "1. Ausgabe (2004)"
