"""The settings file (``.env``, or the one ``--env-file`` names), read with python-dotenv: quotes, inline
comments, ``export KEY=…``, escapes in double quotes and a UTF-8 byte order mark are understood as owners write
them. Variables already set in the environment win over the file."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import dotenv_values

ENV_FILE_HELP = "the settings file to read (default: .env, when there is one)"


def read_env_file(path: str | Path) -> dict[str, str]:
    """The ``KEY=value`` settings of the file at ``path`` ({} when there is no file there). ValueError when the
    file cannot be read or is not UTF-8 text. A line without ``=`` is skipped (python-dotenv logs its number)."""
    p = Path(path)
    if not p.exists() or p.is_dir():  # (a file, or a device such as /dev/null, is read)
        return {}
    try:
        values = dotenv_values(p, interpolate=True, encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"the settings file {path} is not UTF-8 text: save it as UTF-8") from None
    except OSError as e:
        raise ValueError(f"the settings file {path} cannot be read: {e.strerror or e}") from None
    return {key: value for key, value in values.items() if value is not None}


def env_file_problem(path: str | None) -> str | None:
    """Why ``--env-file path`` (None: the default ``.env``) cannot be read as a settings file, or None."""
    if path is None:
        return "the settings file .env is a folder, not a file" if Path(".env").is_dir() else None
    if not path.strip():
        return "--env-file is empty: name a settings file, e.g. --env-file .env"
    p = Path(path).expanduser()
    if p.is_dir():
        return f"--env-file names the folder {path}, not a settings file (e.g. {Path(path) / '.env'})"
    if not p.exists():
        return f"the settings file {path} (--env-file) does not exist"
    return None


def load_env(path: str | None = None) -> list[str]:
    """Put the settings of ``path`` (``--env-file``; None: ``.env``, when there is one) into ``os.environ``
    (variables already set win); ValueError when the file cannot be used. Returns the keys the file sets that
    the environment hides with an empty value (``DISCORD_TOKEN=`` exported in the shell hides the file's token)."""
    problem = env_file_problem(path)
    if problem is not None:
        raise ValueError(problem)
    hidden: list[str] = []
    for key, value in read_env_file(".env" if path is None else Path(path).expanduser()).items():
        current = os.environ.get(key)
        if current is None:
            os.environ[key] = value
        elif not current.strip() and value.strip():
            hidden.append(key)
    return hidden


def hidden_message(key: str, path: str | None) -> str:
    """What to do about ``key`` set empty in the environment, which hides its value in the settings file."""
    return (f"{key} is set but empty in the environment, which wins over its value in {path or '.env'}: "
            f"unset it (unset {key}) or give it the value there")


def command_args(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace | None:
    """A maintenance command's arguments with ``--env-file`` added, its settings loaded into the environment;
    None, with the reason printed, when the settings file cannot be used (the command exits with 2)."""
    parser.add_argument("--env-file", default=None, help=ENV_FILE_HELP)
    args = parser.parse_args(argv)
    try:
        for key in load_env(args.env_file):
            print(f"warning: {hidden_message(key, args.env_file)}", file=sys.stderr)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return None
    return args
