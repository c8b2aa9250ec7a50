"""``.env.example`` sends an owner to the docs: every file and section it names exists (``docs/x.md#anchor``,
``README.md#anchor``), and it names no section without its file (``README: "..."``)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_docs import slug

ROOT = Path(__file__).resolve().parents[1]


def references(text: str) -> list[tuple[str, str]]:
    """(file, anchor) of every ``name.md`` or ``name.md#anchor`` in ``text``."""
    return re.findall(r"([\w./-]+\.md)(?:#([\w-]+))?", text)


def broken(text: str) -> list[str]:
    wrong: list[str] = re.findall(r"README: \"[^\"]*\"", text)  # a section named in words, not linked
    for file, anchor in references(text):
        path = ROOT / file
        if not path.is_file():
            wrong.append(file)
        elif anchor and anchor not in {slug(h) for h in re.findall(r"^#+ (.+)$", path.read_text(), re.M)}:
            wrong.append(f"{file}#{anchor}")
    return wrong


def test_env_example_points_to_sections_that_exist() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert references(text), "no reference found: the check would check nothing"
    assert broken(text) == []


def test_the_check_catches_a_missing_section() -> None:
    assert broken('see (README: "PostgreSQL and several processes")') != []
    assert broken("see docs/operations.md#no-such-section") == ["docs/operations.md#no-such-section"]
    assert broken("see docs/nothing.md") == ["docs/nothing.md"]
