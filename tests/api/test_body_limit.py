"""The app's own request-body limit: declared or streamed, a large body gets 413 unread."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.support.client import Api

pytestmark = pytest.mark.timeout(60)

LIMIT = 64 * 1024  # the default MAX_BODY_BYTES


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_large_bodies_are_refused_declared_or_streamed(api: Api, client: TestClient) -> None:
    _, _, headers = api.player()
    # The session's database holds other tests' open tables: compare with what was there.
    before = client.get("/api/lobbies").json()["lobbies"]
    big = b'{"name": "' + b"x" * (2 * LIMIT) + b'"}'
    r = client.post(
        "/api/lobbies", content=big, headers={**headers, "Content-Type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "validation_error", r.text

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        yield b'{"name": "'
        for _ in range(50):
            yield b"y" * 8192
        yield b'"}'

    r = client.post(
        "/api/lobbies", content=chunks(), headers={**headers, "Content-Type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "validation_error", r.text
    assert client.get("/api/lobbies").json()["lobbies"] == before  # nothing was created
    small = client.post("/api/lobbies", json={"name": "z" * 20}, headers=headers)
    assert small.status_code == 201, small.text
