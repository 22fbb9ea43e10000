"""Real server processes: ``carcassonne serve`` (migrations, then uvicorn) on real ports."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.allocator import allocator_env, find_jemalloc
from app.settings import ROOT
from tests.support.services import *  # noqa: F403 - the backing-service fixtures
from tests.support.services import free_port
from tests.support.wait import START_TIMEOUT, wait_until


class Server:
    """One app process; ``start()`` waits until it answers HTTP."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """``ws://127.0.0.1:<port>``."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        """Run ``serve`` and wait until it answers (``START_TIMEOUT`` at most). A server that
        exits or does not answer in time is stopped before the error is raised.
        """
        code = f"from app.server import serve; serve(host='127.0.0.1', port={self.port})"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )
        try:
            wait_until(
                self._answers, timeout=START_TIMEOUT, interval=0.1, message="server did not start"
            )
        except BaseException as exc:
            self.kill()
            raise RuntimeError(f"{exc}: {self.log.read_text()[-2000:]}") from exc
        return self

    def _answers(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"server exited with {self.proc.returncode}")
        try:
            httpx.get(f"{self.url}/healthz", timeout=1)
        except httpx.HTTPError:
            return False
        return True

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM (the server drains: ``DRAIN_TIMEOUT``, 10 s at most), then SIGKILL after
        15 s.
        """
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server_env(postgres_url: str, redis_url: str, channel_prefix: str) -> dict[str, str]:
    """Environment of a server on the session's Postgres database and Redis."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        {
            "ENVIRONMENT": "test",
            "SECRET_KEY": "process-test-secret-0123456789",
            "DATABASE_URL": postgres_url,
            "REDIS_URL": redis_url,
            "CHANNEL_PREFIX": channel_prefix,
            "BOT_DELAY": "0.05",
            "BOT_POLL_INTERVAL": "0.2",
            "ACTION_RATE": "1000",
            "ACTION_BURST": "1000",
            "LOBBY_BURST": "1000",
            "REGISTRATIONS_PER_ADDRESS": "1000/minute",
            "PASSWORD_ATTEMPTS_PER_ADDRESS": "1000/minute",
            "BOT_MATCHES_PER_ADDRESS": "1000",
            "LOG_LEVEL": "warning",
        }
    )
    # The allocator `carcassonne serve` re-executes itself on (jemalloc where installed).
    return allocator_env(env, "auto", find_jemalloc()) or env


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """Collects servers started by a test and stops them afterwards."""
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


def rest(server: Server, method: str, path: str, token: str | None = None, **body: Any) -> Any:
    """One REST call; raises on a non-2xx answer."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.request(method, f"{server.url}{path}", json=body or None, headers=headers, timeout=10)
    assert r.status_code < 300, r.text
    return r.json()


def new_match(server: Server, bots: int = 0) -> tuple[str, list[str]]:
    """A started 2-player match (plus bots): ``(match_id, [token seat 0, token seat 1])``."""
    tokens = [rest(server, "POST", "/api/players", name=n)["token"] for n in ("Ann", "Ben")]
    code = rest(server, "POST", "/api/lobbies", tokens[0], seats=2 + bots)["code"]
    rest(server, "POST", f"/api/lobbies/{code}/join", tokens[1])
    for _ in range(bots):
        rest(server, "POST", f"/api/lobbies/{code}/bots", tokens[0])
    return rest(server, "POST", f"/api/lobbies/{code}/start", tokens[0])["match_id"], tokens
