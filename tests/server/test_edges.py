"""A real server's edges: forwarded headers, shared limits, secrets in logs, slow headers."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.support.processes import Server, new_match

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(300)]


def _new_guest(server: Server, forwarded_for: str | None = None) -> int:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    r = httpx.post(f"{server.url}/api/players", json={"name": "Ann"}, headers=headers, timeout=10)
    return r.status_code


def test_forwarded_for_is_believed_only_from_the_configured_proxy(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    limits = {"PLAYER_BURST": "3", "PLAYER_RATE_PER_MINUTE": "0.5"}
    direct = Server(
        {**server_env, **limits, "FORWARDED_ALLOW_IPS": "10.9.9.9"}, tmp_path / "direct.log"
    ).start()
    servers.append(direct)
    # A client that is not the proxy cannot pose as other addresses to dodge the limit.
    statuses = [_new_guest(direct, f"203.0.113.{i}") for i in range(5)]
    assert statuses == [201, 201, 201, 429, 429]
    # Behind the configured proxy (here: us), each forwarded address has its own allowance.
    proxied = Server(
        {**server_env, **limits, "FORWARDED_ALLOW_IPS": "127.0.0.1"}, tmp_path / "proxied.log"
    ).start()
    servers.append(proxied)
    assert [_new_guest(proxied, f"198.51.100.{i}") for i in range(5)] == [201] * 5


def test_rate_limits_are_shared_by_the_instances(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    limits = {"PLAYER_BURST": "4", "PLAYER_RATE_PER_MINUTE": "0.5"}
    a = Server({**server_env, **limits}, tmp_path / "a.log").start()
    b = Server({**server_env, **limits}, tmp_path / "b.log").start()
    servers += [a, b]
    address = "192.0.2.77"  # both trust us as their proxy: one address on both instances
    assert [
        _new_guest(a, address),
        _new_guest(b, address),
        _new_guest(a, address),
        _new_guest(b, address),
        _new_guest(a, address),
        _new_guest(b, address),
    ] == [201, 201, 201, 201, 429, 429]


def test_tokens_stay_out_of_the_logs(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    server = Server({**server_env, "LOG_LEVEL": "info"}, log).start()
    servers.append(server)
    match_id, tokens = new_match(server)
    secret = tokens[0]
    httpx.get(f"{server.url}/api/me?token={secret}", timeout=10)
    with connect(f"{server.ws}/ws/matches/{match_id}?token={secret}&code=abc") as ws:
        ws.recv(timeout=10)
    with connect(f"{server.ws}/ws/lobbies/nosuchlobby?token={secret}") as ws:
        ws.recv(timeout=10)
    time.sleep(0.5)
    text = log.read_text()
    assert f"/ws/matches/{match_id}" in text  # the access log is on ...
    assert secret not in text and secret[:20] not in text  # ... and holds no token
    assert "token=***" in text


def test_json_logs_carry_the_context_and_no_token(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    """``LOG_JSON``: every line one JSON object (time, level, instance, ...); the access log
    too, with the request id, match and player of its request; no token in any line.
    """
    log = tmp_path / "server.log"
    env = {**server_env, "LOG_LEVEL": "info", "LOG_JSON": "true"}
    server = Server(env, log).start()
    servers.append(server)
    match_id, tokens = new_match(server)
    secret = tokens[0]
    me = httpx.get(
        f"{server.url}/api/matches/{match_id}",
        headers={"Authorization": f"Bearer {secret}", "X-Request-ID": "req-42"},
        timeout=10,
    )
    assert me.status_code == 200 and me.headers["x-request-id"] == "req-42"
    player = httpx.get(
        f"{server.url}/api/me", headers={"Authorization": f"Bearer {secret}"}, timeout=10
    ).json()["id"]
    httpx.get(f"{server.url}/api/me?token={secret}", timeout=10)
    with connect(f"{server.ws}/ws/matches/{match_id}?token={secret}&code=abc") as ws:
        ws.recv(timeout=10)
    time.sleep(0.5)
    text = log.read_text()
    assert secret not in text and secret[:20] not in text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert lines and all(
        {"time", "level", "logger", "message", "instance"} <= set(x) for x in lines
    )
    access = [x for x in lines if x["logger"] == "uvicorn.access"]
    mine = [x for x in access if x.get("request_id") == "req-42"]
    assert mine and mine[0]["match_id"] == match_id and mine[0]["player_id"] == player
    assert mine[0]["method"] == "GET" and mine[0]["status"] == 200
    assert any("token=***" in x["message"] for x in lines)


def test_slow_headers_are_cut_off(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    server = Server({**server_env, "HEADER_TIMEOUT": "1"}, tmp_path / "server.log").start()
    servers.append(server)
    silent = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    drip = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        drip.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < 6:  # one header line every 0.3 s, never the end
            try:
                drip.sendall(b"X-a: b\r\n")
            except OSError:
                closed = True
                break
            drip.settimeout(0.3)
            try:
                if drip.recv(1024) == b"":
                    closed = True
                    break
            except TimeoutError:
                pass
        assert closed, "a client dripping headers kept its connection"
        assert time.monotonic() - started < 4
        silent.settimeout(5)
        assert silent.recv(1024) == b""  # a client that sends nothing is closed too
    finally:
        silent.close()
        drip.close()
    assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200
