"""What the command lines (``python -m rules``, ``python -m players``) share: argument types that refuse a
bad value in one line naming what is expected, and the help's format (every default shown)."""

from __future__ import annotations

import argparse
import copy
import math
import random

SEEDS = 2**31  # a seed picked when none is given lies in 0 .. SEEDS - 1


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The description as written, and each option's default after its help (also for an option without
    help; not where there is none: a flag, or a default that means "not given")."""

    @staticmethod
    def _shows_default(action: argparse.Action) -> bool:
        default = action.default
        return bool(action.option_strings) and not (
            default is None or default is False or default == () or default == "" or default is argparse.SUPPRESS
            or "%(default)" in (action.help or "") or "(default" in (action.help or "")
        )

    def _format_action(self, action: argparse.Action) -> str:
        if not action.help and action.help is not argparse.SUPPRESS and self._shows_default(action):
            action = copy.copy(action)
            action.help = "default: %(default)s"
        return super()._format_action(action)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if not self._shows_default(action) or action.help == "default: %(default)s":
            return action.help
        return f"{action.help} (default: %(default)s)"


def positive_int(text: str) -> int:
    """A whole number above 0 (``--games``, ``--jobs``, ``--iterations``)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number above 0, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"a whole number above 0, not {text!r}")
    return n


def seconds(text: str) -> float:
    """A finite number of seconds above 0 (``--budget``: nan or inf would never end, 0 or less is no time)."""
    try:
        s = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, e.g. 0.5, not {text!r}") from None
    if not math.isfinite(s) or s <= 0:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, e.g. 0.5, not {text!r}")
    return s


def pick_seed(seed: int | None) -> int:
    """``seed``, or a new one when none was given."""
    return random.randrange(SEEDS) if seed is None else seed
