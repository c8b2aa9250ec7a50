"""Every ``/petersburg …`` command that the settings file, the README, the docs or the bot's own texts name
exists: a subcommand of the group, or of its ``host`` or ``tournament`` subgroup written with the subgroup's name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([ROOT / ".env.example", ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
                  *(ROOT / "data" / "i18n").glob("*/*.json")])
MENTION = re.compile(r"/petersburg((?: \w+){1,2})")


def subgroups() -> dict[str, set[str]]:
    """The group's subgroups and their subcommands' names."""
    from cogs.petersburg import HOST
    from cogs.tournament import TOURNAMENT

    return {g.name: {c.name for c in g.commands} for g in (HOST, TOURNAMENT)}


def commands() -> tuple[set[str], set[str]]:
    """The group's subcommands (a subgroup's as ``GROUP NAME``) and the host's names alone."""
    groups = subgroups()
    texts: dict[str, str] = {}
    for path in sorted((ROOT / "data/i18n/en").glob("bot*.json")):
        texts.update(json.loads(path.read_text(encoding="utf-8")))
    names = {k.removeprefix("cmd.") for k in texts if k.startswith("cmd.") and k not in ("cmd.group", "cmd.host")}
    known = set()
    for n in names - set(groups):  # the host's texts are cmd.NAME, the tournament's cmd.tournament_NAME
        sub = n.removeprefix("tournament_")
        if sub != n and sub in groups["tournament"]:
            known.add(f"tournament {sub}")
        else:
            known.add(f"host {n}" if n in groups["host"] else n)
    return known, groups["host"]


def wrong_mentions(text: str) -> list[str]:
    known, _ = commands()
    groups = subgroups()
    wrong = []
    for words in MENTION.findall(text):
        first, *rest = words.split()
        if first in groups and not rest:  # the subgroup itself
            continue
        if (f"{first} {rest[0]}" if first in groups else first) not in known:
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
    assert "tournament create" in known and "create" in known and "host create" not in known
    assert wrong_mentions("/petersburg tournament join, /petersburg tournament") == []
    assert wrong_mentions("/petersburg tournament kick") == ["/petersburg tournament kick"]
