"""The analysis of a finished match (app/bots/analysis.py) and ``carcassonne analyse``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.bots.analysis import analyse, analyse_moves, count_moves
from app.cli import main
from app.engine import export_record
from tests.support.finished import finished_game


@pytest.fixture(scope="module")
def record() -> dict[str, object]:
    return export_record(finished_game(7, ["Ann", "Ben"]))


def test_every_turn_is_weighed_and_ranges_agree_with_the_whole(record: dict[str, object]) -> None:
    whole = analyse(record, playouts=1, seed=3)
    assert len(whole["moves"]) == count_moves(record) == len(record["moves"])  # type: ignore[arg-type]
    for move in whole["moves"]:
        assert move["loss"] == pytest.approx(move["before"] - move["after"], abs=0.11)
        assert move["loss"] >= 0
        assert move["blunder"] == (move["loss"] >= whole["blunder"])
        if move["best"] == move["played"]:
            assert move["loss"] == 0
    # The last move's margins are the real final margins (no tile left to hope for).
    a, b = whole["scores"]
    assert whole["moves"][-1]["margins"] == [a - b, b - a]
    # Cut into ranges (as the server's worker tasks), the analysis is the same.
    parts = analyse_moves(record, 1, 10, playouts=1, seed=3) + analyse_moves(
        record, 11, count_moves(record), playouts=1, seed=3
    )
    assert parts == whole["moves"]
    losses = sorted((m["loss"] for m in whole["moves"]), reverse=True)
    assert [s["loss"] for s in whole["swings"]] == losses[: len(whole["swings"])]


def test_an_unfinished_record_is_not_analysed(record: dict[str, object]) -> None:
    cut = {**record, "moves": record["moves"][:5], "finished": False}  # type: ignore[index]
    cut.pop("result", None)
    with pytest.raises(ValueError, match="finished"):
        analyse(cut, playouts=0)


def test_the_command_prints_the_analysis(
    record: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["analyse", str(path), "--playouts", "0"]) == 0
    out = capsys.readouterr().out
    assert "biggest swings:" in out and "   1  Ann" in out
    assert main(["analyse", str(path), "--playouts", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "carcassonne-analysis/1" and doc["players"] == ["Ann", "Ben"]
    path.write_text("{}", encoding="utf-8")
    assert main(["analyse", str(path)]) == 1
