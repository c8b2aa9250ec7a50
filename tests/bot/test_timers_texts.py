"""Pure parts: durations, settings layers, a turn's timers, and events in words (one formatter)."""

from __future__ import annotations

import pytest

from bot.config import Config
from bot.texts import duration, event_lines, log_text
from bot.timers import AUTOPASS, REMIND, Timer, Timing, parse_minutes, plan, resolve
from rules.describe import describe

NAMES = ["Ann", "Bob"]


@pytest.mark.parametrize(("text", "minutes"), [("90", 90), ("90m", 90), ("15 min", 15), ("2h", 120), ("1d", 1440),
                                               ("1h30m", 90), ("1d2h", 1560), ("off", 0), ("aus", 0), ("0", 0)])
def test_parse_minutes(text: str, minutes: int) -> None:
    assert parse_minutes(text) == minutes


@pytest.mark.parametrize("text", ["", "soon", "-5", "1.5", "99999", "h"])
def test_parse_minutes_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_minutes(text)


def test_settings_layers_game_over_server_over_default() -> None:
    default = Timing(60, 240, 0)
    assert resolve(None, None, default) == default
    assert resolve({}, {"reminder": 15}, default) == Timing(15, 240, 0)
    assert resolve({"reminder": 5, "autopass": 0}, {"reminder": 15, "autopass": 600}, default) == Timing(5, 240, 0)
    assert resolve({"interval": 0}, {}, default) == Timing(60, 0, 0)


def test_a_turns_timers() -> None:
    timing = Timing(reminder=30, interval=60, autopass=120)
    assert plan(1, True, timing, 1000.0) == [Timer(REMIND, 1, 1000.0 + 1800), Timer(AUTOPASS, 1, 1000.0 + 7200)]
    assert plan(1, False, timing, 1000.0) == [Timer(AUTOPASS, 1, 1000.0 + 7200)]  # an empty seat: no reminder
    assert plan(0, True, timing, 0.0, sent=2) == [Timer(REMIND, 0, 60 * (30 + 2 * 60), 2), Timer(AUTOPASS, 0, 7200)]
    assert plan(0, True, Timing(30, 0, 0), 0.0, sent=1) == []  # no interval: reminded once
    assert plan(0, True, Timing(0, 60, 0), 0.0) == []


def test_config_reads_timer_settings() -> None:
    cfg = Config.from_env({"REMINDER_MINUTES": "45", "REMINDER_INTERVAL_MINUTES": "off", "AUTOPASS_MINUTES": "1440",
                           "TIMER_POLL_SECONDS": "10"})
    assert (cfg.reminder_minutes, cfg.reminder_interval_minutes, cfg.autopass_minutes, cfg.timer_poll_seconds) == (
        45, 0, 1440, 10.0)
    defaults = Config.from_env({})
    assert (defaults.reminder_minutes, defaults.reminder_interval_minutes, defaults.autopass_minutes) == (60, 240, 0)
    for bad in ({"REMINDER_MINUTES": "soon"}, {"AUTOPASS_MINUTES": "99999"}, {"TIMER_POLL_SECONDS": "0"}):
        with pytest.raises(ValueError):
            Config.from_env(bad)


def test_durations_in_words() -> None:
    assert [duration(m, "en") for m in (0, 15, 90, 1440, 1530)] == ["off", "15 min", "1 h 30 min", "1 d",
                                                                     "1 d 1 h 30 min"]
    assert duration(0, "de") == "aus" and duration(2880, "de") == "2 T"


def test_event_lines_are_rules_describe_with_hidden_rubles_and_reasons() -> None:
    buy = {"type": "buy", "seat": 0, "card": "lumberjack", "row": "upper", "price": 3}
    score = {"type": "score", "phase": "workers", "seat": 1, "rubles": 6, "vp": 0}
    score_vp = {"type": "score", "phase": "buildings", "seat": 1, "rubles": 2, "vp": 3}
    lines = event_lines([buy, score, score_vp], NAMES, 2, "en")
    assert lines[0] == describe(buy, NAMES, 2, "en") == "Ann bought Lumberjack for 3."
    assert lines[1] == f"💰 {describe(score, NAMES, 2, 'en')}" == "💰 Workers scoring: Bob +6 rubles, +0 VP."
    hidden = event_lines([buy, score, score_vp], NAMES, 2, "en", hidden={1})
    assert hidden == [lines[0], "💰 Buildings scoring: Bob +3 VP."]  # no rubles; nothing at all for 0 VP
    auto = event_lines([{"type": "pass", "seat": 1, "auto": True}], NAMES, 2, "de", auto="forced")
    assert auto == ["Bob passt (automatisch) — Passen war der einzige erlaubte Zug."]
    timeout = event_lines([{"type": "pub", "seat": 0, "vp": 0, "rubles": 0, "auto": True}], NAMES, 2, "en",
                          auto="timeout")
    assert timeout == ["🍺 Ann bought nothing at the Pub — time ran out, the bot played for them."]


def test_log_text_numbers_actions() -> None:
    rows = [(0, [{"type": "buy", "seat": 0, "card": "lumberjack", "row": "upper", "price": 3}], None),
            (1, [{"type": "pass", "seat": 1, "auto": True}, {"type": "phase", "phase": "buildings", "round": 1}],
             "mode_phase")]
    assert log_text(rows, NAMES, 2, "en").splitlines() == [
        "`  1` Ann bought Lumberjack for 3.",
        "`  2` Bob passed (automatically) — pass mode: rest of this phase.",
        "      Round 1: Buildings phase.",
    ]
