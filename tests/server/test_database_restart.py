"""Postgres restarting under a running instance (a forwarder in front of it, cut for 2 s, as a
restart or failover does): requests and moves that meet it wait for it and succeed — no 500,
nothing applied twice, no traceback in the log. Before, each got a 500 ("internal") or an
"Exception in ASGI application", and the soak counted tracebacks at every Postgres restart.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.sync.client import connect

from tests.support.processes import Server, act, new_match, recv
from tests.support.proxy import TcpProxy

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.machine,
    pytest.mark.timeout(180),
]

#: Seconds the database stays out of reach.
OUTAGE = 2.0


def test_requests_and_moves_wait_for_a_database_restart(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    url = urlsplit(server_env["DATABASE_URL"])
    proxy = TcpProxy((url.hostname or "127.0.0.1", url.port or 5432))
    try:
        user = url.netloc.rpartition("@")[0]
        through = url._replace(netloc=f"{user}@127.0.0.1:{proxy.port}").geturl()
        server = Server(
            dict(server_env, DATABASE_URL=through, LOG_LEVEL="info"), tmp_path / "a.log"
        )
        servers.append(server)
        server.start()
        match_id, tokens = new_match(server)
        answers: list[tuple[str, int, float]] = []

        def call(method: str, path: str, token: str | None = None, **body: Any) -> None:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            started = time.monotonic()
            r = httpx.request(
                method, f"{server.url}{path}", json=body or None, headers=headers, timeout=30
            )
            answers.append((path, r.status_code, time.monotonic() - started))

        with connect(f"{server.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0:
            snap = recv(p0)
            proxy.cut()  # the database goes away: pooled connections die, new ones are refused
            cut = time.monotonic()
            calls = [
                threading.Thread(target=call, args=("GET", "/api/lobbies")),
                threading.Thread(
                    target=call, args=("POST", "/api/players"), kwargs={"name": "Cat"}
                ),
                threading.Thread(target=call, args=("GET", f"/api/matches/{match_id}")),
            ]
            for thread in calls:
                thread.start()
            act(p0, snap["d"]["state"], 0, "during-the-restart")
            time.sleep(OUTAGE)
            proxy.resume()
            for thread in calls:
                thread.join(30)
            frame = recv(p0, timeout=20)
            print(
                f"\nmove applied {time.monotonic() - cut:.2f} s after the cut; requests: "
                + ", ".join(f"{p} {s} in {t:.2f} s" for p, s, t in answers)
            )
            assert frame["t"] == "events" and frame["v"] == 1, frame
        assert sorted(s for _, s, _ in answers) == [200, 200, 201], answers
        match = httpx.get(f"{server.url}/api/matches/{match_id}", timeout=10).json()
        assert match["version"] == 1  # applied once
        log = server.log.read_text()
        assert "Traceback" not in log and '" 500' not in log, log[-3000:]
        assert json.dumps(match["state"]["phase"])
    finally:
        proxy.close()
