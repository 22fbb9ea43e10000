"""The bot event stream on real server processes (docs/BOT_API.md § The event stream): an idle
stream sends its headers at once and a keep-alive line well inside httpx's default 5 s read
timeout (before: no headers for 10 s, so a bot with httpx's defaults timed out); a stream
opened with an API token ends when the token is revoked, or its account deleted, on another
instance, and never delivers an event after that (before: it stayed open and delivered the
next invitation, with its private lobby code, 0.31 s after the revocation).
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.processes import Server, rest

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(120)]
PASSWORD = "correct horse battery"
#: What the reader thread puts last: the stream ended (cleanly or not).
ENDED = "ended"


def account(server: Server, stem: str) -> tuple[str, str]:
    """A fresh account: ``(player id, session token)``."""
    body = rest(
        server,
        "POST",
        "/api/accounts",
        username=f"{stem}{secrets.token_hex(3)}",
        password=PASSWORD,
    )
    return body["account"]["id"], body["token"]


def bot_account(server: Server) -> tuple[str, str, str, str]:
    """A fresh bot account: ``(id, session token, API token with play, the API token's id)``."""
    bot, session = account(server, "bot")
    rest(server, "POST", "/api/me/bot", session)
    made = rest(server, "POST", "/api/me/tokens", session, name="bot", scopes=["play"])
    return bot, session, made["token"], made["api_token"]["id"]


def read_stream(
    server: Server, token: str, timeout: httpx.Timeout, out: queue.Queue[tuple[float, str]]
) -> None:
    """Read the event stream: ``(time, line)`` per line (``""`` for a keep-alive,
    ``"headers <status>"`` first), then ``(time, ENDED + reason)``.
    """
    try:
        with httpx.stream(
            "GET",
            f"{server.url}/api/bot/stream",
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        ) as r:
            out.put((time.monotonic(), f"headers {r.status_code}"))
            for line in r.iter_lines():
                out.put((time.monotonic(), line))
        out.put((time.monotonic(), ENDED))
    except Exception as exc:  # a read timeout, a reset: the test names it
        out.put((time.monotonic(), f"{ENDED} {type(exc).__name__}: {exc}"))


def start_reading(
    server: Server, token: str, timeout: float = 5.0
) -> queue.Queue[tuple[float, str]]:
    """The lines of a stream read on a thread of its own (it ends with the stream);
    ``timeout``: httpx's timeouts (5 s: its defaults).
    """
    lines: queue.Queue[tuple[float, str]] = queue.Queue()
    args = (server, token, httpx.Timeout(timeout), lines)
    threading.Thread(target=read_stream, args=args, daemon=True).start()
    return lines


def until_ended(lines: queue.Queue[tuple[float, str]], within: float) -> list[tuple[float, str]]:
    """Every line until the stream ends (fails past ``within`` seconds)."""
    seen: list[tuple[float, str]] = []
    deadline = time.monotonic() + within
    while True:
        try:
            item = lines.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"the stream is still open after {within} s: {seen}") from None
        seen.append(item)
        if item[1].startswith(ENDED):
            return seen


def events(seen: list[tuple[float, str]]) -> list[dict[str, Any]]:
    """The event lines among what a reader saw."""
    return [json.loads(line) for _, line in seen if line.startswith("{")]


def test_an_idle_stream_answers_at_once_and_keeps_alive_under_5_s(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    a = Server(server_env, tmp_path / "a.log")
    servers.append(a)
    a.start()
    _, _, token, _ = bot_account(a)
    opened = time.monotonic()
    lines = start_reading(a, token)
    seen: list[tuple[float, str]] = []
    while time.monotonic() - opened < 12:
        item = lines.get(timeout=15)
        seen.append(item)
        assert not item[1].startswith(ENDED), seen
    assert seen[0][1] == "headers 200"
    print(f"\nheaders after {seen[0][0] - opened:.2f} s")
    assert seen[0][0] - opened < 2
    times = [opened] + [t for t, _ in seen]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    print(f"longest silence: {max(gaps):.2f} s")
    assert max(gaps) < 4.5
    assert events(seen) == []  # an idle bot: keep-alives only


def test_revoking_or_deleting_on_one_instance_ends_the_stream_on_the_other(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    a = Server(server_env, tmp_path / "a.log")
    b = Server(server_env, tmp_path / "b.log")
    servers += [a, b]
    a.start(), b.start()
    bot, session, token, token_id = bot_account(a)
    _, host = account(a, "host")
    lines = start_reading(b, token, timeout=30)  # the keep-alive is the test above's
    assert lines.get(timeout=30)[1] == "headers 200"
    time.sleep(1)  # the stream is open and past its first reads
    r = httpx.delete(
        f"{a.url}/api/me/tokens/{token_id}", headers={"Authorization": f"Bearer {session}"}
    )
    assert r.status_code == 204, r.text
    revoked = time.monotonic()
    code = rest(a, "POST", "/api/lobbies", host, seats=2, private=True)["code"]
    rest(a, "POST", f"/api/lobbies/{code}/invite", host, bot=bot)
    seen = until_ended(lines, 15)
    print(f"\nstream on the other instance ended {seen[-1][0] - revoked:.2f} s after revoking")
    assert events(seen) == [], "an event was delivered after the revocation"
    assert seen[-1][0] - revoked < 5
    r = httpx.get(f"{b.url}/api/bot/stream", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 401 and r.json()["error"]["reason"] == "token_revoked"

    # A second token of the same bot: deleting the account ends its stream the same way.
    made = rest(a, "POST", "/api/me/tokens", session, name="again", scopes=["play"])
    lines = start_reading(b, made["token"], timeout=30)
    assert lines.get(timeout=30)[1] == "headers 200"
    seen_before = []
    while not events(seen_before):  # the open invitation arrives first
        seen_before.append(lines.get(timeout=15))
    assert [e["type"] for e in events(seen_before)] == ["challenge"]
    r = httpx.post(
        f"{a.url}/api/accounts/delete",
        json={"password": PASSWORD},
        headers={"Authorization": f"Bearer {session}"},
    )
    assert r.status_code == 204, r.text
    deleted = time.monotonic()
    seen = until_ended(lines, 15)
    print(f"stream on the other instance ended {seen[-1][0] - deleted:.2f} s after deleting")
    assert events(seen) == []
    assert seen[-1][0] - deleted < 5
