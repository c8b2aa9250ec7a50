"""The README and the docs stay true: every command in their shell blocks names a script or module that
exists and passes its argument parser, every repository path, test name, Python name and link they name
exists, the README's command table lists exactly the /petersburg subcommands, and its settings table
exactly the settings of .env.example. Nothing is run beyond argument parsing."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import json
import re
import shlex
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])
PACKAGES = ("rules", "players", "render", "tournament", "bot", "cogs")
PATH_RE = re.compile(r"^(?:rules|players|render|tournament|bot|cogs|data|tests|benchmarks|scripts|docs|\.ci)/"
                     r"[\w./*-]*$"
                     r"|^(?:README\.md|CHANGELOG\.md|pyproject\.toml|\.env\.example)$")
RUNTIME = ("data/petersburg.sqlite3",)  # made when the bot runs, not kept in the repository


def _id(p: Path) -> str:
    return str(p.relative_to(ROOT))


def shell_blocks(text: str) -> Iterator[str]:
    """The logical lines of the ```sh blocks (continuations joined)."""
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        line = ""
        for raw in block.splitlines():
            line += raw.rstrip()
            if line.endswith("\\"):
                line = line[:-1] + " "
                continue
            if line.strip():
                yield line.strip()
            line = ""


def commands(line: str) -> Iterator[list[str]]:
    """The simple commands of a shell line: ``$(…)`` inside counts as a command of its own, ``VAR=…``
    prefixes and ``sudo [-u user]`` are dropped, ``&&``, ``;``, ``|`` and ``&`` separate."""
    for inner in re.findall(r"\$\(([^)]*)\)", line):
        yield from commands(inner)
    line = re.sub(r"\$\([^)]*\)", "SUBST", line)
    words = shlex.split(line, comments=True)
    current: list[str] = []
    for w in [*words, "&&"]:
        if w in ("&&", ";", "|", "&", "||"):
            while current and re.match(r"^[A-Z_]+=", current[0]):
                current.pop(0)
            if current[:1] == ["sudo"]:
                current = current[3:] if current[1:2] == ["-u"] else current[1:]
            if current:
                yield current
            current = []
        else:
            current.append(w.rstrip("&") if w.endswith("&") and len(w) > 1 else w)


class Parsed(Exception):
    """Raised in place of running a command once its arguments parsed."""


def parse_only(run: Any, argv: list[str]) -> None:
    """Call an entry point with ``argv`` up to its argument parser; fail when the parser refuses them."""
    original = argparse.ArgumentParser.parse_args

    def parse_args(self: argparse.ArgumentParser, args: Any = None, namespace: Any = None) -> Any:
        original(self, args, namespace)
        raise Parsed

    saved = sys.argv
    argparse.ArgumentParser.parse_args = parse_args  # type: ignore[method-assign]
    try:
        sys.argv = ["prog", *argv]
        result = run(argv)
        if inspect.iscoroutine(result):
            asyncio.run(result)
    except Parsed:
        return
    except SystemExit as e:
        assert e.code in (0, None), f"the arguments {argv} were refused (exit {e.code})"
        return
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
        sys.argv = saved
    raise AssertionError(f"{argv}: no argument parser was reached")


def check_python(args: list[str]) -> None:
    if args[:1] == ["-m"]:
        module, rest = args[1], args[2:]
        if module in ("venv", "pip"):
            return
        if module == "pytest":
            values = {i + 1 for i, a in enumerate(rest) if a in ("-o", "-k", "-m", "-p", "-n")}  # an option's value
            for i, a in enumerate(rest):
                if not a.startswith("-") and i not in values:
                    assert (ROOT / a.split("::")[0]).exists(), f"pytest names {a}, which does not exist"
            return
        assert module.split(".")[0] in PACKAGES, f"python -m {module}: not a package of this repository"
        entry = importlib.import_module(module)
        if hasattr(entry, "__path__"):  # a package: its __main__
            entry = importlib.import_module(f"{module}.__main__")
        parse_only(lambda argv: entry.main(argv), rest)
        return
    script, rest = args[0], args[1:]
    path = ROOT / script
    assert path.is_file(), f"{script} does not exist"
    loaded = importlib.import_module(script.removesuffix(".py").replace("/", "."))
    main = loaded.main
    takes_argv = bool(inspect.signature(main).parameters)
    parse_only(lambda argv: main(argv) if takes_argv else main(), rest)


def check_command(words: list[str]) -> None:
    prog = words[0]
    if prog.endswith("/python") or prog in ("python", "python3"):
        check_python(words[1:])
    elif prog.endswith("/pip"):
        extras = re.findall(r"\.\[(\w+)\]", " ".join(words))
        optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
        assert all(e in optional for e in extras), f"pip extras {extras} are not in pyproject.toml"
    elif prog == "cp":
        assert (ROOT / words[1]).exists(), f"cp {words[1]}: no such file"
    elif prog == "bash" or prog.startswith((".ci/", "scripts/", "benchmarks/")):
        script = words[1] if prog == "bash" else prog
        assert (ROOT / script).is_file(), f"{script} does not exist"


def doc_commands() -> list[tuple[str, str]]:
    return [(f"{_id(doc)}: {line}", line) for doc in DOCS for line in shell_blocks(doc.read_text())]


@pytest.mark.parametrize(("where", "line"), doc_commands(), ids=[w for w, _ in doc_commands()])
def test_every_command_in_the_docs_names_what_exists_and_parses(where: str, line: str) -> None:
    for words in commands(line):
        check_command(words)


def inline_code(text: str) -> list[str]:
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return re.findall(r"`([^`\n]+)`", text)


@pytest.mark.parametrize("doc", DOCS, ids=_id)
def test_every_path_test_and_name_in_the_docs_exists(doc: Path) -> None:
    tests_source = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("*.py"))
    texts = {k for f in (ROOT / "data/i18n/en").glob("*.json") for k in json.loads(f.read_text())}
    missing = []
    for code in inline_code(doc.read_text()):
        code = code.strip()
        if re.fullmatch(r"(?:act|bot|error|pending|log|source|render|cmd|opt|choice)\.\w+", code):
            if code not in texts:  # a text key of data/i18n
                missing.append(code)
        elif PATH_RE.match(code) and code not in RUNTIME:
            if not list(ROOT.glob(code)) and not (ROOT / code).exists():
                missing.append(code)
        elif re.fullmatch(r"test_\w+", code):
            if not re.search(rf"def {code}\b", tests_source):
                missing.append(code)
        elif re.fullmatch(rf"(?:{'|'.join(PACKAGES)})\.[\w.]+(?:\(.*\))?", code):
            name = code.split("(")[0]
            parts = name.split(".")
            for i in range(len(parts), 0, -1):  # the longest importable module, then attributes
                try:
                    obj: Any = importlib.import_module(".".join(parts[:i]))
                except ImportError:
                    continue
                try:
                    for attr in parts[i:]:
                        obj = getattr(obj, attr)
                except AttributeError:
                    missing.append(code)
                break
            else:
                missing.append(code)
    assert not missing, f"{_id(doc)} names what does not exist: {missing}"


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("doc", DOCS, ids=_id)
def test_every_link_in_the_docs_leads_somewhere(doc: Path) -> None:
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
        if target.startswith(("http://", "https://")):
            continue
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md":
            anchors = {slug(h) for h in re.findall(r"^#+ (.+)$", path.read_text(), re.M)}
            if anchor not in anchors:
                broken.append(target)
    assert not broken, f"{_id(doc)} links to what is not there: {broken}"


def test_the_readme_lists_every_subcommand_once() -> None:
    """Every subcommand once, the host's as ``host kick`` (the ``/petersburg host`` group), the tournament's as
    ``tournament create`` (``/petersburg tournament``)."""
    from cogs.petersburg import HOST
    from cogs.tournament import TOURNAMENT
    host = {c.name for c in HOST.commands}
    names = {k.removeprefix("cmd.") for k in json.loads((ROOT / "data/i18n/en/bot.json").read_text())
             if k.startswith("cmd.") and k not in ("cmd.group", "cmd.host")}
    names = {f"host {n}" if n in host else n for n in names} | {f"tournament {c.name}" for c in TOURNAMENT.commands}
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| command | what it does |"):]
    table = table[:table.index("\n\n")]
    listed = [n for row in table.splitlines()[2:] for n in re.findall(r"`((?:host |tournament )?\w+)`",
                                                                              row.split("|")[1])]
    assert sorted(listed) == sorted(names)


def test_the_readme_lists_every_setting_of_env_example() -> None:
    settings = set(re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| setting | default | what it sets |"):]
    table = table[:table.index("\n\n")]
    listed = {n for row in table.splitlines()[2:] for n in re.findall(r"`([A-Z_]+)`", row.split("|")[1])}
    assert listed == settings


def test_the_checks_catch_what_is_wrong() -> None:
    """The checks above fail on a flag, a script, a file or a link that does not exist."""
    with pytest.raises(AssertionError):
        check_command(shlex.split(".venv/bin/python -m bot --no-such-flag"))
    with pytest.raises(AssertionError):
        check_command(shlex.split(".venv/bin/python -m players arena --players 4 no-such-level"))
    with pytest.raises(AssertionError):
        check_command(shlex.split(".venv/bin/python benchmarks/bench_nothing.py"))
    with pytest.raises(AssertionError):
        check_command(shlex.split("bash .ci/nothing"))
    assert [c for c in commands("URL=$(.ci/pg start /tmp/x) && X=1 .venv/bin/python -m bot & # note")] == [
        [".ci/pg", "start", "/tmp/x"], [".venv/bin/python", "-m", "bot"]]
    assert slug("PostgreSQL, several processes and shards") == "postgresql-several-processes-and-shards"
