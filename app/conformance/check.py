"""Replay a folder of ``carcassonne-record/1`` files and report agreement with their results.

This is what ``carcassonne conformance DIR`` runs: every ``*.json`` in ``DIR`` (``index.json``
aside) is replayed by this engine with its ``result`` removed, and the final scores and winners
are compared with the ones the record states. A file agrees when both match; it disagrees when
they differ, when the record cannot be replayed (the move and reason are given), or when it
states no result to compare with. When ``index.json`` is present its expected results must
match the files' own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.engine import EngineError, replay

INDEX = "index.json"


@dataclass(frozen=True)
class Agreement:
    """The verdict on one record file: ``ok`` when the replay reproduced ``expected``
    (``{"scores": [...], "winners": [...]}``) exactly; ``got`` what the replay gave (None when
    it could not replay); ``problem`` a sentence when not ``ok``.
    """

    file: str
    ok: bool
    expected: dict[str, Any] | None
    got: dict[str, Any] | None
    problem: str = ""

    def line(self) -> str:
        """One printable line: ``ok   file  scores`` or ``FAIL file  problem``."""
        if self.ok and self.got is not None:
            return f"ok   {self.file}  scores {self.got['scores']}"
        return f"FAIL {self.file}  {self.problem}"


def check_record(name: str, record: Any) -> Agreement:
    """Replay ``record`` (the parsed JSON of file ``name``) without its result and compare."""
    if not isinstance(record, dict):
        return Agreement(name, False, None, None, "not a JSON object")
    expected = record.get("result")
    if not isinstance(expected, dict) or "scores" not in expected:
        return Agreement(name, False, None, None, "the record states no result to compare")
    plain = {k: v for k, v in record.items() if k != "result"}
    try:
        state, _ = replay(plain)
    except EngineError as exc:
        return Agreement(name, False, expected, None, f"does not replay: {exc.message}")
    got = {"scores": list(state.scores), "winners": list(state.winners)}
    problems = []
    if got["scores"] != expected["scores"]:
        problems.append(f"scores {got['scores']}, expected {expected['scores']}")
    if "winners" in expected and got["winners"] != expected["winners"]:
        problems.append(f"winners {got['winners']}, expected {expected['winners']}")
    return Agreement(name, not problems, expected, got, "; ".join(problems))


def _read(path: Path) -> tuple[Any, str]:
    """The parsed JSON of ``path`` and an empty string, or None and why it is unreadable."""
    try:
        return json.loads(path.read_text(encoding="utf-8")), ""
    except OSError as exc:
        return None, f"cannot read: {exc.strerror}"
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return None, f"not JSON: {exc}"


def _against_index(directory: Path, results: list[Agreement]) -> list[Agreement]:
    """Mark files whose result differs from (or is missing in) ``index.json``, if present."""
    index, problem = _read(directory / INDEX)
    if index is None and not (directory / INDEX).exists():
        return results
    if index is None or not isinstance(index.get("records"), list):
        return [*results, Agreement(INDEX, False, None, None, problem or "no records list")]
    listed: dict[str, Any] = {
        str(row.get("file")): row.get("result") for row in index["records"] if isinstance(row, dict)
    }
    out = []
    for a in results:
        if a.ok and a.file not in listed:
            a = Agreement(a.file, False, a.expected, a.got, "not listed in index.json")
        elif a.ok and listed[a.file] != a.expected:
            a = Agreement(a.file, False, a.expected, a.got, "its result differs from index.json")
        out.append(a)
    for file in sorted(set(listed) - {a.file for a in results}):
        out.append(Agreement(str(file), False, None, None, "listed in index.json but missing"))
    return out


def check_directory(directory: Path) -> list[Agreement]:
    """One :class:`Agreement` per record file of ``directory`` (sorted by name), checked against
    ``index.json`` when the folder has one. Raises ``NotADirectoryError`` if it is not a folder.
    """
    if not directory.is_dir():
        raise NotADirectoryError(str(directory))
    results = []
    for path in sorted(directory.glob("*.json")):
        if path.name == INDEX:
            continue
        record, problem = _read(path)
        if problem:
            results.append(Agreement(path.name, False, None, None, problem))
        else:
            results.append(check_record(path.name, record))
    return _against_index(directory, results)
