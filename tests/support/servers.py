"""The one way tests and benchmarks start the app as a real process: :class:`AppServer`.

``carcassonne serve`` (migrations, then uvicorn) on a free port of 127.0.0.1, its output in a
log file, ready once it answers HTTP; stopped with SIGTERM (it drains), SIGKILL when it does not
end in time. :func:`fast_env` is the environment every test server starts from: quick computer
players and limits no test run reaches, on top of the caller's database and broker.

Imports nothing of pytest: ``benchmarks/`` use it too (they put the checkout on ``sys.path``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from app.allocator import allocator_env, find_jemalloc
from app.settings import ROOT
from tests.support.wait import START_TIMEOUT

#: Settings of every test server: fast computer players, limits a test run never reaches.
FAST_SETTINGS = {
    "BOT_DELAY": "0.05",
    "LOG_LEVEL": "warning",
    # Tests play the rest of a match over REST, faster than any person clicks.
    "ACTION_RATE": "1000",
    "ACTION_BURST": "1000",
    "LOBBY_BURST": "1000",
    "LOBBIES_PER_HOST": "1000",
    "SEEK_RATED_SAME_ADDRESS": "true",
    # Many tests register accounts, log in and start computer matches from one address.
    "REGISTRATIONS_PER_ADDRESS": "1000/minute",
    "PASSWORD_ATTEMPTS_PER_ADDRESS": "1000/minute",
    "BOT_MATCHES_PER_ADDRESS": "1000",
    # Rated matches of fresh accounts count (the guards have tests of their own).
    "RATED_MIN_ACCOUNT_AGE": "0",
    "RATED_MIN_GAMES": "0",
    "RATED_MIN_OPPONENTS": "0",
    "RATED_GAIN_PER_OPPONENT": "1000000",
}


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fast_env(
    database_url: str, redis_url: str | None = None, *, allocator: str = "auto", **overrides: str
) -> dict[str, str]:
    """This process's environment for a test server on ``database_url`` (and ``redis_url``,
    else the in-process broker) with :data:`FAST_SETTINGS` and ``overrides`` (upper-case
    setting names) on top, set up for the allocator ``serve`` would choose (``"auto"``:
    jemalloc where installed; ``"pymalloc"``: CPython's own).
    """
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(FAST_SETTINGS)
    env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    env.update(overrides)
    return allocator_env(env, allocator, find_jemalloc()) or env  # type: ignore[arg-type]


class AppServer:
    """One app process on a free port.

    ``code``: the Python that serves (default: ``app.server.serve`` on the port, which is what
    ``carcassonne serve`` runs); ``{port}`` in it is replaced by the port. ``ready_path``: the
    path that must answer, with ``ready_status`` (None: any status; ``/healthz`` answers as
    soon as the process does, 503 included while Redis is away; ``/readyz`` says 200 once the
    instance takes traffic). ``cwd``: where it runs (a SQLite ``var/`` would be created there).
    """

    def __init__(
        self,
        env: dict[str, str],
        log: Path,
        *,
        code: str | None = None,
        cwd: Path = ROOT,
        ready_path: str = "/healthz",
        ready_status: int | None = None,
        port: int | None = None,
    ) -> None:
        self.port = port or free_port()
        self.env = env
        self.log = log
        self.code = code or "from app.server import serve; serve(host='127.0.0.1', port={port})"
        self.cwd = cwd
        self.ready_path = ready_path
        self.ready_status = ready_status
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """``ws://127.0.0.1:<port>``."""
        return f"ws://127.0.0.1:{self.port}"

    def launch(self) -> AppServer:
        """Start the process (appending to the log); does not wait for it."""
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", self.code.replace("{port}", str(self.port))],
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.cwd,
            )
        return self

    def answers(self) -> bool:
        """Whether it answers ``ready_path`` now; raises RuntimeError when it has exited."""
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"server exited with {self.proc.returncode}: {self.tail()}")
        try:
            status = httpx.get(f"{self.url}{self.ready_path}", timeout=2).status_code
        except httpx.HTTPError:
            return False
        return self.ready_status is None or status == self.ready_status

    def wait_ready(self, timeout: float = START_TIMEOUT) -> AppServer:
        """Wait until it answers; stops it and raises RuntimeError (with the log's end) when it
        exits or does not answer within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        try:
            while not self.answers():
                if time.monotonic() > deadline:
                    raise RuntimeError(f"server did not answer in {timeout:g} s: {self.tail()}")
                time.sleep(0.05)
        except BaseException:
            self.kill()
            raise
        return self

    def start(self, timeout: float = START_TIMEOUT) -> AppServer:
        """:meth:`launch`, then :meth:`wait_ready`."""
        return self.launch().wait_ready(timeout)

    def tail(self, chars: int = 2000) -> str:
        """The end of its log."""
        with contextlib.suppress(OSError):
            return self.log.read_text(errors="replace")[-chars:]
        return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self, timeout: float = 15) -> None:
        """SIGTERM (the server drains: ``DRAIN_TIMEOUT``, 10 s at most), then SIGKILL after
        ``timeout`` seconds.
        """
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def running(server: AppServer, timeout: float = START_TIMEOUT) -> Iterator[AppServer]:
    """Start ``server``, yield it, stop it (also when the body raises)."""
    try:
        yield server.start(timeout)
    finally:
        server.stop()
