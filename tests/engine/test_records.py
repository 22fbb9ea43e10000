"""Golden game records (tests/engine/records/*.json, carcassonne-record/1) and the CLI replay.

Two kinds of golden record:

* ``hand_*`` and ``record_md_example``: small games whose expected scores were worked out by
  hand from the rules (the derivations are in :data:`HAND`), not copied from the engine;
* ``sim_*`` and ``greedy_*``: full games played by ``carcassonne simulate --records`` (base, River,
  original farm scoring, the small-city rule, 2–5 players, games with discards) and a greedy
  game that passes 50 points. Their ``result`` is a regression pin; it is also cross-checked
  against the independent reference model of tests/engine/reference.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.engine import RecordError, export_record, replay
from app.engine.events import PointsScored

from .reference import score_record

RECORDS = Path(__file__).parent / "records"
ALL = sorted(p.name for p in RECORDS.glob("*.json"))

#: Hand-derived results (seat order): the reasoning, then the scores.
HAND: dict[str, tuple[str, list[int]]] = {
    "record_md_example.json": (
        "record.md: Ann's open road D–V–P–X 4, X's open north stub 1, her farmer's field beside "
        "the completed city 3; Ben's city D–O–P–E 4 tiles + 1 pennant = 10.",
        [8, 10],
    ),
    "hand_base_city_cloister_roads_farm.json": (
        "Ann closes D's city with E (2 tiles: 4). Ben's farmer sits in the strip D–U north of "
        "the road, which touches that city (3). Ann's monk at (0,1) has D, U and V around it "
        "(1 + 3 = 4). Ben's thief is on V–D–U–X, open at V's north end (4). Ann's thief on X's "
        "open north stub (1). Ann 4 + 4 + 1 = 9, Ben 4 + 3 = 7.",
        [9, 7],
    ),
    "hand_original_farms_small_city_3p.json": (
        "First-edition rules. Cal's knight completes D + T + E + E (4 tiles, no pennant: 8; the "
        "small-city rule does not apply). Ann's knight completes E + D south of the start: a "
        "two-tile city, 2 points. Original farms: around the 4-tile city Ann (T's little field) "
        "and Ben (west cap's field) have one farmer each: both 4. Nobody farms next to the "
        "small city. Ann 2 + 4 = 6, Ben 4, Cal 8.",
        [6, 4, 8],
    ),
    "hand_river_city_farm.json": (
        "River: spring, R3 (two caps), R8 (corner city, right bend), the lake. Ann's farmer on "
        "R3's north bank; the spring's wrap-around field joins both banks, the lake joins R8's "
        "outer field. Ben's knight on R8's city, closed by two caps E: 3 tiles, 6. R3's caps "
        "stay open, so Ann's farm supplies one completed city: 3.",
        [3, 6],
    ),
    "hand_discard.json": (
        "Ann closes D's city (4). C fits nowhere once that city is closed, so Ben discards it "
        "and places U with a farmer in the strip beside the completed city (3).",
        [4, 3],
    ),
}


def load(name: str) -> dict[str, Any]:
    """A golden record as JSON."""
    data: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return data


def test_golden_records_exist() -> None:
    """The golden set covers every variant and player count we ship."""
    rules = [load(n)["rules"] for n in ALL]
    assert any(r.get("river") for r in rules)
    assert any(r.get("farm_scoring") == "original" for r in rules)
    assert any(r.get("small_city_two_points") for r in rules)
    assert {len(load(n)["players"]) for n in ALL} >= {2, 3, 4, 5}
    assert any(len(load(n)["draw_order"]) > len(load(n)["moves"]) for n in ALL)  # discards
    assert set(HAND) <= set(ALL)


@pytest.mark.parametrize("name", ALL)
def test_golden_record_replays_to_its_result(name: str) -> None:
    """Every golden record replays to exactly its ``result`` (scores and winners)."""
    doc = load(name)
    state, events = replay(doc)
    assert state.is_over
    assert state.scores == doc["result"]["scores"]
    assert list(state.winners) == doc["result"]["winners"]
    assert sum(e.points for e in events if isinstance(e, PointsScored)) == sum(state.scores)


@pytest.mark.parametrize("name", ALL)
def test_golden_record_agrees_with_the_reference_model(name: str) -> None:
    """The independent reference model (tests/engine/reference.py) reaches the same scores."""
    doc = load(name)
    assert score_record(doc) == doc["result"]["scores"]


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_checked_results(name: str) -> None:
    """The hand-derived scores of :data:`HAND` are the ones pinned in the files."""
    _, expected = HAND[name]
    assert load(name)["result"]["scores"] == expected


@pytest.mark.parametrize("name", [n for n in ALL if n.startswith(("sim_", "greedy_"))])
def test_export_of_a_replayed_game_is_the_record(name: str) -> None:
    """export_record(replay(record)) gives the record back (follower spots are canonical)."""
    doc = load(name)
    state, _ = replay(doc)
    assert export_record(state) == doc


def test_greedy_golden_game_passes_50() -> None:
    """RULES.md §7.36: scores past 50 are plain integers."""
    assert max(load("greedy_base_2p_over_50.json")["result"]["scores"]) > 50


def test_replay_reports_a_wrong_result() -> None:
    """record.md: "when present, a replay must reproduce scores exactly ... or report the
    mismatch".
    """
    doc = load("hand_discard.json")
    doc["result"]["scores"] = [4, 4]
    with pytest.raises(RecordError, match="differ"):
        replay(doc)


# ---------------------------------------------------------------- the CLI


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``carcassonne`` in-process; returns (status, stdout, stderr)."""
    status = main(args)
    out, err = capsys.readouterr()
    return status, out, err


