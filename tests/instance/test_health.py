"""Liveness, readiness and a draining instance, in the app (both backends).

``/healthz`` answers whenever the process does; ``/readyz`` says whether the database and the
broker answer and the instance is not draining (503 naming the part otherwise). While draining
(app/services/drain.py) new requests get 503 ``unavailable``, new websockets a 503 handshake,
frames that write on open sockets are not taken, and ``close_sockets`` sends each socket its
outbox, then closes it with 1012 without starting a leave countdown. The signal and the process
around it: tests/server/test_drain.py.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

import app.api.app as app_module
from app.db.models import match_actions
from app.realtime.protocol import parse_broker_message
from app.services import drain, timers
from app.services.match.delivery import delivery
from app.settings import Settings
from tests.support.client import Api, place_first, receive

pytestmark = pytest.mark.timeout(60)

READY = {"ok": True, "database": True, "broker": True, "draining": False, "clocks": True}


async def _no(*_: object) -> bool:
    return False


async def _hangs(*_: object) -> bool:
    await asyncio.sleep(30)
    return True


def test_alive_and_ready(api: Api) -> None:
    assert api.get("/healthz") == {"ok": True}
    assert api.get("/readyz") == READY


@pytest.mark.parametrize("part", ["database", "broker"])
def test_a_part_down_is_not_ready_but_alive(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, part: str
) -> None:
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    monkeypatch.setattr(rt.storage.db if part == "database" else rt.fanout.broker, "ping", _no)
    r = client.get("/readyz")
    assert (r.status_code, r.json()) == (503, {**READY, "ok": False, part: False})
    assert client.get("/healthz").json() == {"ok": True}


def test_a_database_that_does_not_answer_is_not_ready_within_the_ping_timeout(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    monkeypatch.setattr(rt.storage.db, "ping", _hangs)
    monkeypatch.setattr(app_module, "PING_TIMEOUT", 0.2)
    r = client.get("/readyz")
    assert (r.status_code, r.json()["database"]) == (503, False)


def test_not_ready_until_the_outage_check_has_credited_the_clocks(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An instance that starts after nobody served first credits that time to the running
    clocks (app/services/clock/outage.py); until its check has run it is not ready.
    """
    held = threading.Event()

    async def slow_check(rt: object) -> int:
        while not held.is_set():  # another instance holds the check's lock, say
            await asyncio.sleep(0.01)
        return 0

    monkeypatch.setattr(timers.outage, "start_and_credit", slow_check)
    monkeypatch.setattr(app_module, "PING_TIMEOUT", 0.2)
    with TestClient(app_module.create_app(settings)) as client:
        try:
            r = client.get("/readyz")
        finally:
            held.set()  # the check ends (the app's shutdown waits for it)
        assert (r.status_code, r.json()) == (503, {**READY, "ok": False, "clocks": False})
        assert client.get("/readyz").json() == READY


def test_draining_refuses_new_requests_and_sockets(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    client.app.state.runtime.draining = True  # type: ignore[attr-defined]
    r = client.get("/readyz")
    assert (r.status_code, r.json()) == (503, {**READY, "ok": False, "draining": True})
    assert client.get("/healthz").json() == {"ok": True}
    assert client.get("/metrics").status_code == 200
    for method, path in (
        ("GET", f"/api/matches/{match_id}"),
        ("POST", "/api/players"),
        ("GET", "/"),
    ):
        r = client.request(method, path, json={"name": "Zed"} if method == "POST" else None)
        assert r.status_code == 503, (path, r.text)
        assert r.json()["error"]["code"] == "unavailable"
        assert r.headers["retry-after"] == "1"
    with pytest.raises(WebSocketDenialResponse) as denied:  # noqa: SIM117 - the handshake fails
        with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}"):
            pass
    assert denied.value.status_code == 503
    assert denied.value.json()["error"]["code"] == "unavailable"


