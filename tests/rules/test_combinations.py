"""X-02: the ruleset accepts exactly the combinations the rulebooks allow, for every edition, player
count, expansion and module, and refuses the others with a message that names what is wrong."""

from __future__ import annotations

from itertools import chain, combinations

import pytest

from rules import Ruleset

EXPANSIONS = ("market", "new_society", "new_society_replacements_only")


def subsets(items: tuple[object, ...]) -> list[tuple[object, ...]]:
    return list(chain.from_iterable(combinations(items, k) for k in range(len(items) + 1)))


def allowed(edition: int, players: int, expansions: tuple[str, ...], modules: tuple[int, ...]) -> bool:
    """The table of X-02 (with P5-02, P5-04, IBG-13, IBG-14, BQ-27, M2-01)."""
    market, society, sp_plus = (x in expansions for x in EXPANSIONS)
    if market and edition != 2 or (society or sp_plus) and edition != 1 or society and sp_plus:
        return False
    if 2 in modules and edition != 2:
        return False
    if any(m in modules for m in (3, 4, 5, 6)) and not (edition == 2 and market):
        return False
    if players == 5:
        return society if edition == 1 else market
    return 2 <= players <= 4


@pytest.mark.parametrize("edition", [1, 2])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_X_02_exactly_the_allowed_combinations(edition: int, players: int) -> None:
    for expansions in subsets(EXPANSIONS):
        for modules in subsets((1, 2, 3, 4, 5, 6)):
            exp = tuple(str(x) for x in expansions)
            mods = tuple(int(str(m)) for m in modules)
            ok = allowed(edition, players, exp, mods)
            try:
                Ruleset(edition=edition, players=players, expansions=exp, modules=mods)
            except ValueError as e:
                assert not ok, (edition, players, exp, mods, str(e))
                assert str(e) and "Traceback" not in str(e)
            else:
                assert ok, (edition, players, exp, mods)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"edition": 1, "expansions": ("market",)}, "The Market is played with the 2nd edition only"),
        ({"edition": 2, "expansions": ("new_society",)}, "Module 2"),
        ({"edition": 1, "modules": (2,)}, "with the 1st edition, play In bester Gesellschaft"),
        ({"edition": 2, "modules": (3,)}, "Module 3 \\(the Assistants\\) needs the Market"),
        ({"edition": 1, "expansions": ("new_society", "new_society_replacements_only")}, "cannot be played together"),
        ({"edition": 2, "players": 5}, "2 to 4 players"),
        ({"edition": 1, "players": 5, "expansions": ("new_society_replacements_only",)}, "2 to 4 players"),
    ],
)
def test_X_02_refusals_say_why(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Ruleset(**kwargs)  # type: ignore[arg-type]
