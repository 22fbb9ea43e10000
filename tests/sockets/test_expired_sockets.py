"""A socket or a bot's stream outlives no token: one whose token expires while it is open is
closed by the revocation sweep (``unauthorized`` frame, 4401), as a revoked one is. Before,
the sweep compared generations and sessions only, so a socket opened just before its token
expired stayed open for good.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services.community.socket_revocation import sweep_once
from app.services.sockets.held import REVOKED
from tests.support.client import Api

pytestmark = pytest.mark.timeout(60)


def test_the_sweep_closes_a_socket_whose_token_expired(client: TestClient, api: Api) -> None:
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    pid, _, _ = api.player("Ann")
    closed: list[tuple[str, int]] = []

    async def close(frame: str, code: int, reason: str) -> None:
        closed.append((frame, code))

    async def run() -> tuple[int, int]:
        with (
            rt.fanout.open_sockets.hold(pid, 0, None, close, time.time() - 1),
            rt.fanout.open_sockets.hold(pid, 0, None, close, time.time() + 3600),
        ):
            return await sweep_once(rt), len(rt.fanout.open_sockets.players())

    swept, held = client.portal.call(run)  # type: ignore[union-attr]
    assert swept == 1 and held == 1
    assert len(closed) == 1 and closed[0][1] == REVOKED
    assert '"unauthorized"' in closed[0][0] and "expired" in closed[0][0]


def test_a_real_socket_is_held_with_its_tokens_expiry(client: TestClient, api: Api) -> None:
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    match_id, people, _ = api.match()
    token = people[0][1]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        ws.receive_text()

        async def expiries() -> list[Any]:
            return [h.expires for held in rt.fanout.open_sockets._by_player.values() for h in held]

        found = client.portal.call(expiries)  # type: ignore[union-attr]
    lifetime = rt.settings.token_lifetime
    assert found and all(e is not None and e > time.time() for e in found)
    assert all(e <= time.time() + lifetime + 5 for e in found)
