"""The expansion seam reaches the edge: the services and the computer players name no expansion.

They ask the engine's generic verbs instead (:func:`app.engine.deciding`,
:func:`app.engine.is_decision`, :func:`app.engine.record_decisions`,
:func:`app.engine.preferred_decisions`, :func:`app.engine.held_points`,
:func:`app.engine.draw_stage`, :func:`app.engine.replay_keys`), so a new expansion is a folder of
the engine (and of the client) and nothing else. Checked on the code itself: every identifier,
imported name and string of ``app/services/`` and ``app/bots/`` (docstrings and comments aside:
they may give an example) against each expansion's id, the first word of its id, its phases and
its decision actions. The import-linter contract "Services and bots reach an expansion only
through the engine's verbs" (pyproject.toml) forbids the imports as well.

Inside the engine, the tile catalogue (``app/engine/tiles/``) and the rule options
(``app/engine/options.py``) name no expansion either: each expansion owns its tile table and
declares how it combines with others, and the registry (:mod:`app.engine.expansions`) adds the
one to the catalogue and checks the other. One exception, by whole identifier: the river as a
*feature* of the tile notation (:data:`RIVER_FEATURE`: the segment kind ``river``, its edge, a
tile's river sides and the catalogue's ``river`` flag the client reads), which the catalogue
parses as it parses cities and roads.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from app.engine import EXPANSIONS
from app.settings import ROOT

#: Where no expansion may be named.
EDGE = ("app/services", "app/bots")
#: The parts of the base game that must know of the expansions before a game starts, and ask
#: the registry instead of naming one.
CORE = ("app/engine/tiles", "app/engine/options.py")
#: The river as a feature of the tile notation (segment kind, edge code, river sides, the
#: catalogue's per-tile flag): whole identifiers and strings the catalogue may use.
RIVER_FEATURE = frozenset({"RIVER", "RIVER_EDGE", "river", "river_sides"})


def _names_of_expansions() -> set[str]:
    names: set[str] = set()
    for x in EXPANSIONS:
        names |= {x.id, x.id.split("_")[0], *x.phases}
        names |= {t.__name__.lower() for t in x.decision_types}
    return names


def _words(text: str) -> set[str]:
    """``text`` lower-cased and split into words at non-letters, ``_`` and camel-case humps,
    plus each whole identifier-like run (``wheel_of_fortune`` stays a word too).
    """
    runs = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    out = {r.lower().strip("_") for r in runs}
    for run in runs:
        out |= {w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", run)}
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def _code_words(path: Path) -> Iterator[tuple[int, str]]:
    """``(line, text)`` of every identifier, imported name and non-docstring string."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            yield line, node.arg
        elif isinstance(node, ast.alias):
            yield line, f"{node.name} {node.asname or ''}"
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield line, node.module
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield line, "" if id(node) in skip else node.value


def test_the_names_are_found() -> None:
    """The check sees what it looks for (a check that finds nothing proves nothing)."""
    names = _names_of_expansions()
    assert {"river", "wheel", "wheel_of_fortune", "plague", "removefollower"} <= names
    assert "wheel" in _words("from app.engine.expansions import wheel_of_fortune as w")
    assert "plague" in _words("state.phase == PLAGUE")
    assert "removefollower" in _words("isinstance(a, RemoveFollower)")
    assert "river" not in _words("driver")


def test_services_and_bots_name_no_expansion() -> None:
    names = _names_of_expansions()
    found = []
    for folder in EDGE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line, text in _code_words(path):
                hits = _words(text) & names
                if hits:
                    found.append(f"{path.relative_to(ROOT)}:{line}: {sorted(hits)}")
    assert found == [], (
        "ask the engine's generic verbs (deciding, is_decision, record_decisions, "
        f"preferred_decisions, held_points, draw_stage, replay_keys) instead: {found}"
    )


def test_the_catalogue_and_the_options_name_no_expansion() -> None:
    """The tile catalogue and the rule options hold no expansion's tiles, ids or keys: the River's
    and the Wheel of Fortune's tables are in their own folders, the rules JSON's ``tileset`` and
    ``river`` are written and read by the registry.
    """
    names = _names_of_expansions()
    assert "river" in _words("RIVER_TILES") and "wheel" in _words("wheel_cell_id")
    found = []
    for folder in CORE:
        root = ROOT / folder
        for path in sorted(root.rglob("*.py") if root.is_dir() else [root]):
            for line, text in _code_words(path):
                if text in RIVER_FEATURE:
                    continue
                hits = _words(text) & names
                if hits:
                    found.append(f"{path.relative_to(ROOT)}:{line}: {sorted(hits)}")
    assert found == [], (
        "give the expansion's tile table or rule to the expansion (its tile_types, "
        f"replaces_base, base_tiles_only, excludes, rules_flag) instead: {found}"
    )
