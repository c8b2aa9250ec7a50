"""Every command line's --help shows each option's default: the rules' and the computer players' command lines,
``python -m bot review``, the benchmarks and the scripts (``rules.cliargs.HelpFormatter``)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import inspect
import sys
from pathlib import Path
from typing import Any

import pytest

from rules.cliargs import HelpFormatter

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(f"benchmarks.{p.stem}" for p in (ROOT / "benchmarks").glob("*.py")
                 if "def main(" in p.read_text()) + ["scripts.channel_picture"]
COMMANDS = [("rules.__main__", ["random"]), ("rules.__main__", ["replay", "x.json"]),
            ("players.__main__", ["random"]), ("players.__main__", ["arena", "easy"]),
            ("players.__main__", ["think"]), ("players.__main__", ["review", "x.json"]), ("bot.review_cli", ["x.json"])]


class Parsed(Exception):
    pass


def parsers_of(module: str, argv: list[str]) -> list[argparse.ArgumentParser]:
    """The parsers ``module.main(argv)`` parses its arguments with (the main one and the subcommand's)."""
    seen: list[argparse.ArgumentParser] = []
    original = argparse.ArgumentParser.parse_args

    def parse_args(self: argparse.ArgumentParser, args: Any = None, namespace: Any = None) -> Any:
        seen.append(self)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                seen.extend(action.choices.values())
        raise Parsed

    main = importlib.import_module(module).main
    saved = sys.argv
    argparse.ArgumentParser.parse_args = parse_args  # type: ignore[method-assign]
    try:
        sys.argv = ["prog", *argv]
        result = main(argv) if inspect.signature(main).parameters else main()
        if inspect.iscoroutine(result):
            asyncio.run(result)
    except Parsed:
        pass
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
        sys.argv = saved
    assert seen, module
    return seen


@pytest.mark.parametrize(("module", "argv"), [*COMMANDS, *((s, []) for s in SCRIPTS)],
                         ids=lambda x: x if isinstance(x, str) else " ".join(x))
def test_every_help_shows_the_defaults(module: str, argv: list[str]) -> None:
    for parser in parsers_of(module, argv):
        assert parser.formatter_class is HelpFormatter, parser.prog
        text = " ".join(parser.format_help().split())
        for action in parser._actions:
            if HelpFormatter._shows_default(action):
                assert f"default: {action.default}" in text or "(default" in (action.help or ""), (
                    parser.prog, action.dest)
