"""A provably fair tile bag: the commitment to a match's shuffle, and its verification.

When a match starts the server draws a ``seed`` (the shuffle's only input besides the rules) and
a secret random ``salt``, and publishes ``commitment(seed, salt)``: SHA-256 over
``"carcassonne-shuffle/1:<seed>:<salt>"``. The salt (128 random bits) makes the commitment
useless for guessing the seed, so it reveals nothing about the order. After the end the record
carries ``"fairness": {"scheme", "commitment", "seed", "salt"}`` (``seed`` as decimal text: JSON
numbers lose precision past 2**53 in browsers; an int is accepted too) and anyone can check, with
:func:`verify_record`, that

1. the revealed seed and salt hash to the published commitment,
2. the deck shuffled from that seed (:func:`deck_for`, the engine's own stable shuffle) begins
   with the record's ``draw_order`` — every tile drawn followed the committed order, and a
   finished game used the whole deck,
3. the record replays (every move legal, the same scores).

Pure: ``hashlib`` only, no I/O.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from app.engine.errors import EngineError
from app.engine.game import new_game
from app.engine.options import Options
from app.engine.record import replay

SCHEME = "sha256(seed:salt)/1"
_PREFIX = "carcassonne-shuffle/1"


def commitment(seed: int, salt: str) -> str:
    """The SHA-256 (lowercase hex) that binds the server to ``seed`` without revealing it.

    ``seed``: the deck seed (an int); ``salt``: secret random text (hex), revealed at the end.
    """
    return hashlib.sha256(f"{_PREFIX}:{seed}:{salt}".encode()).hexdigest()


def deck_for(options: Options, seed: int) -> tuple[str, ...]:
    """Every tile the game with ``options`` shuffled from ``seed`` will draw, in order
    (the start tile, or the River's spring / the wheel board, excluded).
    """
    return new_game(options, ["a", "b"], seed=seed).deck


@dataclass
class Verdict:
    """The outcome of :func:`verify_record`: ``ok`` when every check passed; ``checks`` is a
    list of ``(name, passed, detail)`` in the order run; ``problem`` the first failure.
    """

    ok: bool = True
    checks: list[tuple[str, bool, str]] = field(default_factory=list)
    problem: str | None = None

    def check(self, name: str, passed: bool, detail: str) -> bool:
        """Record one check; the first failure becomes ``problem``."""
        self.checks.append((name, passed, detail))
        if not passed and self.ok:
            self.ok, self.problem = False, f"{name}: {detail}"
        return passed

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "problem", "checks": [{"name", "ok", "detail"}]}``."""
        return {
            "ok": self.ok,
            "problem": self.problem,
            "checks": [{"name": n, "ok": p, "detail": d} for n, p, d in self.checks],
        }


def _fairness_block(record: Any, verdict: Verdict) -> tuple[int, str, str] | None:
    block = record.get("fairness") if isinstance(record, dict) else None
    if not isinstance(block, dict):
        verdict.check(
            "revealed",
            False,
            "the record has no 'fairness' block (a match still "
            "being played, or one from before commitments)",
        )
        return None
    seed, salt, commit = block.get("seed"), block.get("salt"), block.get("commitment")
    if block.get("scheme") != SCHEME:
        verdict.check("revealed", False, f"unknown scheme {block.get('scheme')!r}")
        return None
    if isinstance(seed, str) and seed.lstrip("-").isdigit():
        seed = int(seed)
    if (
        not isinstance(seed, int)
        or isinstance(seed, bool)
        or not isinstance(salt, str)
        or not isinstance(commit, str)
    ):
        verdict.check("revealed", False, "fairness needs seed (integer), salt and commitment")
        return None
    verdict.check("revealed", True, f"seed {seed}, salt {salt}")
    return seed, salt, commit


def verify_record(record: Any, published: str | None = None) -> Verdict:
    """Check a finished record's shuffle against its commitment (see the module docstring).

    ``published``: the commitment the server showed at the start, when the caller kept it
    (else the record's own ``fairness.commitment`` is trusted as the published one). Never
    raises for a bad record: every failure is a failed check naming what and where (a tile
    by its 1-based draw number, a move by its 1-based number).
    """
    verdict = Verdict()
    found = _fairness_block(record, verdict)
    if found is None:
        return verdict
    seed, salt, commit = found
    if published is not None:
        verdict.check(
            "published",
            published == commit,
            "the record's commitment is the one published at the start"
            if published == commit
            else f"the record says {commit}, the server published {published}",
        )
    computed = commitment(seed, salt)
    if not verdict.check(
        "commitment",
        computed == commit,
        f"sha256 = {computed}" + ("" if computed == commit else f", not {commit}"),
    ):
        return verdict
    try:
        options = Options.from_json(record.get("rules"))
    except EngineError as exc:
        verdict.check("deck", False, exc.message)
        return verdict
    deck = deck_for(options, seed)
    drawn = record.get("draw_order")
    if not isinstance(drawn, list):
        verdict.check("deck", False, "draw_order must be a list of tile ids")
        return verdict
    for i, tile in enumerate(drawn):
        if i >= len(deck) or deck[i] != tile:
            want = deck[i] if i < len(deck) else "nothing (the deck is used up)"
            verdict.check(
                "deck", False, f"draw {i + 1} was {tile!r}, the committed deck gives {want!r}"
            )
            return verdict
    finished = record.get("finished", True)
    if finished and len(drawn) != len(deck):
        verdict.check(
            "deck", False, f"a finished match drew {len(drawn)} of the {len(deck)} committed tiles"
        )
        return verdict
    verdict.check("deck", True, f"all {len(drawn)} draws follow the committed order")
    try:
        state, _ = replay(record)
    except EngineError as exc:
        verdict.check("moves", False, str(exc))
        return verdict
    verdict.check("moves", True, f"every move is legal; scores {state.scores}")
    return verdict
