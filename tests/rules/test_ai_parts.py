"""The computer players' knowledge of In bester Gesellschaft, the Banquet / Module 1, Module 2 and
Modules 3 to 6 (players/parts_eval.py): the new cards' abilities valued in a
tableau, purple cards played when they pay, the new decisions chosen by what they bring, the seat's
best assignment, and whole games of every ruleset played by the normal and the strong player."""

from __future__ import annotations

import random

import pytest

from players.ai import choose
from players.eval import Outlook
from rules import Action, GameState, Ruleset, apply, legal_moves, new_game
from rules.expansions.assignments import dealt, value

from .helpers import bq_game, end_phase, ibg, module2, position, society_game

RULESETS = (
    dict(edition=1, expansions=("new_society",)),
    dict(edition=1, expansions=("new_society_replacements_only",)),
    dict(edition=1, modules=(1,)),
    dict(edition=1, expansions=("new_society",), modules=(1,)),
    dict(edition=2, modules=(1,)),
    dict(edition=2, modules=(2,)),
    dict(edition=2, expansions=("market",), modules=(1, 2)),
    dict(edition=2, expansions=("market",), modules=(3, 4, 5, 6)),
    dict(edition=2, expansions=("market",), modules=(1, 2, 3, 4, 5, 6)),
)


def normal_choices(st: GameState, tries: int = 8) -> set[Action]:
    """The normal player's choices over several tie-breaking generators (a tie would show as two)."""
    return {choose(st.copy(), level="normal", rng=r) for r in range(tries)}


def test_IBG_04_eleventh_distinct_aristocrat_is_worth_ten() -> None:
    names = ["Author", "Administrator", "Warehouse Manager", "Secretary", "Controller", "Judge", "Mayor",
             "Senator", "Patriarch", "Tax Man"]
    st = society_game(ibg(), {0: names}, phase="aristocrats")
    out = Outlook(st)
    assert len(out.reds(0)) == 10
    czarina = st.ruleset.catalogue.lookup("Admiral")
    assert czarina is not None and czarina.colour == "red"
    assert out.aristocrat_gain(0, czarina, None) == 10.0


def test_M2_07_textile_factory_counts_cloth_workers() -> None:
    rs = module2()
    plain = Outlook(society_game(rs, {0: ["Lumberjack"]}))
    cloth = Outlook(society_game(rs, {0: ["Shepherd", "Shepherd", "Lumberjack"]}))
    factory = rs.catalogue.lookup("Textile Factory")
    assert factory is not None
    assert cloth.income(0, factory) - plain.income(0, factory) >= 2 * 2 * 1.0  # 2 VP per cloth worker


def test_M2_09_guild_hall_valued_at_four_per_building_scoring() -> None:
    rs = module2()
    out = Outlook(society_game(rs, {}))
    hall = rs.catalogue.lookup("Guild Hall")
    assert hall is not None
    assert out.income(0, hall) >= 4 * out.scorings["blue"]


def test_M2_09_guild_hall_takes_VP_when_rubles_are_worth_little() -> None:
    st = society_game(module2(), {0: ["Guild Hall"]})
    st.decks["aristocrats"] = st.decks["aristocrats"][:1]  # the last round: rubles are worth little
    end_phase(st)
    assert st.pending is not None and st.pending.kind == "guild_hall"
    assert normal_choices(st) == {Action("guild_hall", amount=4)}


def test_M2_03_trading_house_bought_VP_at_the_end() -> None:
    st = society_game(module2(), {0: ["Trading House"]}, rubles=[20, 25])
    st.decks["aristocrats"] = st.decks["aristocrats"][:1]
    end_phase(st)
    assert st.pending is not None and st.pending.kind == "trading_house"
    assert normal_choices(st) == {Action("trading_house", amount=1)}


def test_M2_05_normal_keeps_an_affordable_sycophant_when_it_pays() -> None:
    """A Sycophant that is the seat's fifth distinct aristocrat (+5 VP at the end) is kept for a ruble
    in the last round; two Sycophants early in the game: one is kept (a distinct name as more
    aristocrats come), the second (no further name, a ruble at each scoring) goes."""
    st = society_game(
        module2(), {0: ["Sycophant", "Author", "Administrator", "Warehouse Manager", "Secretary"]},
        phase="aristocrats", rubles=[5, 5],
    )
    st.decks["aristocrats"] = st.decks["aristocrats"][:1]
    end_phase(st)
    assert st.pending is not None and st.pending.kind == "sycophant"
    assert normal_choices(st) == {Action("sycophant", amount=1)}
    st = society_game(
        module2(), {0: ["Sycophant", "Sycophant", "Author"]}, phase="aristocrats", rubles=[5, 5],
    )
    end_phase(st)
    assert st.pending is not None and st.pending.kind == "sycophant"
    assert normal_choices(st) == {Action("sycophant", amount=1)}