def write(tmp_path: Path, doc: Any) -> str:
    """Write a JSON document to a temp file and return its path."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_cli_replay_prints_scores_and_winners(capsys: pytest.CaptureFixture[str]) -> None:
    """``carcassonne replay RECORD.json`` prints one JSON object with scores and winners."""
    status, out, err = run_cli(["replay", str(RECORDS / "record_md_example.json")], capsys)
    assert status == 0 and err == ""
    result = json.loads(out)
    assert result["scores"] == [8, 10] and result["winners"] == [1]
    assert "events" not in result


def test_cli_replay_events(capsys: pytest.CaptureFixture[str]) -> None:
    """``--events`` adds every event, scoring events with their breakdown."""
    status, out, _ = run_cli(
        ["replay", str(RECORDS / "record_md_example.json"), "--events"], capsys
    )
    assert status == 0
    events = json.loads(out)["events"]
    scored = [e for e in events if e["type"] == "PointsScored"]
    assert sum(e["points"] for e in scored) == 18
    assert {"category", "tiles", "pennants", "majority", "followers", "rule"} <= set(scored[0])
    assert events[-1]["type"] == "GameEnded"


@pytest.mark.parametrize(
    ("change", "move", "reason"),
    [
        (lambda d: d["moves"][2].update(at=[5, 5]), 3, "does not touch"),
        (lambda d: d["moves"][1].update(rotation=0), 2, "does not match"),
        (lambda d: d["moves"][3].update(follower="city:S"), 4, "already holds"),
        (lambda d: d["moves"][1].update(tile="X"), 2, "is not the next tile"),
        (lambda d: d["moves"][0].update(at="1,0"), 1, "'at' must be"),
        (lambda d: d["moves"][4].update(rotation=45), 5, "rotation"),
        (lambda d: d["moves"][2].update(follower=3), 3, "'follower' must be"),
        (lambda d: d["moves"].__setitem__(1, "V"), 2, "must be a JSON object"),
        (lambda d: d["moves"].pop(), 5, "still has to be placed"),
    ],
)
def test_cli_replay_rejects_an_illegal_or_malformed_move(
    change: Any,
    move: int,
    reason: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An illegal or malformed record exits with status 1 and a message naming the 1-based move
    and the reason.
    """
    doc = load("record_md_example.json")
    doc.pop("result")
    change(doc)
    status, out, err = run_cli(["replay", write(tmp_path, doc)], capsys)
    assert status == 1 and out == ""
    assert f"move {move}:" in err and reason in err


@pytest.mark.parametrize(
    ("doc", "reason"),
    [
        ([1, 2], "JSON object"),
        ({"format": "pgn"}, "format"),
        (
            {"format": "carcassonne-record/1", "players": ["A"], "draw_order": [], "moves": []},
            "players",
        ),
        (
            {
                "format": "carcassonne-record/1",
                "players": ["A", "B"],
                "draw_order": ["Z"],
                "moves": [],
            },
            "not in this game's deck",
        ),
        (
            {
                "format": "carcassonne-record/1",
                "players": ["A", "B"],
                "draw_order": ["C", "C"],
                "moves": [],
            },
            "only 1",
        ),
    ],
)
def test_cli_replay_rejects_a_malformed_header(
    doc: Any, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A malformed record (header) exits 1 with the reason."""
    status, _, err = run_cli(["replay", write(tmp_path, doc)], capsys)
    assert status == 1 and reason in err


def test_cli_replay_rejects_non_json_and_missing_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Files that cannot be read or parsed exit 1 with a message."""
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    status, _, err = run_cli(["replay", str(bad)], capsys)
    assert status == 1 and "not JSON" in err
    status, _, err = run_cli(["replay", str(tmp_path / "missing.json")], capsys)
    assert status == 1 and "cannot read" in err


def test_console_script_replay() -> None:
    """The installed ``carcassonne`` console script (``python -m app.cli`` as a fallback) works
    end to end in a subprocess.
    """
    script = Path(sys.executable).parent / "carcassonne"
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "app.cli"]
    done = subprocess.run(
        [*cmd, "replay", str(RECORDS / "hand_discard.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == [4, 3]
    bad = subprocess.run(
        [*cmd, "replay", str(RECORDS / "missing.json")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 1 and bad.stderr
