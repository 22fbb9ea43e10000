"""A catch-up always ends with the whole view (docs/API.md, "Catch-up"), even when a move
commits while it reads the log: the cached match then has a later version and no view. Before,
the last frame took the view from the cache after that read and went out without it (the soak:
a client left with an incomplete view at the head of a match nobody moved on, until the
computer took every seat).
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from app.services.match import reads
from app.services.runtime import Runtime
from tests.support.client import Api, place_first

pytestmark = pytest.mark.timeout(60)


def test_the_last_frame_of_a_catch_up_carries_the_view_when_a_move_commits_meanwhile(
    api: Api, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id, people, _ = api.match(seats=2)
    for i in range(2):  # versions 1 and 2
        match = api.get(f"/api/matches/{match_id}")
        seat = match["state"]["seat"]
        body = {"v": match["version"], "id": f"a{i}", "d": place_first(match["state"])}
        api.post(f"/api/matches/{match_id}/actions", people[seat][2], **body)
    rt: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    original = reads.batches_since

    async def meanwhile(*args: Any, **kwargs: Any) -> Any:
        found = await original(*args, **kwargs)
        live = rt.storage.cache.get(match_id)
        assert live is not None
        live.version, live.view = live.version + 1, None  # what a commit does to the cache
        return found

    monkeypatch.setattr(reads, "batches_since", meanwhile)

    async def catch_up() -> list[tuple[int, str]]:
        return await reads.fetch_frames(rt, match_id, 0, None)

    frames = client.portal.call(catch_up)  # type: ignore[union-attr]
    assert [v for v, _ in frames] == [1, 2]
    last = orjson.loads(frames[-1][1])
    assert last["d"]["state"] is not None and last["d"]["state"]["turn"] >= 1
    rt.storage.cache.drop(match_id)
