"""The browser client and a server restart: a match socket closed with 1012 (service restart,
what a draining instance sends) reconnects at once, without the "connection lost" banner, its
countdown or the "reconnected" toast; any other drop still waits its back-off and shows them.

The page's ``WebSocket`` is a stand-in the test closes with the code it wants, so the timing
and the statuses are the client's own (``frontend/js/socket.js`` and
``frontend/js/match/connection.js``); the server side of a drain is tested on real processes in
``tests/server/test_drain.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

# Opens a LiveSocket on a fake WebSocket, feeds its statuses to the match screen's onStatus,
# closes the socket with ``code`` once open, and reports what followed within 1.5 s: the states,
# the banner, the toasts, and the delay the client scheduled its reconnect at (its own timer's,
# not the wall clock's: a loaded machine must not decide the test).
AFTER_CLOSE = """async (code) => {
  const sockets = [];
  class FakeSocket {
    static CONNECTING = 0; static OPEN = 1; static CLOSING = 2; static CLOSED = 3;
    constructor(url) {
      this.url = url; this.readyState = 0; this.born = performance.now(); sockets.push(this);
      setTimeout(() => { this.readyState = 1; this.onopen && this.onopen(); }, 5);
    }
    send() {}
    close() { this.readyState = 3; }
    drop(code) { this.readyState = 3; this.onclose && this.onclose({ code, reason: '' }); }
  }
  window.WebSocket = FakeSocket;
  const { LiveSocket } = await import('/js/socket.js');
  const { onStatus } = await import('/js/match/connection.js');
  const section = document.createElement('section');
  const banner = document.createElement('div');
  banner.hidden = true;
  document.body.append(section, banner);
  const m = { conn: { wasDown: false }, dom: { section, banner } };
  const states = [];
  let bannerSeen = false;
  m.socket = new LiveSocket(() => `ws://127.0.0.1:1/ws/matches/x?since=${sockets.length}`, {
    onStatus: (st) => {
      states.push(st.state);
      onStatus(m, st);
      bannerSeen = bannerSeen || !banner.hidden;
    },
  });
  const wait = window.setTimeout.bind(window);
  await new Promise((r) => wait(r, 50));
  const toastsBefore = document.querySelectorAll('#toasts .toast').length;
  // The delays the client asks for from the drop on: its own timing, whatever the machine's
  // load makes of the wall clock.
  const delays = [];
  window.setTimeout = (fn, ms, ...rest) => { delays.push(ms || 0); return wait(fn, ms, ...rest); };
  sockets[0].drop(code);
  await new Promise((r) => wait(r, 1500));
  window.setTimeout = wait;
  const result = {
    states,
    reconnectMs: sockets.length > 1 ? delays[0] : null,
    open: m.socket.isOpen,
    bannerSeen,
    toasts: document.querySelectorAll('#toasts .toast').length - toastsBefore,
  };
  m.socket.close();
  return result;
}"""


def _after_close(browser: Any, server: str, code: int) -> dict[str, Any]:
    context = browser.new_context(base_url=server)
    try:
        page = context.new_page()
        page.goto("/")
        result: dict[str, Any] = page.evaluate(AFTER_CLOSE, code)
        return result
    finally:
        context.close()


def test_a_1012_close_reconnects_at_once_and_quietly(browser: Any, server: str) -> None:
    result = _after_close(browser, server, 1012)
    print(f"\nbrowser: reconnect {result['reconnectMs']:.0f} ms after a 1012")
    assert result["states"] == ["connecting", "open", "connecting", "connecting", "open"]
    assert result["open"] is True
    assert result["reconnectMs"] < 400  # at once: spread over 250 ms, no back-off
    assert result["bannerSeen"] is False
    assert result["toasts"] == 0


def test_another_drop_still_backs_off_with_the_banner(browser: Any, server: str) -> None:
    result = _after_close(browser, server, 1006)
    assert result["states"][:4] == ["connecting", "open", "retrying", "connecting"]
    assert result["reconnectMs"] >= 300  # the first back-off: 400 ms ± 20 %
    assert result["bannerSeen"] is True
    assert result["toasts"] == 1  # "reconnected"
