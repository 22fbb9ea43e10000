"""The suite's own layout, checked: tests sit by feature, browser and process tests say so in
their names and markers, and servers are started from one place.

- Every folder of ``tests/`` is a feature of ``app/services/`` or one of :data:`OTHER_FOLDERS`,
  and every feature of ``app/services/`` has its folder.
- No test module sits at the top of ``tests/`` but this one.
- ``test_*_browser.py`` modules (and those of ``tests/browser/``) carry the ``browser`` marker;
  no other module asks for the ``browser`` fixture.
- ``test_*_processes.py`` modules carry the ``slow`` marker (they run first: see
  ``tests/conftest.py``).
- A module that starts app servers and kills, stops, pauses or cuts one of them, or Redis or
  Postgres under them, carries the ``machine`` marker (those tests run one after another on
  one worker); no other module does.
- ``--dist loadgroup`` keeps an ``xdist_group`` on one worker (pytest 9.2 renamed the node id
  attribute pytest-xdist 3.8 writes the group into, and every test went anywhere; pinned below
  9.2 in ``pyproject.toml`` until pytest-xdist follows).
- Only ``tests/support/servers.py`` starts ``app.server``/``carcassonne serve`` processes
  (``subprocess.Popen`` beside ``serve``), in ``tests/`` and ``benchmarks/`` alike.

And the app's own shape:

- No folder of ``app/`` or ``frontend/js/`` holds more than twelve modules directly; every
  relative import of the client names a file.
- No function of ``app/`` is longer than 80 lines or takes more than six positional
  parameters.
- Use-case modules of ``app/services/`` build no SQL (their feature's queries modules do).
- ``docs/ARCHITECTURE.md`` names only folders, modules and paths that exist.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.settings import ROOT

TESTS = ROOT / "tests"
#: Folders of ``tests/`` that are not a service feature, and what each holds.
OTHER_FOLDERS = {
    "api": "the HTTP shell: schema-driven fuzzing, bodies, static files, error shapes",
    "bots": "the computer players",
    "browser": "the client as a whole: every screen, languages, themes",
    "budget": "what a move costs: statements, commits, WAL, HOT updates, objects",
    "conformance": "the published record corpus",
    "db": "migrations, group commit, the read replica",
    "engine": "the rules",
    "examples": "examples/",
    "instance": "instance-wide parts: health, metrics, settings, monitoring files",
    "realtime": "brokers, hubs, the wire protocol",
    "server": "whole instances as processes: drain, SIGKILL, Redis Cluster, the soak",
    "structure": "the app's own shape: the expansion seam, the typed domain's budget",
    "support": "fixtures and helpers (no tests)",
}


#: Packages of app/services/ that are no feature: the instance's own parts, tested in the
#: tests/ folder named here.
INSTANCE_PACKAGES = {"runtime": "instance"}


def _features() -> set[str]:
    services = ROOT / "app" / "services"
    packages = {p.name for p in services.iterdir() if (p / "__init__.py").exists()}
    assert all((TESTS / folder).is_dir() for folder in INSTANCE_PACKAGES.values())
    return packages - set(INSTANCE_PACKAGES)


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "support" not in p.parts)


def test_every_folder_is_a_feature_or_a_known_part() -> None:
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__"}
    unknown = folders - _features() - set(OTHER_FOLDERS)
    assert not unknown, f"tests/ folders that are no feature of app/services/: {unknown}"
    missing = _features() - folders
    assert not missing, f"app/services/ features without a tests/ folder: {missing}"


def test_no_test_module_at_the_top() -> None:
    top = [p.name for p in TESTS.glob("test_*.py") if p.name != "test_layout.py"]
    assert top == [], f"put these in their feature's folder: {top}"


def test_browser_tests_are_named_and_marked() -> None:
    wrong = []
    for path in _modules():
        text = path.read_text()
        named = path.name.endswith("_browser.py") or path.parent.name == "browser"
        marked = "pytest.mark.browser" in text
        asks = re.search(r"def test_\w+\([^)]*\bbrowser\b", text) is not None
        if named and path.parent.name != "browser" and not marked:
            wrong.append(f"{path.relative_to(ROOT)}: named a browser test, not marked")
        if asks and not (named and marked):
            wrong.append(f"{path.relative_to(ROOT)}: drives the browser, not *_browser.py")
    assert wrong == []


def test_process_tests_are_marked_slow() -> None:
    unmarked = [
        str(p.relative_to(ROOT))
        for p in _modules()
        if p.name.endswith("_processes.py") and "pytest.mark.slow" not in p.read_text()
    ]
    assert unmarked == []


#: What a test that disrupts real processes calls: SIGKILL (``kill``), a drain (SIGTERM), a cut
#: connection (``cut``), a Redis of its own to pause or stop, a Postgres of its own to restart,
#: a client stopped (SIGSTOP).
DISRUPTIONS = re.compile(r"\.kill\(|\.cut\(\)|private_redis|SIGSTOP|SIGTERM|--postgres")
#: Modules that start app servers as processes (themselves, or through a benchmark's run).
STARTS_SERVERS = re.compile(r"from tests\.support\.(processes|servers) import|\"benchmarks/")


def test_tests_that_disrupt_processes_are_marked_machine() -> None:
    marked, disrupting = set(), set()
    for p in _modules():
        if p.name == "test_layout.py":
            continue
        text = p.read_text()
        name = str(p.relative_to(ROOT))
        if "pytest.mark.machine" in text:
            marked.add(name)
        if STARTS_SERVERS.search(text) and DISRUPTIONS.search(text):
            disrupting.add(name)
    assert sorted(disrupting - marked) == [], "disrupts processes, not marked machine"
    assert sorted(marked - disrupting) == [], "marked machine, disrupts nothing"


def _popen_calls(text: str) -> list[str]:
    """The text of every ``Popen(...)`` call (up to its closing parenthesis)."""
    calls = []
    for start in (m.end() for m in re.finditer(r"Popen\(", text)):
        depth, end = 1, start
        while depth and end < len(text):
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        calls.append(text[start:end])
    return calls


def test_servers_are_started_from_one_place() -> None:
    starter = TESTS / "support" / "servers.py"
    places = []
    for path in sorted([*TESTS.rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]):
        if path == starter:
            continue
        text = path.read_text()
        runs_code = any(
            re.search(r"sys\.executable,\s*\"-c\"|\"app\.cli\"|carcassonne|\bserve\b", call)
            for call in _popen_calls(text)
        )
        if runs_code and re.search(r"app\.server import serve|\bserve\b", text):
            places.append(str(path.relative_to(ROOT)))
    assert places == [], f"start servers with tests/support/servers.py: {places}"


def _crowded(top: Path, suffix: str) -> dict[str, int]:
    """``{folder: modules}`` for the folders under ``top`` (itself included) holding more than
    twelve ``suffix`` modules directly (``__init__.py`` not counted).
    """
    crowded = {}
    for folder in [top, *top.rglob("*")]:
        if folder.is_dir() and folder.name != "__pycache__":
            modules = [p for p in folder.glob(f"*{suffix}") if p.name != "__init__.py"]
            if len(modules) > 12:
                crowded[str(folder.relative_to(ROOT))] = len(modules)
    return crowded


def test_no_app_folder_holds_more_than_twelve_modules() -> None:
    """A folder past a dozen modules is asking to be grouped by what its modules do."""
    crowded = _crowded(ROOT / "app", ".py")
    assert not crowded, f"group these by what their modules do: {crowded}"


def test_no_client_folder_holds_more_than_twelve_modules() -> None:
    """The same rule for the client (``frontend/js``: widgets by what they serve, the message
    catalogue by language).
    """
    crowded = _crowded(ROOT / "frontend" / "js", ".js")
    assert not crowded, f"group these by what their modules do: {crowded}"


CLIENT_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)['"](\.{1,2}/[^'"]+)['"]""", re.M
)


