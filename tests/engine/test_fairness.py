"""The provably fair bag: a commitment binds the seed without showing it, verification
recomputes the deck and fails on any tile drawn out of the committed order.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.engine import Options, apply_in_place, export_record, legal_actions, new_game
from app.engine.record.fairness import SCHEME, commitment, deck_for, verify_record

SEED, SALT = 9_876_543_210, "5a1t" * 8


def _finished_record(options: Options, players: int = 3, seed: int = SEED) -> dict[str, Any]:
    state = new_game(options, [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        apply_in_place(state, rng.choice(legal_actions(state)))
    record = export_record(state)
    record["fairness"] = {
        "scheme": SCHEME,
        "commitment": commitment(seed, SALT),
        "seed": seed,
        "salt": SALT,
    }
    return record


def test_commitment_is_sha256_of_seed_and_salt() -> None:
    import hashlib

    want = hashlib.sha256(f"carcassonne-shuffle/1:{SEED}:{SALT}".encode()).hexdigest()
    assert commitment(SEED, SALT) == want
    assert commitment(SEED, SALT + "x") != want and commitment(SEED + 1, SALT) != want
    assert str(SEED) not in want


@pytest.mark.parametrize(
    "options",
    [
        Options(),
        Options(expansions=frozenset({"river"})),
        Options(expansions=frozenset({"wheel_of_fortune"})),
    ],
    ids=["base", "river", "wheel"],
)
def test_a_real_game_verifies(options: Options) -> None:
    record = _finished_record(options)
    verdict = verify_record(record)
    assert verdict.ok, verdict.problem
    assert [name for name, _, _ in verdict.checks] == ["revealed", "commitment", "deck", "moves"]
    assert record["draw_order"] == list(deck_for(options, SEED))
    assert verify_record(record, record["fairness"]["commitment"]).ok


def test_one_swapped_drawn_tile_fails() -> None:
    record = _finished_record(Options())
    order = record["draw_order"]
    i = next(i for i in range(10, len(order) - 1) if order[i] != order[i + 1])
    swapped = copy.deepcopy(record)
    swapped["draw_order"][i], swapped["draw_order"][i + 1] = order[i + 1], order[i]
    verdict = verify_record(swapped)
    assert not verdict.ok
    assert verdict.problem == (
        f"deck: draw {i + 1} was {order[i + 1]!r}, the committed deck gives {order[i]!r}"
    )


@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda r: r["fairness"].update(salt="other"), "commitment:"),
        (lambda r: r["fairness"].update(seed=SEED + 1), "commitment:"),
        (lambda r: r.pop("fairness"), "revealed:"),
        (lambda r: r["fairness"].update(scheme="md5"), "revealed:"),
        (lambda r: r["draw_order"].pop(), "deck: a finished match drew"),
        (lambda r: r["moves"][3].update(rotation=45), "moves: move 4"),
    ],
)
def test_tampering_is_named(change: Any, problem: str) -> None:
    record = _finished_record(Options(), players=2)
    change(record)
    verdict = verify_record(record)
    assert not verdict.ok and verdict.problem is not None
    assert verdict.problem.startswith(problem), verdict.problem


def test_a_different_published_commitment_fails() -> None:
    record = _finished_record(Options(), players=2)
    assert not verify_record(record, "0" * 64).ok


def test_cli_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _finished_record(Options(), players=2)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert main(["verify", str(good)]) == 0
    assert "the shuffle is verified" in capsys.readouterr().out
    record["draw_order"][20], record["draw_order"][30] = (
        record["draw_order"][30],
        record["draw_order"][20],
    )
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "FAIL deck: draw" in out and "NOT verified" in out
