"""Session-wide test set-up: the shared fixtures, and what every run prints.

The fixtures live in ``tests/support/`` and are registered here for every folder: the backing
services (``services``: Postgres cloned per worker, Redis, SQLite, channel prefixes), the app in
process (``app``: settings, ``TestClient``, REST helpers), real server processes
(``processes``) and the browser (``browser.fixtures``: Chromium through Playwright).

anyio imports ``anyio._core._fileio`` lazily, on the first use of ``anyio.open_file`` (Starlette's
``FileResponse`` makes it). pytest rewrites anyio's modules (anyio is a pytest plugin), and when
that first use happens in a ``TestClient``'s portal thread, CPython 3.11's compiler may fail with
``SystemError: AST constructor recursion depth mismatch`` (seen once in each of two full runs, in
``tests/api/test_players.py::test_static_frontend_is_served``). Loading it here, in the main
thread while pytest starts, takes that compile out of the request.
"""

from __future__ import annotations

import anyio
import pytest

pytest_plugins = [
    "tests.support.services",
    "tests.support.app",
    "tests.support.processes",
    "tests.support.browser.fixtures",
]

PRELOADED = anyio.open_file


def _order(item: pytest.Item) -> int:
    """0: slow tests (real server processes, computers playing whole matches), 1: browser
    tests, 2: the rest.

    The longest come first (a process test or a browser file can take a minute or two; the
    rest take seconds), so the short ones fill the workers' last minutes evenly. A worker's
    browser is closed before its first test of the rest (``tests/support/browser/fixtures.py``).
    """
    if item.get_closest_marker("browser") is not None:
        return 1
    return 0 if item.get_closest_marker("slow") is not None else 2


def _needs_the_machine(item: pytest.Item) -> bool:
    """True for a test marked ``machine``: it kills, stops, pauses or cuts a server, Redis or
    Postgres, and the timing it checks (a crash costs no time, a drain closes with 1012) wants
    no other such test beside it. ``tests/test_layout.py`` checks the marker is where those
    calls are.
    """
    return item.get_closest_marker("machine") is not None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the run: process tests, browser tests, the rest (stable within each), and group
    it for ``--dist loadgroup``: the tests that need the machine (:func:`_needs_the_machine`)
    are one group, so they run one after another on one worker and never overlap each other; a
    browser test file goes to one worker whole (its module fixtures: servers, signed-in players,
    are set up once); every other test goes wherever a worker is free.
    """
    for item in items:  # a test that drives the browser is a browser test, marked or not
        if "browser" in getattr(item, "fixturenames", ()) and not item.get_closest_marker(
            "browser"
        ):
            item.add_marker(pytest.mark.browser)
    items.sort(key=_order)
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        if _needs_the_machine(item):
            item.add_marker(pytest.mark.xdist_group("machine"))
        elif _order(item) == 1:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.partition("::")[0]))
