"""The tournament websocket (``/ws/tournaments/{id}``) is admitted like the match and lobby
sockets (app/api/socket_admission.py): capped per address and per token, a frame budget (an
over-rate frame gets ``rate_limited`` with ``retry_after``, a flood is closed with 1013), a
binary frame refused with an error frame (never a traceback), and closed when its token is
revoked. A change of the tournament costs one read on this instance, however many sockets
watch it, each still sent its own ``me`` and ``is_host``.

Before, a hostile client held 300 sockets from one address, had 2,000 pings answered, closed
its socket with a traceback (1006) by sending one binary frame, kept its socket after its
token was revoked, and 10 registrations with 300 sockets watching cost 3,000 reads.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.api.app import create_app
from app.services.tournaments import reads as tournament_reads
from tests.support.app import make_settings
from tests.support.client import Api, receive

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def capped(sqlite_url: str, channel_prefix: str, frontend: Path) -> Iterator[TestClient]:
    """Five frames at once then hardly any; 3 sockets per token, 5 per address."""
    settings = make_settings(
        sqlite_url,
        None,
        channel_prefix,
        frontend,
        ws_frame_rate=0.01,
        ws_frame_burst=5,
        ws_sockets_per_token=3,
        ws_sockets_per_address=5,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def _close_code(ws: WebSocketTestSession, limit: int = 200) -> int:
    for _ in range(limit):
        try:
            ws.receive_text()
        except WebSocketDisconnect as exc:
            return exc.code
    raise AssertionError("the socket was not closed")


def _tournament(api: Api) -> tuple[str, dict[str, str]]:
    """A Swiss in registration: ``(id, the organiser's headers)``."""
    _, _, host = api.player("Org")
    return api.post("/api/tournaments", host, 201, name="Cup", rounds=3)["id"], host


def test_tournament_sockets_are_capped_per_token_and_per_address(capped: TestClient) -> None:
    api = Api(capped)
    tid, _ = _tournament(api)
    path = f"/ws/tournaments/{tid}"
    _, token, _ = api.player("Ann")
    with (
        capped.websocket_connect(f"{path}?token={token}") as a,
        capped.websocket_connect(f"{path}?token={token}") as b,
        capped.websocket_connect(f"{path}?token={token}") as c,
    ):
        for ws in (a, b, c):
            assert receive(ws)["t"] == "tournament"
        with capped.websocket_connect(f"{path}?token={token}") as d:
            error = receive(d)
            assert error["t"] == "error" and error["d"]["code"] == "rate_limited", error
            assert _close_code(d) == 1013
        # Anonymous sockets of the same address: 5 in all, whatever the token.
        with capped.websocket_connect(path) as e, capped.websocket_connect(path) as f:
            assert receive(e)["t"] == receive(f)["t"] == "tournament"
            with capped.websocket_connect(path) as g:
                assert receive(g)["d"]["code"] == "rate_limited"
                assert _close_code(g) == 1013
    with capped.websocket_connect(f"{path}?token={token}") as again:  # freed on close
        assert receive(again)["t"] == "tournament"


def test_a_flood_of_frames_is_refused_then_closed_1013(capped: TestClient) -> None:
    api = Api(capped)
    tid, _ = _tournament(api)
    with capped.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        assert receive(ws)["t"] == "tournament"
        for _ in range(5):  # the burst passes
            ws.send_text(json.dumps({"t": "ping"}))
        assert [receive(ws) for _ in range(5)] == [{"t": "pong"}] * 5
        ws.send_text(json.dumps({"t": "ping"}))
        refused = receive(ws)
        assert refused["t"] == "error" and refused["d"]["code"] == "rate_limited", refused
        assert refused["d"]["retry_after"] > 0
        for _ in range(40):  # keeps flooding: closed with 1013 "try again later"
            ws.send_text(json.dumps({"t": "ping"}))
        assert _close_code(ws) == 1013


@pytest.mark.parametrize("data", [b"\xff\x00\xfe", b'{"t": "ping"}'])
def test_a_binary_frame_is_answered_not_a_traceback(
    client: TestClient, api: Api, caplog: pytest.LogCaptureFixture, data: bytes
) -> None:
    """Binary frames are read as UTF-8 text, as on the match socket: not UTF-8 (or not a
    frame) gets an error frame, and the socket stays open.
    """
    tid, _ = _tournament(api)
    with (
        caplog.at_level(logging.WARNING),
        client.websocket_connect(f"/ws/tournaments/{tid}") as ws,
    ):
        assert receive(ws)["t"] == "tournament"
        ws.send_bytes(data)
        answer = receive(ws)
        if data.startswith(b"{"):
            assert answer == {"t": "pong"}
        else:
            assert answer["t"] == "error" and answer["d"]["code"] == "validation_error", answer
        ws.send_text(json.dumps({"t": "ping"}))  # still open
        assert receive(ws) == {"t": "pong"}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_a_revoked_tokens_tournament_socket_closes(client: TestClient, api: Api) -> None:
    """Registering an account with a guest token revokes it: its tournament socket closes with
    an ``unauthorized`` frame and 4401, as its match and lobby sockets would.
    """
    tid, _ = _tournament(api)
    _, guest, headers = api.player("Ann")
    with client.websocket_connect(f"/ws/tournaments/{tid}?token={guest}") as ws:
        assert receive(ws)["t"] == "tournament"
        user = f"ann{secrets.token_hex(3)}"
        api.post("/api/accounts", headers, 201, username=user, password="correct horse battery")
        errors = []
        while True:
            message = ws.receive()
            if message["type"] == "websocket.close":
                break
            frame = json.loads(message.get("text") or "{}")
            if frame.get("t") == "error":
                errors.append(frame["d"]["code"])
        assert message["code"] == 4401 and errors[-1:] == ["unauthorized"], (message, errors)


def test_one_read_per_change_shared_by_every_socket(
    client: TestClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six sockets (the organiser, an entrant-to-be, four others) watch a registration: the
    tournament is read once for all of them (plus once for the REST answer), and each socket
    still gets its own ``is_host`` and ``me``.
    """
    _, _, host = api.player("Org")
    tid = api.post("/api/tournaments", host, 201, name="Cup", rounds=3)["id"]
    host_token = host["Authorization"].removeprefix("Bearer ")
    ann, ann_token, ann_headers = api.player("Ann")
    others = [api.player(f"P{i}")[1] for i in range(2)]
    reads: list[float] = []
    real = tournament_reads.read

    async def counted(rt: Any, read_tid: str) -> Any:
        # This tournament's reads only: the background sweep reads the other tests' running
        # tournaments whenever it ticks (a loaded machine let it tick inside the window).
        if read_tid == tid:
            reads.append(time.monotonic())
        return await real(rt, read_tid)

    path = f"/ws/tournaments/{tid}"
    urls = [f"{path}?token={t}" for t in (host_token, ann_token, *others)] + [path, path]
    sockets = [client.websocket_connect(u) for u in urls]
    try:
        opened = [ws.__enter__() for ws in sockets]
        first = [receive(ws) for ws in opened]
        assert all(f["t"] == "tournament" and f["d"]["me"] is None for f in first)
        assert [f["d"]["is_host"] for f in first] == [True] + [False] * 5
        monkeypatch.setattr(tournament_reads, "read", counted)
        api.post(f"/api/tournaments/{tid}/entrants", ann_headers)  # one read for its answer
        changed = [receive(ws) for ws in opened]
        assert all(c["v"] > f["v"] for c, f in zip(changed, first, strict=True))
        assert [c["d"]["is_host"] for c in changed] == [True] + [False] * 5
        mine = [c["d"]["me"] for c in changed]
        assert mine[1] is not None and mine[1]["player"] == ann
        assert mine[:1] + mine[2:] == [None] * 5
        assert len(reads) == 2, f"{len(reads)} reads for one change"
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_a_drain_closes_the_tournament_page_with_1012(client: TestClient, api: Api) -> None:
    """A restart closes the tournament page's socket as it does a match's (1012: reconnect
    at once, elsewhere). Before, the drain walked the hubs only, and the tournament sockets
    stayed open until the process went away.
    """
    from app.services import drain

    rt = client.app.state.runtime  # type: ignore[attr-defined]
    tid, _ = _tournament(api)
    with client.websocket_connect(f"/ws/tournaments/{tid}") as ws:
        assert receive(ws)["t"] == "tournament"

        async def restart() -> int:
            drain.begin(rt)
            try:
                return await drain.close_sockets(rt)
            finally:
                rt.draining = False  # the app goes on serving the other tests

        closed = client.portal.call(restart)  # type: ignore[union-attr]
        assert closed >= 1
        assert _close_code(ws) == 1012
