"""Fixtures for the browser tests: a real ``carcassonne serve`` on a free port with a temporary
SQLite database, and Debian's Chromium driven by Playwright.

``playwright install`` is never used: the browser is ``/usr/bin/chromium`` (override with
``CHROMIUM``). Without it the tests are skipped — except under ``CI=true``, where a missing
browser (or Playwright) fails them, so CI can never pass by skipping.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.services import unavailable
from tests.support.wait import START_TIMEOUT

ROOT = Path(__file__).resolve().parents[2]
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve_command(port: int) -> list[str]:
    script = Path(sys.executable).parent / "carcassonne"
    if script.exists():
        return [str(script), "serve", "--host", "127.0.0.1", "--port", str(port)]
    found = shutil.which("carcassonne")
    if found:
        return [found, "serve", "--host", "127.0.0.1", "--port", str(port)]
    return [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]


@contextlib.contextmanager
def running_server(work: Path, **env_overrides: str) -> Iterator[str]:
    """Run ``carcassonne serve`` on a free port in ``work`` (a SQLite file there, in-process
    broker, fast bots) with ``env_overrides`` on top; yields its base URL.
    """
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{work / 'browser.db'}",
        "ENVIRONMENT": "development",
        "BOT_DELAY": "0.05",
        "LOG_LEVEL": "warning",
        # Some tests play the rest of a match over REST, faster than any person clicks.
        "ACTION_RATE": "1000",
        "ACTION_BURST": "1000",
        # Many tests register accounts and log in from this one address.
        "REGISTRATIONS_PER_ADDRESS": "1000/minute",
        "PASSWORD_ATTEMPTS_PER_ADDRESS": "1000/minute",
        "BOT_MATCHES_PER_ADDRESS": "1000",
        **env_overrides,
    }
    env.pop("REDIS_URL", None)
    log_path = work / "server.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        _serve_command(port), cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited early:\n{log_path.read_text()}")
            try:
                if httpx.get(f"{base}/api/presets", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"server did not start:\n{log_path.read_text()}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a fresh server (embedded defaults: SQLite file, in-process broker)."""
    with running_server(tmp_path_factory.mktemp("server")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless. Module-scoped: Playwright's sync API runs an event loop on
    this thread while it lives, which must be gone before other packages' asyncio tests.
    """
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[dev]')")
    if not Path(CHROMIUM).exists():
        _unavailable(f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots go (``test-artifacts/``, git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
