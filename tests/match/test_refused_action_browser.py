"""A refused action frame is sent again ("Nothing freezes", defect 4: "a refused action frame
leaves its sender waiting").

Ann plays against a computer on a server whose sockets take 3 frames at once, then one per 4 s.
With her tile chosen, her page's socket spends its budget (three pings through the page's own
socket), then she confirms the placement: the server refuses the action frame with
``rate_limited``, naming the action (``id``) and when to send it again (``retry_after``); the
page sends the same frame (same id) again after that wait and the tile is placed, with no error
shown. Before, the refusal named no action, the page dropped it with an error toast and the
tile stayed in Ann's hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from tests.support.browser.fixtures import running_server
from tests.support.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = pytest.mark.browser

#: Every frame the page sends or receives on its websockets: ``[epoch ms, text]``.
RECORD_FRAMES = """
(() => {
  window.__sent = [];
  window.__got = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__sent.push([Date.now(), String(data)]);
    return send.call(this, data);
  };
  const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    set(fn) {
      desc.set.call(this, (ev) => { window.__got.push([Date.now(), String(ev.data)]); fn(ev); });
    },
    get() { return desc.get.call(this); },
  });
})();
"""

#: Three pings through the page's own socket, then a click on "Confirm" in the same task.
SPEND_THEN_CONFIRM = """
() => {
  const socket = window.carcassonne.socket;
  const pings = [0, 1, 2].map(() => socket.send({t: 'ping'}));
  document.querySelector('#confirm-placement').click();
  return pings;
}
"""


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Sockets take 3 frames at once, then one every 4 s."""
    work = tmp_path_factory.mktemp("paced-server")
    with running_server(work, WS_FRAME_RATE="0.25", WS_FRAME_BURST="3") as base:
        yield base


def test_a_refused_action_is_sent_again_after_the_wait_the_server_names(
    paced_server, browser, artifacts
):
    ann = Player.open(browser, paced_server, "Ann")
    page = ann.page
    ann.context.add_init_script(RECORD_FRAMES)
    page.reload()
    page.wait_for_selector("#create-lobby")
    try:
        code = create_private_lobby(ann)
        start_against_a_bot(ann)
        page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
        match_id = page.evaluate("location.hash").split("/")[2].split("?")[0]
        cell = page.get_attribute("#board .legal-cell", "data-cell")
        page.click(f'#board .legal-cell[data-cell="{cell}"]')  # chosen in a rotation that fits
        page.wait_for_selector("#board .preview.selected")
        # The page's socket spends its budget and the placement comes right after, in one task
        # of the page: no time for the budget to refill, nor for the socket to be replaced.
        page.wait_for_function("window.carcassonne.socket.isOpen")
        pings = page.evaluate(SPEND_THEN_CONFIRM)
        assert pings == [True, True, True]
        page.wait_for_selector('#match[data-phase="deploy"]', timeout=30_000)
        assert page.locator(".toast.error").count() == 0

        got = [(at, json.loads(text)) for at, text in page.evaluate("window.__got")]
        sent = [(at, json.loads(text)) for at, text in page.evaluate("window.__sent")]
        places = [(at, f) for at, f in sent if f.get("t") == "action"]
        action_id = places[0][1]["id"]
        refusals = [
            (at, f["d"])
            for at, f in got
            if f["t"] == "error" and f["d"]["code"] == "rate_limited" and f["d"]["id"] == action_id
        ]
        assert refusals, [f for _, f in got if f["t"] == "error"]
        refused_at, refusal = refusals[0]
        assert 0 < refusal["retry_after"] <= 4.1
        again = [(at, f) for at, f in places if f["id"] == action_id and at > refused_at]
        assert again and again[0][1] == places[0][1], places  # the very same frame
        waited = (again[0][0] - refused_at) / 1000
        print(
            f"refused with retry_after {refusal['retry_after']:.3f} s;"
            f" sent again {waited:.3f} s later"
        )
        assert waited >= refusal["retry_after"] - 0.05

        params = {"since": 0, "code": code}
        batches = httpx.get(
            f"{paced_server}/api/matches/{match_id}/events", params=params, timeout=10
        ).json()["batches"]
        assert batches[0]["action_id"] == action_id  # applied once, as that action
        assert [b["action_id"] for b in batches].count(action_id) == 1
        page.screenshot(path=str(artifacts / "refused-action-sent-again.png"))
    finally:
        ann.context.close()
    assert ann.errors == []
