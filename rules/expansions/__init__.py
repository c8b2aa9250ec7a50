"""The registry of expansions and modules: each lives in its own file here and reaches the core only
through the hooks of ``rules/hooks.py``. ``select`` refuses what the rulebooks do not allow (X-02)."""

from __future__ import annotations

from ..errors import RulesetError
from ..hooks import Expansion

__all__ = ["REGISTRY", "offered", "select"]


def _registry() -> dict[str, Expansion]:
    """Every expansion and module, in the order they configure a game (a module's key is
    ``module<n>``, ``rules.ruleset.module_key``)."""
    from .assignments import ASSIGNMENTS
    from .assistants import ASSISTANTS
    from .banquet import BANQUET_MODULE
    from .market import MARKET
    from .module4 import EVENTS
    from .module6 import OBSTACLES
    from .society import MODULE2_EXPANSION, NEW_SOCIETY_EXPANSION, REPLACEMENTS_ONLY_EXPANSION

    return {e.key: e for e in (MARKET, NEW_SOCIETY_EXPANSION, REPLACEMENTS_ONLY_EXPANSION, BANQUET_MODULE,
                               MODULE2_EXPANSION, ASSISTANTS, EVENTS, ASSIGNMENTS, OBSTACLES)}


REGISTRY: dict[str, Expansion] = {}


def select(edition: int, keys: tuple[str, ...]) -> list[Expansion]:
    """The expansions named by ``keys``, in registry order; ``RulesetError`` (a ValueError) for an unknown key,
    a repeated one, a wrong edition, a missing requirement or an excluded pair (X-02)."""
    if not keys:
        return []
    if not REGISTRY:
        REGISTRY.update(_registry())
    for i, key in enumerate(keys):
        if key in keys[:i]:
            raise RulesetError("ruleset_twice", part=key)
        if key not in REGISTRY:
            known = ", ".join(sorted(k for k in REGISTRY if not k.startswith("module")))
            raise RulesetError("ruleset_unknown", name=key, known=known)
    active = [e for e in REGISTRY.values() if e.key in keys]
    for e in active:
        if edition not in e.editions:
            if e.instead:
                raise RulesetError("ruleset_edition_instead", part=e.key, editions=e.editions, edition=edition,
                                   instead=e.instead)
            raise RulesetError("ruleset_edition_only", part=e.key, editions=e.editions, edition=edition)
        for need in e.requires:
            if need not in keys:
                raise RulesetError("ruleset_needs", part=e.key, need=need)
        for other in e.excludes:
            if other in keys:
                raise RulesetError("ruleset_excludes", part=e.key, other=other)
    return active


def offered(edition: int) -> list[Expansion]:
    """The expansions and modules that exist for ``edition``, in registry order (what a lobby offers;
    whether a combination of them is allowed is ``select``'s to say)."""
    if not REGISTRY:
        REGISTRY.update(_registry())
    return [e for e in REGISTRY.values() if edition in e.editions]
