"""Typed errors a player can cause. Each carries a stable ``code`` (for translation and tests), an
English message, and the parameters that fill it (``rules.i18n.error_text`` gives it in any language);
the game state is never changed. The texts are ``error.<code>`` in data/i18n/<lang>/rules.json."""

from __future__ import annotations

from typing import Any


class RuleError(Exception):
    """An action that the rules do not allow in this state."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        """The English message, made when it is read: most errors are raised and caught without being
        shown (a move tried by a computer player or a property test), and naming the cards is costly."""
        from .i18n import error_text  # the English texts live with the German ones in data/i18n

        return error_text(self.code, "en", **self.params)

    def __str__(self) -> str:
        return self.message


class RulesetError(ValueError):
    """A combination of edition, players, expansions and modules the rulebooks do not allow (X-02). Like a
    ``RuleError`` it has a stable ``code`` and the parameters of its text (``error.<code>``), in which
    ``rules.i18n.error_text`` names the parts (registry keys ``part``, ``need``, ``other``, ``instead``,
    ``parts``) and the editions (``edition``, ``editions``) in the language asked for."""

    def __init__(self, code: str, **params: Any) -> None:
        from .i18n import error_text

        self.code = code
        self.params = params
        self.message = error_text(code, "en", **params)
        super().__init__(self.message)


class NotationError(RuleError):
    """Text that does not read as an action."""

    def __init__(self, text: str, why: str) -> None:
        super().__init__("bad_notation", text=text, why=why)
