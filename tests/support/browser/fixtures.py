"""Fixtures for the browser tests: a real ``carcassonne serve`` on a free port with a temporary
SQLite database, and Debian's Chromium driven by Playwright, one per worker.

``playwright install`` is never used: the browser is ``/usr/bin/chromium`` (override with
``CHROMIUM``). Without it the tests are skipped — except under ``CI=true``, where a missing
browser (or Playwright) fails them, so CI can never pass by skipping.

Contexts ask for reduced motion (``prefers-reduced-motion: reduce``, which the client honours:
no glowing cells, pulsing edges or sliding drawers) unless a test asks otherwise: the endless
animations of two or three pages cost a third of a whole match's CPU, on a machine whose
workers share two cores, and waiting for a transition to end is no part of what a test checks.

One Chromium per worker: Playwright's sync API keeps an event loop marked as running on this
thread while it lives, which would break the asyncio tests after it. So the suite runs the
browser tests together (``tests/conftest.py`` orders them), the browser is started by the first
of them and kept, and this plugin's ``pytest_runtest_setup`` closes it before a test without it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.settings import ROOT
from tests.support.servers import AppServer, fast_env, running
from tests.support.services import migrated_sqlite, unavailable

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _unavailable(reason: str) -> None:
    """Fail under CI=true, skip elsewhere (the one rule for every missing service)."""
    unavailable("Chromium for the browser tests", reason)


@contextlib.contextmanager
def running_server(work: Path, **env_overrides: str) -> Iterator[str]:
    """Run ``carcassonne serve`` on a free port in ``work`` (a SQLite file there, copied from
    the migrated template; in-process broker, fast bots) with ``env_overrides`` on top; yields
    its base URL.
    """
    database = work / "browser.db"
    shutil.copyfile(migrated_sqlite(), database)
    env = fast_env(
        f"sqlite+aiosqlite:///{database}", None, **{"ENVIRONMENT": "development", **env_overrides}
    )
    with running(AppServer(env, work / "server.log", cwd=work, ready_path="/api/presets")) as s:
        yield s.url


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a fresh server (embedded defaults: SQLite file, in-process broker)."""
    with running_server(tmp_path_factory.mktemp("server")) as base:
        yield base


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a server for one test module alone: for a screen whose lists (public tables,
    live matches, tournaments) must hold only what that module made — on the worker's shared
    :func:`server` they hold whatever other modules left there.
    """
    with running_server(tmp_path_factory.mktemp("own-server")) as base:
        yield base


class _Chromium:
    """The worker's Playwright and Chromium, started on first use."""

    playwright: Any = None
    manager: Any = None
    browser: Any = None

    @classmethod
    def get(cls) -> Any:
        if cls.browser is None:
            try:
                from playwright.sync_api import sync_playwright
            except ImportError:
                _unavailable("playwright is not installed (pip install -e '.[dev]')")
            if not Path(CHROMIUM).exists():
                _unavailable(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")
            cls.manager = sync_playwright()
            cls.playwright = cls.manager.__enter__()
            cls.browser = cls.playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
        return cls.browser

    @classmethod
    def close(cls) -> None:
        if cls.manager is None:
            return
        try:
            with contextlib.suppress(Exception):
                cls.browser.close()
        finally:
            cls.manager.__exit__(None, None, None)
            cls.manager = cls.playwright = cls.browser = None


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Close the worker's browser before a test that does not use it."""
    if "browser" not in getattr(item, "fixturenames", ()):
        _Chromium.close()


class _Browser:
    """The worker's browser as tests see it: every attribute is the live Chromium's, started
    again if it was closed for a test without it.
    """

    def __getattr__(self, name: str) -> Any:
        return getattr(_Chromium.get(), name)

    def new_context(self, **options: Any) -> Any:
        """A new context, asking for reduced motion unless the test says otherwise
        (``reduced_motion="no-preference"``).
        """
        options.setdefault("reduced_motion", "reduce")
        return _Chromium.get().new_context(**options)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless: one per worker, shared by its browser tests (each makes
    its own contexts and closes them).
    """
    yield _Browser()
    _Chromium.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (``test-artifacts/``, git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
