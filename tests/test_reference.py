"""docs/reference.md defines every rule item the repository cites: each id (BG-08, MK-25, AMB-17 …) named
anywhere in the code, tests, data and docs has its row there, and no file cites the rules by a file
outside the repository (``rules-notes 8``) instead of by an id."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "docs" / "reference.md"
FOLDERS = ("rules", "players", "render", "bot", "cogs", "data", "docs", "tests", "benchmarks", "scripts", ".ci")
FILES = ("README.md", "CHANGELOG.md", "pyproject.toml", ".env.example")
SUFFIXES = {".py", ".md", ".json", ".toml", ".txt", ".example", ""}
# An item id: its family, then two digits; tests name them with an underscore (test_MK_22_…).
ID_RE = re.compile(r"(?<![A-Za-z0-9])(BG|MK|P5|IBG|BQ|M[1-6]|X|UI|AMB|GAP)[-_](\d{1,2})(?![0-9])")
DEFINED_RE = re.compile(r"^\| ((?:BG|MK|P5|IBG|BQ|M[1-6]|X|UI|AMB|GAP)-\d\d|D\d{1,2}) \|", re.M)
EXTERNAL_RE = re.compile(r"rules-notes(?:\.md)? \d")


def _sources() -> list[Path]:
    paths = [ROOT / name for name in FILES if (ROOT / name).exists()]
    for folder in FOLDERS:
        paths += [p for p in (ROOT / folder).rglob("*") if p.is_file() and p.suffix in SUFFIXES
                  and "__pycache__" not in p.parts]
    return sorted(paths)


def cited(text: str) -> set[str]:
    """The item ids ``text`` cites, spelled as the reference spells them (MK_22 → MK-22); a card-data
    disagreement (D1 … D10) only where it is named as one (``D5:``), as ``D`` and a number is also a
    plain name elsewhere."""
    ids = {f"{family}-{int(number):02d}" for family, number in ID_RE.findall(text)}
    ids |= {f"D{n}" for n in re.findall(r"(?<![A-Za-z0-9])D(\d{1,2}):", text)}
    return ids


def defined() -> set[str]:
    return set(DEFINED_RE.findall(REFERENCE.read_text(encoding="utf-8")))


def test_cited_finds_ids_in_every_spelling() -> None:
    text = "rules (BG-08); def test_MK_22_x(); AMB-17(e); X-05, M6-9; cards.md (D5: two Pubs); ID_5 UI_PAGE"
    assert cited(text) == {"BG-08", "MK-22", "AMB-17", "X-05", "M6-09", "D5"}


def test_every_cited_id_is_defined() -> None:
    known = defined()
    missing: dict[str, list[str]] = {}
    for path in _sources():
        if path == REFERENCE:
            continue
        for item in sorted(cited(path.read_text(encoding="utf-8", errors="replace")) - known):
            missing.setdefault(item, []).append(str(path.relative_to(ROOT)))
    assert not missing, f"ids cited but not defined in docs/reference.md: {missing}"


def test_the_reference_defines_each_id_once_in_order() -> None:
    rows = DEFINED_RE.findall(REFERENCE.read_text(encoding="utf-8"))
    assert len(rows) == len(set(rows)), sorted({r for r in rows if rows.count(r) > 1})
    for family in ("BG", "MK", "P5", "IBG", "BQ", "M2", "M3", "M4", "M5", "M6", "X", "GAP", "UI", "AMB"):
        numbers = [int(r.split("-")[1]) for r in rows if r.split("-")[0] == family]
        assert numbers == list(range(1, len(numbers) + 1)), family


def test_no_file_cites_the_rules_by_an_outside_file() -> None:
    outside = [str(p.relative_to(ROOT)) for p in _sources()
               if p != Path(__file__) and EXTERNAL_RE.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert not outside, f"cite the base game's rules as BG-nn (docs/reference.md): {outside}"
