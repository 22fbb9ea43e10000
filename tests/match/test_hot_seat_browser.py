"""Hot-seat seats (frontend/js/match/access/hotSeat.js): Ann seats Cat on her own device, Ben joins
from his; on Ann's device the turn passes between Ann and Cat behind a "Pass the device to …"
cover that hides the screen until the next player taps, while Ben plays remotely. Cat's moves
are hers (the server records them for her seat). Screenshots of the cover: desktop and phone.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser.ui import Player, Server, create_private_lobby, join_by_code

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

CHOICE = "document.activeElement && ['tb-placement', 'tb-spot'].includes(document.activeElement.id)"


def _act(player: Player) -> None:
    """Play the seat to act's choice through the text board: the first option, with the keyboard."""
    page = player.page
    page.wait_for_function(CHOICE)
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")


def test_two_people_on_one_device_and_one_far_away(
    server: str, browser: Any, artifacts: Any
) -> None:
    ann = Player.open(browser, server, "Ann")
    ben = Player.open(browser, server, "Ben")
    srv = None
    try:
        code = create_private_lobby(ann, seats=3)
        page = ann.page
        page.click("#seats li.seat.empty .add-local")
        page.fill("#local-name", "Cat")
        page.click("#local-add")
        page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
        join_by_code(ben, code)
        page.wait_for_selector('#seats li.seat[data-seat="2"]:not(.empty)')
        page.click("#start-match")
        for p in (ann, ben):
            p.page.wait_for_selector("#match[data-version]")
            p.page.keyboard.press("t")  # the text board: choices as lists
            p.page.wait_for_selector("#text-board:not([hidden])")
        match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
        srv = Server(server, match_id, code)
        names = [s["name"] for s in srv.match()["seats"]]
        assert names == ["Ann", "Cat", "Ben"]
        devices = [ann, ann, ben]
        handovers = 0
        held_by = 0  # who last held Ann's device
        for _ in range(6):
            match = srv.match()
            seat = match["state"]["seat"]
            device = devices[seat]
            if device is ann and seat != held_by:
                # Ann's device passes from one of its people to the other: covered until tapped.
                cover = page.get_by_role("dialog", name=f"Pass the device to {names[seat]}")
                cover.wait_for()
                hidden = page.evaluate(
                    "() => { const e = document.elementFromPoint(innerWidth / 2, innerHeight / 2);"
                    " return !!e.closest('#handover-cover'); }"
                )
                assert hidden, "the cover hides the screen"
                if handovers == 0:
                    page.screenshot(path=str(artifacts / "hot-seat-cover-desktop.png"))
                    page.set_viewport_size({"width": 390, "height": 844})
                    page.screenshot(path=str(artifacts / "hot-seat-cover-phone.png"))
                    page.set_viewport_size({"width": 1400, "height": 900})
                handovers += 1
                page.keyboard.press("Enter")  # "I am Cat: show my turn" has the focus
                cover.wait_for(state="detached")
                held_by = seat
            version = match["version"]
            _act(device)  # the tile
            device.wait_version(version + 1)
            _act(device)  # no follower
            device.wait_version(version + 2)
        assert handovers >= 2
        log = srv.http.get(f"/api/matches/{match_id}/events", params={"code": code}).json()
        assert {b["seat"] for b in log["batches"]} == {0, 1, 2}
        assert ann.errors == [] and ben.errors == []
    finally:
        if srv is not None:
            srv.close()
        ann.context.close()
        ben.context.close()


def test_a_name_being_typed_survives_someone_joining(server: str, browser: Any) -> None:
    """Ann is typing the name of the friend beside her when Ben takes the seat her form was in:
    the room is drawn again, and the form moves to the next empty seat with her text and caret.
    """
    ann = Player.open(browser, server, "Ann")
    ben = Player.open(browser, server, "Ben")
    try:
        code = create_private_lobby(ann, seats=3)
        page = ann.page
        page.click('#seats li.seat[data-seat="1"] .add-local')
        page.keyboard.type("Ca")  # the name field has the focus
        join_by_code(ben, code)
        page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
        assert page.input_value('#seats li.seat[data-seat="2"] #local-name') == "Ca"
        page.keyboard.type("t")
        page.keyboard.press("Enter")
        page.wait_for_selector('#seats li.seat[data-seat="2"]:not(.empty)')
        assert "Cat" in page.inner_text('#seats li.seat[data-seat="2"]')
        assert page.locator("#local-name").count() == 0
        assert ann.errors == [] and ben.errors == []
    finally:
        ann.context.close()
        ben.context.close()
