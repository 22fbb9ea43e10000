"""Turn alerts in a real browser: the account page's panel registers the service worker, asks
the notification permission and hands the subscription to the server; "Send a test alert"
reaches the device (through a push service this test runs on 127.0.0.1 — Chromium's own push
service cannot be reached here, so the page's ``PushManager`` returns a subscription to it, with
keys this test holds and decrypts with); turning alerts off ends it on the server; a browser
that blocks notifications is told so. English and German, desktop and phone.
"""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization

from tests.support.browser.fixtures import running_server
from tests.support.browser.ui import TIMEOUT_MS, sign_in_with_token
from tests.support.push_service import Device, PushService

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

# The page's push manager hands out the test's subscription (see the module docstring).
FAKE_PUSH = """([endpoint, p256dh, auth]) => {
  const sub = {
    endpoint,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: async () => {
      window.__unsubscribed = true;
      localStorage.removeItem('fake.sub');
      return true;
    },
  };
  PushManager.prototype.subscribe = async function () {
    localStorage.setItem('fake.sub', '1');
    return sub;
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem('fake.sub') ? sub : null;
  };
}"""


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    s = PushService()
    yield s
    s.close()


@pytest.fixture(scope="module")
def push_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(
        tmp_path_factory.mktemp("push"),
        PUSH_ALLOW_HTTP="true",
        PUSH_ENDPOINT_HOSTS="127.0.0.1",
    ) as base:
        yield base


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _page(browser: Any, server: str, device: Device, grant: bool, **ctx: Any) -> tuple[Any, Any]:
    """A signed-in account's page with the fake push manager; ``grant``: notifications."""
    with httpx.Client(base_url=server) as http:
        r = http.post(
            "/api/accounts",
            json={"username": f"al{secrets.token_hex(3)}", "password": "correct horse battery"},
        )
    body = r.json()
    context = browser.new_context(base_url=server, **ctx)
    context.set_default_timeout(TIMEOUT_MS)
    if grant:
        context.grant_permissions(["notifications"], origin=server)
    point = device.key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    args = json.dumps([device.endpoint, _b64(point), _b64(device.auth)])
    context.add_init_script(script=f"({FAKE_PUSH})({args})")
    page = context.new_page()
    sign_in_with_token(page, body["token"], body["account"])
    return context, page


def test_turn_alerts_on_test_and_off(
    push_server: str, push_service: PushService, browser: Any, artifacts: Path
) -> None:
    device = Device(push_service, "/browser/1")
    context, page = _page(
        browser, push_server, device, grant=True, viewport={"width": 1280, "height": 900}
    )
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    token = page.evaluate("localStorage.getItem('carcassonne.token')")
    auth = {"Authorization": f"Bearer {token}"}
    try:
        page.goto("/#/account")
        page.wait_for_selector("#turn-alerts-toggle[data-state='off']")
        assert "Off" in page.inner_text("#turn-alerts-state")
        page.screenshot(path=str(artifacts / "turn-alerts-off.png"), full_page=True)
        page.click("#turn-alerts-toggle")
        page.wait_for_selector("#turn-alerts-toggle[data-state='on']")
        assert page.evaluate("navigator.serviceWorker.getRegistration('/').then(r => !!r)")
        with httpx.Client(base_url=push_server, headers=auth) as http:
            assert len(http.get("/api/push/subscriptions").json()["devices"]) == 1
        page.click("#turn-alerts-test")
        page.wait_for_selector(".toast:has-text('Test alert sent to 1 device')")
        alert = device.read(push_service.to("/browser/1")[0][1])
        assert alert["type"] == "test" and alert["title"] == "Turn alerts are on"
        page.screenshot(path=str(artifacts / "turn-alerts-on.png"), full_page=True)

        # A reload still says on (checked against the server); German words it in German.
        page.evaluate("localStorage.setItem('carcassonne.lang', 'de')")
        page.reload()
        page.wait_for_selector("#turn-alerts-toggle[data-state='on']")
        assert "Hinweise ausschalten" in page.inner_text("#turn-alerts-toggle")
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.screenshot(path=str(artifacts / "turn-alerts-phone-de.png"), full_page=True)

        page.click("#turn-alerts-toggle")
        page.wait_for_selector("#turn-alerts-toggle[data-state='off']")
        assert page.evaluate("window.__unsubscribed === true")
        with httpx.Client(base_url=push_server, headers=auth) as http:
            assert http.get("/api/push/subscriptions").json()["devices"] == []
        assert not errors, errors
    finally:
        context.close()


def test_a_browser_that_blocks_notifications_is_told_so(
    push_server: str, push_service: PushService, browser: Any
) -> None:
    device = Device(push_service, "/browser/2")
    context, page = _page(browser, push_server, device, grant=False)
    try:
        page.goto("/#/account")
        page.wait_for_selector("#turn-alerts-toggle[data-state='off']")
        page.click("#turn-alerts-toggle")  # headless Chromium refuses the permission prompt
        page.wait_for_selector("#turn-alerts-toggle[data-state='blocked']")
        assert page.is_disabled("#turn-alerts-toggle")
        assert "blocks notifications" in page.inner_text("#turn-alerts-state")
        assert push_service.to("/browser/2", timeout=0.3) == []
    finally:
        context.close()
