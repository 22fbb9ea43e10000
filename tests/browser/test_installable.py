"""The installable app (frontend/manifest.json, frontend/sw.js, frontend/offline.html): the page
names a manifest with its icons, the service worker registers and caches the fingerprinted
files, and with the network cut the page still loads from the cache, a replay saved on the
device opens, and any other address gets the offline page. Screenshots: desktop and phone.
Chromium's own installability check (the one behind its Install button) has no objection; it
runs in a persistent profile, as a person's browser is (an incognito context never installs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser.fixtures import CHROMIUM, CHROMIUM_ARGS
from tests.support.browser.ui import Player, wait_for_async

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

RECORD: dict[str, Any] = {
    "format": "carcassonne-record/1",
    "players": ["Ann", "Ben"],
    "draw_order": ["V", "O", "P", "E", "X"],
    "moves": [
        {"tile": "V", "at": [1, 0], "rotation": 90, "follower": "road:W"},
        {"tile": "O", "at": [0, -1], "rotation": 180, "follower": "city:S"},
        {"tile": "P", "at": [1, -1], "rotation": 0, "follower": "field:SSW"},
        {"tile": "E", "at": [1, -2], "rotation": 180, "follower": None},
        {"tile": "X", "at": [2, -1], "rotation": 0, "follower": "road:N"},
    ],
}

CACHED = """async () => {
  const cache = await caches.open('carcassonne-offline-1');
  return (await cache.keys()).map((r) => new URL(r.url)).map((u) => u.pathname + u.search);
}"""


def test_chromium_finds_nothing_against_installing(
    server: str, browser: Any, tmp_path: Path
) -> None:
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        base_url=server,
    )
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto("/")
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => Boolean(r.active))")
        # The manifest (name, start_url, display, a 144 px+ icon), the worker and its fetch
        # handler, a secure origin (localhost): Page.getInstallabilityErrors names whatever
        # is missing (an icon-less manifest: manifest-missing-suitable-icon, …).
        cdp = context.new_cdp_session(page)
        verdict = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        cdp.detach()
        assert verdict == []
    finally:
        context.close()


@pytest.mark.parametrize(
    "viewport, label",
    [({"width": 1366, "height": 900}, "desktop"), ({"width": 390, "height": 844}, "phone")],
)
def test_installable_and_saved_replays_open_offline(
    server: str, browser: Any, tmp_path: Path, artifacts: Path, viewport: Any, label: str
) -> None:
    player = Player.open(browser, server, "Offline", viewport=viewport)
    page = player.page
    try:
        href = page.get_attribute('link[rel="manifest"]', "href")
        assert href is not None and href.startswith("/manifest.json?v=")
        manifest = page.request.get(href).json()
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
        sizes = {i["sizes"] for i in manifest["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in manifest["icons"]:
            assert page.request.get(icon["src"]).ok, icon
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => Boolean(r.active))")
        wait_for_async(
            page,
            "async () => { const c = await caches.open('carcassonne-offline-1');"
            " return (await c.keys()).some((r) => r.url.includes('/js/main.js?v=')); }",
        )
        cached = page.evaluate(CACHED)
        assert "/offline.html" in cached and "/api/catalogue" in cached
        modules = [u for u in cached if u.startswith("/js/") and "?v=" in u]
        assert len(modules) > 20, modules  # every module of the import map, fingerprinted

        # A record opened from a file, saved on the device.
        record = tmp_path / "record.json"
        record.write_text(json.dumps(RECORD))
        page.goto("/#/replay")
        page.set_input_files("#record-file", str(record))
        page.click("#replay-save")
        page.wait_for_selector("#replay-save[disabled]")

        player.context.set_offline(True)
        page.goto("/#/replay")
        page.reload()
        page.wait_for_selector("#saved-replays a.saved-replay")
        page.wait_for_selector("#offline-banner", state="visible")
        page.click("#saved-replays a.saved-replay")
        page.wait_for_selector("#replay-counter")
        assert page.inner_text("#replay-counter").strip() == "Move 5 of 5"
        page.wait_for_selector(".replay-board svg")
        page.screenshot(path=str(artifacts / f"offline-replay-{label}.png"))

        page.goto("/any/other/address")
        page.wait_for_selector("#offline h1")
        page.screenshot(path=str(artifacts / f"offline-page-{label}.png"))
        player.context.set_offline(False)
        assert player.errors == []
    finally:
        player.context.close()
