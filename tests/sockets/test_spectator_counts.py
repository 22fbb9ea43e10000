"""The lobby list's spectator counts are the same on every instance (shared through Redis)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.settings import Settings
from tests.support.client import Api, receive

pytestmark = [pytest.mark.timeout(120)]


@pytest.mark.parametrize(
    "backend",
    [pytest.param("postgres", marks=[pytest.mark.postgres, pytest.mark.redis])],
    indirect=True,
)
def test_spectators_on_one_instance_count_on_the_other(settings: Settings) -> None:
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        match_id, _, _ = Api(a).match()

        def listed(client: TestClient) -> int:
            for m in client.get("/api/lobbies").json()["matches"]:
                if m["id"] == match_id:
                    return int(m["spectators"])
            raise AssertionError("match not listed")

        with (
            a.websocket_connect(f"/ws/matches/{match_id}") as one,
            a.websocket_connect(f"/ws/matches/{match_id}") as two,
        ):
            receive(one), receive(two)
            assert listed(a) == 2
            assert listed(b) == 2  # b holds no socket of this match
        deadline = time.monotonic() + 10
        while listed(b) and time.monotonic() < deadline:  # the close is written just after
            time.sleep(0.1)
        assert listed(b) == 0
