"""Turn alerts by Web Push, against a push service this test runs itself on 127.0.0.1 (the
browsers' own push services cannot be reached here): a device subscribes with keys made as a
browser makes them; a move that makes it a person's turn in a correspondence match sends that
person's devices one message, signed with the server's VAPID key, which decrypts (RFC 8291,
``aes128gcm``) to the match, the move and the table in the device's language; nothing for a
seat with a socket on the match, an untimed match or the player who just moved; a push service
answering 410 ends the subscription; logging out ends that device's; endpoints that are not a
push service over https are refused.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.settings import Settings
from tests.support.app import make_settings
from tests.support.client import Api, place_first
from tests.support.push_service import Device, PushService

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


@pytest.fixture
def push_client(settings: Settings) -> Iterator[TestClient]:
    """The app with the test's push service allowed (http on 127.0.0.1)."""
    values = settings.model_dump()
    values.update(push_allow_http=True, push_endpoint_hosts="127.0.0.1")
    with TestClient(create_app(Settings(_env_file=None, **values))) as c:  # type: ignore[call-arg]
        yield c


def _correspondence(api: Api) -> tuple[str, list[tuple[str, str, dict[str, str]]]]:
    match_id, people, _ = api.match(
        seats=2, time_control={"kind": "correspondence", "days": 3}, name="Evening game"
    )
    return match_id, people


def _move(api: Api, match_id: str, headers: dict[str, str]) -> None:
    """Play the acting seat's whole turn (a tile, then no follower)."""
    for _ in range(2):
        m = api.get(f"/api/matches/{match_id}", headers)
        api.post(
            f"/api/matches/{match_id}/actions",
            headers,
            v=m["version"],
            id=f"a{m['version']}",
            d=place_first(m["state"]),
        )


def test_a_turn_alert_reaches_the_devices_of_the_player_to_move(
    push_client: TestClient, service: PushService
) -> None:
    api = Api(push_client)
    key = api.get("/api/push/key")["public_key"]
    match_id, people = _correspondence(api)
    (ann, _, ann_h), (ben, _, ben_h) = people
    ann_phone, ben_phone = Device(service, "/ann/1"), Device(service, "/ben/1")
    api.post("/api/push/subscriptions", ann_h, status=201, **ann_phone.subscription("de"))
    api.post("/api/push/subscriptions", ben_h, status=201, **ben_phone.subscription("en"))
    assert len(api.get("/api/push/subscriptions", ben_h)["devices"]) == 1

    _move(api, match_id, ann_h)  # Ann's turn done: Ben (no socket) is alerted
    pushed = service.to("/ben/1")
    assert len(pushed) == 1
    headers, body = pushed[0]
    assert (
        headers["authorization"].startswith("vapid t=") and f"k={key}" in headers["authorization"]
    )
    assert headers.get("content-encoding") == "aes128gcm"
    alert = ben_phone.read(body)
    assert alert["type"] == "turn" and alert["match"] == match_id and alert["move"] == 2
    assert alert["table"] == "Evening game" and alert["body"] == "Evening game — move 2"
    assert alert["url"] == f"/#/match/{match_id}"
    assert service.to("/ann/1", timeout=0.5) == []  # the mover hears nothing

    _move(api, match_id, ben_h)  # now Ann's turn: in German, move 3
    alert = ann_phone.read(service.to("/ann/1")[0][1])
    assert (alert["title"], alert["body"]) == ("Du bist dran", "Evening game — Zug 3")

    # A seat with a socket on the match is not alerted.
    with push_client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as ws:
        ws.receive_text()
        _move(api, match_id, ann_h)
        time.sleep(0.5)
    assert len(service.to("/ben/1")) == 1


def test_untimed_matches_gone_subscriptions_logout_and_bad_endpoints(
    push_client: TestClient, service: PushService
) -> None:
    api = Api(push_client)
    match_id, people, _ = api.match(seats=2)  # untimed: nobody is alerted
    (_, _, ann_h), (_, _, ben_h) = people
    ben_phone = Device(service, "/gone/ben")
    api.post("/api/push/subscriptions", ben_h, status=201, **ben_phone.subscription())
    _move(api, match_id, ann_h)
    assert service.to("/gone/ben", timeout=0.5) == []

    # The test alert; a push service answering 410 ends the subscription (502: none took it).
    r = push_client.post("/api/push/test", headers=ben_h)
    assert r.status_code == 502 and r.json()["error"]["params"] == {"devices": 1, "dropped": 1}
    assert ben_phone.read(service.to("/gone/ben")[0][1])["type"] == "test"
    assert api.get("/api/push/subscriptions", ben_h)["devices"] == []

    # An account's device: logging out ends its alerts.
    r = push_client.post("/api/accounts", json={"username": "pushy", "password": "a long secret"})
    token = r.json()["token"]
    h = {"Authorization": f"Bearer {token}"}
    phone = Device(service, "/cat/1")
    api.post("/api/push/subscriptions", h, status=201, **phone.subscription("fr"))
    assert api.post("/api/push/test", h) == {"devices": 1, "delivered": 1}
    assert phone.read(service.to("/cat/1")[0][1])["title"] == "Alertes activées"
    assert push_client.post("/api/accounts/logout", headers=h).status_code == 204
    r = push_client.post(
        "/api/accounts/login", json={"username": "pushy", "password": "a long secret"}
    )
    h = {"Authorization": f"Bearer {r.json()['token']}"}
    assert api.get("/api/push/subscriptions", h)["devices"] == []

    # Endpoints that are not a push service, bad keys, and someone else's subscription.
    bad = Device(service, "/x").subscription()
    for endpoint in ("https://evil.example/push", "ftp://127.0.0.1/x", "javascript:alert(1)"):
        r = push_client.post(
            "/api/push/subscriptions", headers=h, json={**bad, "endpoint": endpoint}
        )
        assert r.status_code == 422 and "endpoint" in r.json()["error"]["message"], r.text
    short = {**bad, "keys": {**bad["keys"], "auth": "AAAA"}}
    assert push_client.post("/api/push/subscriptions", headers=h, json=short).status_code == 422
    api.post("/api/push/subscriptions", ben_h, status=201, **bad)
    r = push_client.post(
        "/api/push/subscriptions/delete", headers=h, json={"endpoint": bad["endpoint"]}
    )
    assert r.status_code == 404
    r = push_client.post(
        "/api/push/subscriptions/delete", headers=ben_h, json={"endpoint": bad["endpoint"]}
    )
    assert r.status_code == 204 and api.get("/api/push/subscriptions", ben_h)["devices"] == []


def test_by_default_only_the_browsers_push_services_over_https() -> None:
    from app.services.push_sender import PushSender

    sender = PushSender(make_settings("sqlite://", None, "p", os.path.curdir))  # type: ignore[arg-type]
    assert sender.check_endpoint("https://fcm.googleapis.com/fcm/send/abc") is None
    assert sender.check_endpoint("https://updates.push.services.mozilla.com/wpush/v2/x") is None
    assert sender.check_endpoint("https://wns2-par02p.notify.windows.com/w/?token=x") is None
    assert sender.check_endpoint("http://fcm.googleapis.com/fcm/send/abc") == "scheme"
    assert sender.check_endpoint("https://127.0.0.1/x") == "host"
    assert sender.check_endpoint("https://fcm.googleapis.com.evil.example/x") == "host"
