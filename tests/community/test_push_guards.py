"""Web Push against a hostile client (docs/API.md § Turn alerts, § Limits): a subscription
that passes the checks but cannot be sent (keys that are no P-256 point, a push service that
fails) never makes ``POST /api/push/test`` a 500 — it answers 502 ``push_failed`` with a
stable reason — and never stops the alerts of the player's other devices; a device the push
service calls gone is dropped, the others stay; at most ``PUSH_SUBSCRIPTIONS_PER_PLAYER``
devices per player (the oldest is replaced); test pushes are rate-limited per player.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.services.runtime import Runtime
from app.settings import Settings
from tests.community.test_push import _correspondence, _move
from tests.support.client import Api
from tests.support.push_service import Device, PushService
from tests.support.wait import wait_until

pytestmark = pytest.mark.timeout(120)

#: 65 bytes that look like an uncompressed point (0x04 first) but are on no curve.
NOT_A_POINT = base64.urlsafe_b64encode(b"\x04" + b"\x01" * 64).rstrip(b"=").decode()


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


def _client(settings: Settings, **more: object) -> TestClient:
    values = settings.model_dump()
    values.update(push_allow_http=True, push_endpoint_hosts="127.0.0.1", **more)
    return TestClient(create_app(Settings(_env_file=None, **values)))  # type: ignore[call-arg]


@pytest.fixture
def push_client(settings: Settings) -> Iterator[TestClient]:
    with _client(settings) as c:
        yield c


def _broken(service: PushService, path: str) -> dict[str, object]:
    """A subscription whose endpoint passes the checks and whose keys have the right sizes,
    but whose ``p256dh`` is no point: nothing can be encrypted to it.
    """
    sub = Device(service, path).subscription()
    return {**sub, "keys": {**sub["keys"], "p256dh": NOT_A_POINT}}  # type: ignore[dict-item]


def _store(client: TestClient, player: str, sub: dict[str, object], age: float = 0.0) -> None:
    """Store ``sub`` for ``player`` as it is, past the checks (a row from before them),
    subscribed ``age`` seconds ago.
    """
    from app.db.models import utcnow
    from app.services.community import queries

    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    keys: dict[str, str] = sub["keys"]  # type: ignore[assignment]
    row = {
        "id": queries.subscription_id(str(sub["endpoint"])),
        "player_id": player,
        "session": None,
        "endpoint": sub["endpoint"],
        "p256dh": keys["p256dh"],
        "auth": keys["auth"],
        "lang": "en",
        "failures": 0,
        "created_at": utcnow() - timedelta(seconds=age),
    }

    async def go() -> None:
        async with runtime.storage.db.transaction() as conn:
            await queries.save(conn, row)

    client.portal.call(go)  # type: ignore[union-attr]


def test_an_unsendable_subscription_is_a_clear_error_and_spares_the_other_devices(
    push_client: TestClient, service: PushService
) -> None:
    api = Api(push_client)
    match_id, people = _correspondence(api)
    (_, _, ann_h), (ben, _, ben_h) = people
    # Keys that are no point are refused when subscribing, with a stable reason.
    r = push_client.post("/api/push/subscriptions", headers=ben_h, json=_broken(service, "/b/0"))
    assert r.status_code == 422, r.text
    assert r.json()["error"]["reason"] == "push_keys_invalid"
    # Ben's first device cannot be sent to (stored before the check); his second can.
    _store(push_client, ben, _broken(service, "/b/1"))
    time.sleep(0.01)
    phone = Device(service, "/b/2")
    api.post("/api/push/subscriptions", ben_h, status=201, **phone.subscription())

    r = push_client.post("/api/push/test", headers=ben_h)
    assert r.status_code == 200, r.text  # one device took it
    assert r.json() == {"devices": 2, "delivered": 1}
    assert phone.read(service.to("/b/2")[0][1])["type"] == "test"
    # A subscription nothing can be encrypted to is dropped; the other stays.
    assert len(api.get("/api/push/subscriptions", ben_h)["devices"]) == 1

    _store(push_client, ben, _broken(service, "/b/3"), age=3600)  # his oldest: sent to first
    _move(api, match_id, ann_h)  # Ben's turn: his working device is alerted all the same
    wait_until(lambda: len(service.to("/b/2")) == 2, timeout=10, message="no turn alert")
    pushed = service.to("/b/2")
    alert = phone.read(pushed[-1][1])
    assert alert["type"] == "turn" and alert["match"] == match_id

    # Only unsendable devices: 502 push_failed with a stable reason, never a 500.
    cat, _, cat_h = api.player("Cat")
    _store(push_client, cat, _broken(service, "/c/1"))
    r = push_client.post("/api/push/test", headers=cat_h)
    assert r.status_code == 502, r.text
    error = r.json()["error"]
    assert (error["code"], error["reason"]) == ("push_failed", "push_undelivered")
    assert error["params"] == {"devices": 1, "dropped": 1}


def test_a_failing_push_service_answers_502_and_keeps_the_subscription(
    push_client: TestClient, service: PushService
) -> None:
    api = Api(push_client)
    _, _, h = api.player("Dan")
    phone = Device(service, "/fail/1")
    sub = phone.subscription()
    sub["endpoint"] = "http://127.0.0.1:9/down"  # nothing listens: a network error
    api.post("/api/push/subscriptions", h, status=201, **sub)
    r = push_client.post("/api/push/test", headers=h)
    assert r.status_code == 502, r.text
    error = r.json()["error"]
    assert (error["code"], error["reason"]) == ("push_failed", "push_undelivered")
    assert error["params"] == {"devices": 1, "dropped": 0}
    assert len(api.get("/api/push/subscriptions", h)["devices"]) == 1  # not gone: kept

    # A push service answering 410: dropped, and the answer says so.
    gone = Device(service, "/gone/dan")
    r = client_delete = push_client.post(
        "/api/push/subscriptions/delete", headers=h, json={"endpoint": sub["endpoint"]}
    )
    assert client_delete.status_code == 204, r.text
    api.post("/api/push/subscriptions", h, status=201, **gone.subscription())
    r = push_client.post("/api/push/test", headers=h)
    assert r.status_code == 502 and r.json()["error"]["params"] == {"devices": 1, "dropped": 1}
    assert api.get("/api/push/subscriptions", h)["devices"] == []


def test_at_most_n_devices_per_player_the_oldest_replaced(
    settings: Settings, service: PushService
) -> None:
    with _client(settings, push_subscriptions_per_player=3) as client:
        api = Api(client)
        _, _, h = api.player("Eve")
        devices = [Device(service, f"/e/{i}") for i in range(5)]
        for d in devices:
            api.post("/api/push/subscriptions", h, status=201, **d.subscription())
        held = api.get("/api/push/subscriptions", h)["devices"]
        assert len(held) == 3
        from app.services.community.queries import subscription_id

        assert [d["id"] for d in held] == [subscription_id(d.endpoint) for d in devices[2:]]

        # Many at once: still at most 3 (counted and trimmed under the player's lock).
        more = [Device(service, f"/e/more/{i}").subscription() for i in range(8)]
        with ThreadPoolExecutor(8) as pool:
            codes = list(
                pool.map(
                    lambda sub: (
                        client.post("/api/push/subscriptions", headers=h, json=sub).status_code
                    ),
                    more,
                )
            )
        assert codes == [201] * 8
        assert len(api.get("/api/push/subscriptions", h)["devices"]) == 3


def test_test_pushes_are_rate_limited_per_player(settings: Settings, service: PushService) -> None:
    with _client(settings, push_tests_per_player="2/minute") as client:
        api = Api(client)
        _, _, h = api.player("Fay")
        _, _, other_h = api.player("Gil")
        phone = Device(service, "/f/1")
        api.post("/api/push/subscriptions", h, status=201, **phone.subscription())
        for _ in range(2):
            assert api.post("/api/push/test", h)["delivered"] == 1
        r = client.post("/api/push/test", headers=h)
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
        assert len(service.to("/f/1")) == 2
        assert api.post("/api/push/test", other_h) == {"devices": 0, "delivered": 0}