def test_a_drained_socket_gets_its_answers_then_1012_and_its_seat_is_not_left(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match(time_control={"kind": "fischer", "bank": 300, "increment": 0})
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws,
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as other,
    ):
        snap = receive(ws)
        receive(other)
        ws.send_text(
            json.dumps({"t": "action", "v": 0, "id": "a1", "d": place_first(snap["d"]["state"])})
        )
        assert receive(ws)["v"] == 1 and receive(other)["v"] == 1
        drain.begin(rt)
        ws.send_text(json.dumps({"t": "action", "v": 1, "id": "a2", "d": {"type": "pass"}}))
        ws.send_text(json.dumps({"t": "ping"}))
        assert receive(ws) == {"t": "pong"}  # the action before it was not taken
        # A test client answers the close frame only when its block is left (a browser at
        # once): the drain's result is read after that, or it waits out its deadline.
        closing = client.portal.start_task_soon(drain.close_sockets, rt)  # type: ignore[union-attr]
        for sock in (ws, other):
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(sock)
            assert closed.value.code == 1012
    assert closing.result(timeout=10) == 2
    # The sockets' handlers leave their hub in tasks of their own: wait for them (they must
    # see the drain) before reading the match as a live instance would.
    deadline = time.monotonic() + 10
    while rt.fanout.hubs.hubs or rt.fanout.hubs.pending():
        assert time.monotonic() < deadline, "the sockets never left their hub"
        time.sleep(0.01)
    rt.draining = False  # to read the match over REST
    match = api.get(f"/api/matches/{match_id}", people[0][2])
    assert match["version"] == 1
    assert match["clock"]["away"] == {}  # nobody's leave countdown started


def test_a_drain_waits_for_the_frames_in_flight_and_sends_their_answers_first(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match()
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    portal = client.portal  # type: ignore[union-attr]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        receive(ws)
        drain.begin(rt)
        rt.in_flight += 1  # an action being applied
        closing = portal.start_task_soon(drain.close_sockets, rt)
        ws.send_text(json.dumps({"t": "ping"}))
        assert receive(ws) == {"t": "pong"}  # still open: the action is not done
        (conn,) = rt.fanout.hubs.get(rt.fanout.channel("match", match_id)).connections

        def done() -> None:
            conn.push(None, '{"t": "answer"}')  # its answer, queued as it finishes
            rt.in_flight -= 1

        portal.call(asyncio.sleep, 0.3)
        assert not closing.done()
        portal.call(lambda: asyncio.get_running_loop().call_soon(done))
        assert receive(ws) == {"t": "answer"}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1012
    assert closing.result(timeout=10) == 1  # once the test client answered the close


def test_finishing_a_drain_publishes_what_was_committed_but_not_published(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match()
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    state = api.get(f"/api/matches/{match_id}", people[0][2])["state"]
    api.post(f"/api/matches/{match_id}/actions", people[0][2], v=0, id="a1", d=place_first(state))
    heard: list[str] = []

    async def run() -> list[bool]:
        await rt.stop_loops()  # no flush of the marks but the drain's own
        await rt.settle(5)
        await delivery.flush_marks(rt)
        async with rt.storage.db.transaction() as conn:  # its publish never happened
            await conn.execute(
                update(match_actions)
                .where(match_actions.c.match_id == match_id)
                .values(published=False)
            )
        await rt.fanout.broker.subscribe(rt.fanout.channel("match", match_id), heard.append)
        drain.begin(rt)
        await drain.finish(rt)
        await asyncio.sleep(0.5)  # Redis delivers the announcement asynchronously
        async with rt.storage.db.transaction() as conn:
            rows = await conn.execute(
                select(match_actions.c.published).where(match_actions.c.match_id == match_id)
            )
            return [bool(r.published) for r in rows]

    assert client.portal.call(run) == [True]  # type: ignore[union-attr]
    assert [parse_broker_message(m)[1:3] for m in heard] == [("head", 1)]
