"""``python -m players review RECORD``: a finished game's review as text (each seat's accuracy and labels,
its labelled decisions) and as JSON; a record that cannot be reviewed is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from players import judge
from players.__main__ import main
from players.review import GameReview, review_game
from rules import GameRecord, Ruleset
from rules.__main__ import play_random

ITERATIONS = 4


@pytest.fixture(autouse=True)
def few_simulations(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command at a tiny budget (the review's own minimum is for figures worth reading)."""
    monkeypatch.setattr(judge, "MIN_SIMULATIONS", ITERATIONS)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rec, _ = play_random(Ruleset(edition=2, players=2), 7)
    rec.seats = ["Anna", "Boris"]
    path = tmp_path_factory.mktemp("review") / "petersburg-12.json"
    path.write_text(rec.dumps())
    return path


def test_the_review_as_text_and_as_json(record_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["review", str(record_file), "--pure", "--iterations", str(ITERATIONS), "--seed", "2"]
    assert main([*argv, "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    record = GameRecord.loads(record_file.read_text())
    review = GameReview.from_json(found)
    assert found["names"] == ["Anna", "Boris"]
    assert review == review_game(record, iterations=ITERATIONS, seed=2)
    labelled = [d for d in review.decisions if d.label]
    assert labelled  # random moves make mistakes

    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"review: 2 players, {len(record.actions)} actions, {len(review.decisions)} decisions")
    for s in review.seats:
        name = record.seats[s.seat]
        line = next(x for x in lines if x.startswith(f"{name}: "))
        assert f"accuracy {s.accuracy:.1f}" in line and f"{s.blunders} blunder" in line
    d = labelled[0]
    assert (f"  {d.label}: action {d.index + 1}, round {d.round}, " in "\n".join(lines)
            and f'played "{d.played}", preferred "{d.preferred}"' in "\n".join(lines))
    assert sum(x.startswith("  ") for x in lines) == len(labelled)


def test_a_record_that_cannot_be_reviewed_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec, _ = play_random(Ruleset(edition=2, players=2), 7)
    rec.actions = rec.actions[:10]
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(rec.dumps())
    for path, words in ((unfinished, "the game is not finished"), (tmp_path / "missing.json", "cannot read")):
        with pytest.raises(SystemExit) as ended:
            main(["review", str(path), "--pure"])
        assert ended.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("usage: python -m players review ") and words in err.splitlines()[-1], err
