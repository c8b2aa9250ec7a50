"""``python -m bot review RECORD``: the review in the bot's words, in English or German, and its picture."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.review_cli import main
from bot.review_text import label_text
from players import judge
from players.review import LABELS, review_game
from rules import GameRecord, Ruleset
from rules.__main__ import play_random
from rules.i18n import t

ITERATIONS = 4


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """An exported record and its review's figures (as ``python -m players review --json`` saves them)."""
    import json

    rec, _ = play_random(Ruleset(edition=2, players=2), 7)
    rec.seats = ["Anna", "Boris"]
    folder = tmp_path_factory.mktemp("review")
    record = folder / "petersburg-12.json"
    record.write_text(rec.dumps())
    with pytest.MonkeyPatch.context() as m:
        m.setattr(judge, "MIN_SIMULATIONS", ITERATIONS)
        review = review_game(GameRecord.loads(rec.dumps()), iterations=ITERATIONS, seed=2)
    saved = folder / "review.json"
    saved.write_text(json.dumps({"names": rec.seats, **review.to_json()}))
    return record, saved


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_review_in_words_and_its_picture(
    files: tuple[Path, Path], tmp_path: Path, lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record, saved = files
    picture = tmp_path / "review.png"
    assert main([str(record), "--review", str(saved), "--picture", str(picture), "--lang", lang]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == t("bot.review_title", lang, game="12")
    assert lines[1].startswith("Anna: ") and "**" not in lines[1]
    assert any(x.startswith("Boris: ") for x in lines)
    marks = [x for x in lines if x.startswith("  • ")]
    labels = tuple(f"  • {label_text(label, lang)}: " for label in LABELS)
    assert marks and all(x.startswith(labels) for x in marks)
    preferred = {"en": "the strong player preferred", "de": "der starke Spieler hätte lieber"}[lang]
    assert any(preferred in x for x in marks)
    assert lines[-1] == f"picture: {picture}"
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_figures_of_another_game_are_refused(files: tuple[Path, Path], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    record, saved = files
    other, _ = play_random(Ruleset(edition=2, players=2), 8)
    path = tmp_path / "other.json"
    path.write_text(other.dumps())
    assert main([str(path), "--review", str(saved)]) == 2
    assert capsys.readouterr().err == f"error: {saved}: not the review of {path}\n"


def test_figures_that_are_not_json_are_refused_in_one_line(files: tuple[Path, Path], tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    record, _ = files
    bad = tmp_path / "review.json"
    bad.write_text("{not json")
    assert main([str(record), "--review", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}: not a review's JSON (") and err.count("\n") == 1