def test_every_client_import_names_a_file() -> None:
    """Every relative ``import`` (static or ``import()``) in ``frontend/js`` names a file that
    exists: a moved module with a forgotten importer fails here, not in a person's browser.
    """
    client = ROOT / "frontend" / "js"
    missing = []
    for module in sorted(client.rglob("*.js")):
        for spec in CLIENT_IMPORT.findall(module.read_text(encoding="utf-8")):
            if not (module.parent / spec).resolve().is_file():
                missing.append(f"{module.relative_to(ROOT)}: {spec}")
    assert len(list(client.rglob("*.js"))) > 50
    assert missing == [], missing


GROUPED_SUITE = {
    "test_grouped.py": (
        "import os, time, pytest\n"
        "pytestmark = pytest.mark.xdist_group('file')\n"
        + "".join(
            f"def test_{n}():\n    time.sleep(0.2)\n"
            f"    with open('{n}.worker', 'w') as f: f.write(os.environ['PYTEST_XDIST_WORKER'])\n"
            for n in "abcd"
        )
    ),
    "test_free.py": "".join(f"def test_{n}():\n    __import__('time').sleep(0.2)\n" for n in "wx"),
}


@pytest.mark.slow  # two worker processes of its own: left out of make test-fast
def test_an_xdist_group_runs_on_one_worker(tmp_path: Path) -> None:
    """What ``tests/conftest.py`` relies on for a browser file's servers: the group is honoured."""
    for name, text in GROUPED_SUITE.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "conftest.py").write_text("")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q"]
        + ["-p", "no:cacheprovider", "-p", "no:randomly", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    workers = {p.read_text() for p in tmp_path.glob("*.worker")}
    assert len(workers) == 1, f"one group ran on {sorted(workers)}"


ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
LAYOUT_ITEM = re.compile(r"^(\s*)- `([^`]+/)` — (.*)$")
LAYOUT_TOKEN = re.compile(r"`([^`]+)`|[()]")
MODULE_NAME = re.compile(r"[A-Za-z_][\w.]*/?")


def _layout_items() -> list[tuple[Path, str]]:
    """``(folder, text)`` of each entry of docs/ARCHITECTURE.md's "The layout" list, nested
    entries resolved against their parents.
    """
    section = ARCHITECTURE.read_text(encoding="utf-8").split("## The layout", 1)[1]
    section = section.split("\n## ", 1)[0]
    items: list[tuple[Path, str]] = []
    parents: list[tuple[int, Path]] = []
    for line in section.splitlines():
        item = LAYOUT_ITEM.match(line)
        if item:
            indent = len(item.group(1))
            while parents and parents[-1][0] >= indent:
                parents.pop()
            folder = (parents[-1][1] if parents else ROOT) / item.group(2)
            parents.append((indent, folder))
            items.append((folder, item.group(3)))
        elif items and line.startswith(" ") and line.strip():
            items[-1] = (items[-1][0], f"{items[-1][1]} {line.strip()}")
    return items


def _named(folder: Path, text: str) -> list[tuple[Path, str]]:
    """Each module name in backticks in ``text`` with the folder it must be in: a name after a
    ``sub/`` and inside the parentheses that follow it belongs to ``sub/``.
    """
    stack, pending, depth, out = [(folder, -1)], "", 0, []
    for token in LAYOUT_TOKEN.finditer(text):
        if token.group(0) == "(":
            depth += 1
            if pending:
                stack.append((stack[-1][0] / pending, depth))
            pending = ""
        elif token.group(0) == ")":
            if stack[-1][1] == depth:
                stack.pop()
            depth -= 1
            pending = ""
        elif MODULE_NAME.fullmatch(token.group(1)):
            out.append((stack[-1][0], token.group(1)))
            pending = token.group(1) if token.group(1).endswith("/") else ""
    return out


def _exists(folder: Path, name: str) -> bool:
    if name.endswith("/"):
        return (folder / name).is_dir()
    return any((folder / f"{name}{suffix}").is_file() for suffix in ("", ".py", ".js"))


def test_the_architecture_layout_names_only_what_exists() -> None:
    """docs/ARCHITECTURE.md's layout: every folder it lists exists, and every module name in
    backticks under a folder is a module or folder directly in it.
    """
    items = _layout_items()
    assert len(items) >= 25, len(items)
    missing = [str(folder.relative_to(ROOT)) for folder, _ in items if not folder.is_dir()]
    for folder, text in items:
        for where, name in _named(folder, text):
            if not _exists(where, name):
                missing.append(f"{where.relative_to(ROOT)}/{name}")
    assert missing == [], f"docs/ARCHITECTURE.md names what does not exist: {missing}"


DOC_PATH = re.compile(r"`((?:app|frontend|tests|migrations|benchmarks|docs)/[^`<>{}*\s]+)`")


def test_the_architecture_paths_exist() -> None:
    """Every repository path in backticks anywhere in docs/ARCHITECTURE.md exists."""
    paths = DOC_PATH.findall(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(paths) >= 10
    missing = [p for p in paths if not (ROOT / p.rstrip("/")).exists()]
    assert missing == [], f"docs/ARCHITECTURE.md names what does not exist: {missing}"


def _functions(top: Path) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """``(where, node)`` of every function and method under ``top``."""
    for path in sorted(top.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield f"{path.relative_to(ROOT)}:{node.lineno} {node.name}", node


def test_no_app_function_is_longer_than_eighty_lines() -> None:
    """A function past 80 lines (``def`` to its last line) is asking to be split by what it
    does.
    """
    long = {
        where: node.end_lineno - node.lineno + 1
        for where, node in _functions(ROOT / "app")
        if node.end_lineno is not None and node.end_lineno - node.lineno + 1 > 80
    }
    assert long == {}, f"split these by what they do: {long}"


def test_no_app_function_takes_more_than_six_positional_parameters() -> None:
    """Past six, a call site's meaning hangs on the order: the rest are keyword-only (after
    ``*``), or the values belong together in a type. ``self`` and ``cls`` do not count.
    """
    crowded = {}
    for where, node in _functions(ROOT / "app"):
        positional = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        if positional[:1] in (["self"], ["cls"]):
            positional = positional[1:]
        if len(positional) > 6:
            crowded[where] = len(positional)
    assert crowded == {}, f"make the rest keyword-only: {crowded}"


#: What a use-case module may take from SQLAlchemy: its errors, the connection type and the
#: event hooks (the statement counter of app/services/instance_metrics.py) — no SQL builder.
SQLALCHEMY_FOR_USE_CASES = {"sqlalchemy.exc", "sqlalchemy.ext.asyncio", "sqlalchemy.event"}
TABLE_MODULES = {"app.db.models", "app.db.community", "app.db.platform", "app.db.tournaments"}
TABLE_MODULES |= {"app.db.analyses", "app.db.push"}


def _is_queries(path: Path) -> bool:
    return path.stem == "queries" or path.stem.endswith("_queries")


def test_use_case_modules_build_no_sql() -> None:
    """The SQL of a feature sits in its queries modules (``queries.py``, ``*_queries.py``): a
    use-case module of ``app/services/`` imports no SQLAlchemy statement builder and no table.
    """
    found = []
    for path in sorted((ROOT / "app" / "services").rglob("*.py")):
        if _is_queries(path):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [f"{node.module}.{a.name}" for a in node.names]
            for name in names:
                module, _, leaf = name.rpartition(".")
                builder = name.startswith("sqlalchemy") and not any(
                    name == ok or name.startswith(f"{ok}.") for ok in SQLALCHEMY_FOR_USE_CASES
                )
                table = module in TABLE_MODULES and leaf != "utcnow"
                if builder or table:
                    found.append(f"{path.relative_to(ROOT)}: {name}")
    assert found == [], f"move the SQL to the feature's queries module: {found}"
