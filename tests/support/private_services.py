"""A Redis server of one test's own, for tests that stop, pause or kill it.

``CLIENT PAUSE`` or a SIGKILL of Redis would cut off every other test using the machine's
server (the suite runs in parallel), so such tests start :class:`PrivateRedis`
(``redis-server`` on a free port, nothing persisted). The tests that restart Postgres run
``benchmarks/soak.py --postgres private`` (``initdb`` into a temporary folder): nothing restarts
the machine's cluster.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.servers import free_port
from tests.support.wait import START_TIMEOUT, wait_until


class PrivateRedis:
    """A ``redis-server`` of this test's own (``url``); ``start``/``stop`` as often as wanted
    (the port stays the same).
    """

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> PrivateRedis:
        """Start it and wait until it answers PING (FileNotFoundError without redis-server)."""
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        argv += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        proc = self.proc

        def answers() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"the private redis-server exited with {proc.returncode}")
            return self.ping()

        try:
            wait_until(answers, timeout=START_TIMEOUT, message="the private redis-server")
        except BaseException:
            self.stop()
            raise
        return self

    def ping(self) -> bool:
        """Whether it answers PING now."""
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.2)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        """SIGKILL (nothing is persisted anyway)."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)
            self.proc = None
