"""The final scores list every player's VP by source in one order, the rulebook's scoring order (workers,
buildings, the Pub, aristocrats, then the final scoring), not in the order each player happened to score."""

from __future__ import annotations

from bot.texts import final_text
from rules import Ruleset, view
from rules.__main__ import play_random
from rules.i18n import source_order, t

RULEBOOK = ["workers", "buildings", "pub", "aristocrats", "aristocrat_bonus", "rubles", "hand_penalty"]


def test_the_base_games_sources_in_the_rulebooks_order() -> None:
    assert source_order(reversed(RULEBOOK)) == RULEBOOK
    assert source_order(["hand_penalty", "market", "sack", "workers"]) == ["sack", "workers", "market", "hand_penalty"]
    assert source_order(["zz_new", "workers"]) == ["workers", "zz_new"]  # a source it does not know comes last


def test_every_players_lines_in_one_order() -> None:
    for seed in range(1, 40):  # a game in which a player scored in another order than the rulebook's
        _, st = play_random(Ruleset(players=3), seed)
        scored = [[k for k, vp in st.vp_by_source[s].items() if vp] for s in range(3)]
        if any(got != source_order(got) for got in scored):
            break
    else:
        raise AssertionError("no game found")
    v = view(st, None)
    for lang in ("en", "de"):
        names = {t(f"source.{k}", lang): k for k in RULEBOOK}
        text = final_text(v, lang, ["Anna", "Boris", "Katharina"])
        for _, lines in text.fields:
            shown = [names[line.split(":")[0]] for line in lines.splitlines() if line.split(":")[0] in names]
            assert len(shown) >= 2 and shown == source_order(shown), (lang, lines)
