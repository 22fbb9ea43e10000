"""The published conformance corpus (docs/conformance/) and ``carcassonne conformance``.

The corpus must replay to its stated results, be what the builder makes from the engine (so
nobody hand-edits an expected score), cover every rule and variant the issue names — checked
in the replay events, not taken on trust — and the command must fail loudly on disagreement.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.conformance.check import check_directory
from app.conformance.corpus import CASES, SEGMENTS, build_case, exercised

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "docs" / "conformance"
GOLDEN = ROOT / "tests" / "engine" / "records"


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def index_rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = load(CORPUS / "index.json")["records"]
    return rows


def test_the_command_agrees_with_the_published_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", str(CORPUS)]) == 0
    out = capsys.readouterr().out.splitlines()
    files = sorted(p.name for p in CORPUS.glob("*.json") if p.name != "index.json")
    assert len(files) >= 25
    assert out[-1] == f"{len(files)} of {len(files)} records agree"
    assert [line.split()[1] for line in out[:-1]] == files
    assert all(line.startswith("ok   ") for line in out[:-1])


def test_every_rule_and_variant_is_exercised() -> None:
    """Coverage from the events: base features, River, both first-edition options, each of the
    six Wheel of Fortune segments paying out, crowns, discards, Plague with a discard, 2–5 seats.
    """
    found: set[str] = set()
    seats = set()
    tilesets = set()
    for path in CORPUS.glob("*.json"):
        if path.name == "index.json":
            continue
        record = load(path)
        found |= exercised(record)
        seats.add(len(record["players"]))
        tilesets.add(record["rules"].get("tileset", "base"))
    required = {
        "city_completed", "road_completed", "cloister_completed", "city_incomplete",
        "road_incomplete", "cloister_incomplete", "farm_modern", "farm_original",
        "small_city_two_points", "shared_majority", "discard", "river", "crown",
        "plague_discard", *(f"wheel_{name}" for name in SEGMENTS),
    }  # fmt: skip
    assert required <= found
    assert seats == {2, 3, 4, 5}
    assert tilesets == {"base", "wheel_of_fortune"}


def test_index_lists_every_file_with_what_its_replay_exercises() -> None:
    rows = index_rows()
    files = {p.name for p in CORPUS.glob("*.json")} - {"index.json"}
    assert {row["file"] for row in rows} == files
    for row in rows:
        record = load(CORPUS / row["file"])
        assert row["exercises"] == sorted(exercised(record)), row["file"]
        assert row["result"] == record["result"]
        assert row["rules"] == record["rules"]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_generated_records_are_what_the_builder_makes(case: Any) -> None:
    """Rebuilding a case gives the published file: the seed search, the game and its result."""
    seed, record, found = build_case(case)
    assert record == load(CORPUS / f"{case.name}.json")
    assert case.requires <= found
    row = next(r for r in index_rows() if r["file"] == f"{case.name}.json")
    assert f"seed {seed}" in row["origin"]


def test_golden_records_of_the_engine_tests_are_published_unchanged() -> None:
    for path in GOLDEN.glob("*.json"):
        assert load(CORPUS / path.name) == load(path), path.name


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    shutil.copytree(CORPUS, folder)
    return folder


def test_a_wrong_score_is_reported_and_fails(
    copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = load(copy / "base_2p.json")
    record["result"]["scores"][0] += 1
    (copy / "base_2p.json").write_text(json.dumps(record), encoding="utf-8")
    assert main(["conformance", str(copy)]) == 1
    out = capsys.readouterr().out
    got = load(CORPUS / "base_2p.json")["result"]["scores"]
    assert f"FAIL base_2p.json  scores {got}, expected {record['result']['scores']}" in out
    total = len(index_rows())
    assert out.splitlines()[-1] == f"{total - 1} of {total} records agree, 1 disagree"


def test_an_illegal_move_names_the_move(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = load(copy / "river_2p.json")
    record["moves"][3]["rotation"] = (record["moves"][3]["rotation"] + 90) % 360
    (copy / "river_2p.json").write_text(json.dumps(record), encoding="utf-8")
    assert main(["conformance", str(copy)]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines() if "river_2p" in x)
    assert line.startswith("FAIL river_2p.json  does not replay:") and "move 4" in line


def test_missing_result_unreadable_file_and_unlisted_file(copy: Path) -> None:
    record = load(copy / "base_5p.json")
    del record["result"]
    (copy / "base_5p.json").write_text(json.dumps(record), encoding="utf-8")
    (copy / "broken.json").write_text("{", encoding="utf-8")
    shutil.copy(copy / "base_2p.json", copy / "extra.json")
    (copy / "wheel_2p.json").unlink()
    verdicts = {a.file: a for a in check_directory(copy)}
    assert verdicts["base_5p.json"].problem == "the record states no result to compare"
    assert verdicts["broken.json"].problem.startswith("not JSON")
    assert verdicts["extra.json"].problem == "not listed in index.json"
    assert verdicts["wheel_2p.json"].problem == "listed in index.json but missing"
    assert verdicts["base_3p_discard.json"].ok


def test_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", str(tmp_path / "nowhere")]) == 1
    assert "is not a folder" in capsys.readouterr().err
