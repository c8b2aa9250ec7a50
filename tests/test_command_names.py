"""Every ``/petersburg …`` command that the settings file, the README, the docs or the bot's own texts name
exists: a subcommand of the group, or of its ``host`` subgroup written with ``host``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([ROOT / ".env.example", ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
                  *(ROOT / "data" / "i18n").glob("*/*.json")])
MENTION = re.compile(r"/petersburg((?: \w+){1,2})")


def commands() -> tuple[set[str], set[str]]:
    """The group's subcommands (the host's as ``host NAME``) and the host's names alone."""
    from cogs.petersburg import HOST

    host = {c.name for c in HOST.commands}
    texts = {k for path in (ROOT / "data/i18n/en").glob("*.json") for k in json.loads(path.read_text())}
    names = {k.removeprefix("cmd.") for k in texts if k.startswith("cmd.") and k not in ("cmd.group", "cmd.host")}
    return {f"host {n}" if n in host else n for n in names}, host


def wrong_mentions(text: str) -> list[str]:
    known, _ = commands()
    wrong = []
    for words in MENTION.findall(text):
        first, *rest = words.split()
        if first == "host" and not rest:  # the subgroup itself
            continue
        if (f"host {rest[0]}" if first == "host" else first) not in known:
            wrong.append(f"/petersburg{words}")
    return wrong


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_named_exists(path: Path) -> None:
    assert wrong_mentions(path.read_text(encoding="utf-8")) == []


def test_the_check_catches_a_command_that_moved() -> None:
    known, host = commands()
    assert "settings" in host and "host settings" in known
    assert wrong_mentions("change them with /petersburg settings") == ["/petersburg settings"]
    assert wrong_mentions("/petersburg host settings server:True, /petersburg create thread:True") == []
