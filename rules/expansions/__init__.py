"""The registry of expansions and modules: each lives in its own file here and reaches the core only
through the hooks of ``rules/hooks.py``. ``select`` refuses what the rulebooks do not allow (X-02)."""

from __future__ import annotations

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
    """The expansions named by ``keys``, in registry order; ValueError for an unknown key, a repeated
    one, a wrong edition, a missing requirement or an excluded pair (X-02)."""
    if not keys:
        return []
    if not REGISTRY:
        REGISTRY.update(_registry())
    if len(set(keys)) != len(keys):
        raise ValueError(f"an expansion is named twice: {', '.join(keys)}")
    for key in keys:
        if key not in REGISTRY:
            if key.startswith("module") and key[6:].isdigit():
                raise ValueError(f"Module {key[6:]} is not available yet")
            known = ", ".join(sorted(k for k in REGISTRY if not k.startswith("module")))
            raise ValueError(f"unknown expansion {key!r} (known: {known})")
    active = [e for e in REGISTRY.values() if e.key in keys]
    for e in active:
        if edition not in e.editions:
            eds = " or ".join(f"the {x}. edition" for x in e.editions)
            raise ValueError(f"the expansion {e.key!r} is played with {eds} only, not the {edition}. edition")
        for need in e.requires:
            if need not in keys:
                raise ValueError(f"the expansion {e.key!r} needs {need!r}")
        for other in e.excludes:
            if other in keys:
                raise ValueError(f"the expansions {e.key!r} and {other!r} cannot be combined")
    return active


def offered(edition: int) -> list[Expansion]:
    """The expansions and modules that exist for ``edition``, in registry order (what a lobby offers;
    whether a combination of them is allowed is ``select``'s to say)."""
    if not REGISTRY:
        REGISTRY.update(_registry())
    return [e for e in REGISTRY.values() if edition in e.editions]