def test_BQ_15_normal_plays_the_golden_donkey_not_a_losing_jester() -> None:
    """The last round, nothing to buy, a Jester only for a card whose swap loses VP: the Golden
    Donkey's 5 rubles are the move (the old heuristic valued every purple play alike)."""
    st = bq_game(tableaux={0: ["Church of the Resurrection"]}, hands={0: ["Jester", "Golden Donkey"]},
                 upper=("Academy",), rubles=0)
    st.decks["aristocrats"] = st.decks["aristocrats"][:2]
    moves = {m.action.card for m in legal_moves(st) if m.action.kind == "play"}
    assert {"jester", "golden_donkey"} <= moves
    picks = normal_choices(st)
    assert {a.card for a in picks} == {"golden_donkey"}, picks
    # a Black Market whose only card is out of reach (no rubles) is no better than keeping it
    st = bq_game(hands={0: ["Black Market", "Golden Donkey"]}, upper=("Academy",), discard=["Lumberjack"], rubles=0)
    st.decks["aristocrats"] = st.decks["aristocrats"][:2]
    assert {"black_market", "golden_donkey"} <= {m.action.card for m in legal_moves(st) if m.action.kind == "play"}
    picks = normal_choices(st)
    assert {a.card for a in picks} == {"golden_donkey"}, picks


def test_BQ_16_banquet_goes_on_the_best_card() -> None:
    st = bq_game(tableaux={0: ["Controller", "Church of the Resurrection"]}, hands={0: ["Banquet"]},
                 upper=("Academy",), rubles=0)
    plays = {m.action for m in legal_moves(st) if m.action.card == "banquet"}
    assert plays, legal_moves(st)
    out = Outlook(st)
    best = max(plays, key=lambda a: out.score(next(m for m in legal_moves(st) if m.action == a)))
    assert best.target == "church_of_the_resurrection"  # 4 VP and 2 rubles doubled beat 1 VP and 4 rubles


def test_BQ_06_purple_cards_cost_no_VP_in_the_hand() -> None:
    donkey = bq_game(hands={0: ["Golden Donkey"]})
    plain = bq_game(hands={0: []})
    assert Outlook(donkey).worth(0) >= Outlook(plain).worth(0)


def _first(kw: dict, players: int, kind: str, seeds: range) -> list[GameState]:
    found = []
    for seed in seeds:
        st = new_game(Ruleset(players=players, **kw), [str(i) for i in range(players)], seed)
        rng = random.Random(seed)
        while not st.finished:
            if st.pending is not None and st.pending.kind == kind:
                found.append(st.copy())
                break
            apply(st, rng.choice(legal_moves(st)).action)
    return found


@pytest.mark.parametrize("players", [2, 4])
def test_M5_02_normal_chooses_its_best_assignment(players: int) -> None:
    kw = dict(edition=2, expansions=("market",), modules=(5,))
    states = _first(kw, players, "assignment", range(6))
    assert states
    for st in states:
        seat = st.decider
        values = {aid: value(st, seat, aid) for aid in dealt(st, seat)}
        pick = choose(st, level="normal", rng=0)
        assert values[pick.amount] == max(values.values()), (values, pick)


@pytest.mark.parametrize("kw", RULESETS, ids=lambda kw: "-".join(map(str, kw.values())))
def test_normal_and_strong_finish_every_ruleset(kw: dict) -> None:
    for players, levels in ((2, ("strong", "normal")), (Ruleset(players=2, **kw).edition and 4, ("normal", "easy"))):
        try:
            rs = Ruleset(players=players, **kw)
        except ValueError:
            continue
        st = new_game(rs, [str(i) for i in range(players)], 5)
        k = 0
        while not st.finished:
            level = levels[st.decider % len(levels)]
            apply(st, choose(st, level=level, rng=k, iterations=4))
            k += 1
        assert st.winners


def test_M6_09_blocked_seat_buys_toward_the_obstacle() -> None:
    """Blocked before a real obstacle (Buildings at 20: 2 blue cards), every VP gained is lost: a blue
    card is worth more by what meeting the condition saves (a worker's worth is unchanged), and the
    normal player buys the blue card it would otherwise not care for."""
    st = position(edition=2, players=2, tableau=["Market"], upper=["Warehouse"], rubles=12,  # type: ignore[call-arg]
                  phase=1, expansions=("market",), modules=(6,))
    m = st.ext["module6"]
    m["obstacles"] = {"10": "bonus_card", "20": "real_buildings", "35": "real_workers", "50": "bonus_trading",
                      "70": "bonus_aristocrats"}
    m["passed"] = [[10], [10]]
    by_id = st.ruleset.catalogue.by_id
    free = Outlook(st)
    before = {c: free.card_value(0, by_id[c], None) for c in ("warehouse", "gold_miner")}
    st.vp[0] = 19
    out = Outlook(st)
    assert out.needs(0) == ({"blue": 1}, 4.0)
    assert out.card_value(0, by_id["warehouse"], None) - before["warehouse"] >= 4.0
    assert out.card_value(0, by_id["gold_miner"], None) == before["gold_miner"]
    picks = normal_choices(st)
    assert picks == {Action("buy", "warehouse", 0)}, picks
