"""A tournament's records as a zip: one JSON file per finished match, the same records as the
NDJSON export, each replaying to its result; 404 for an unknown tournament.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.engine import replay
from tests.support.client import Api

# A tournament of computers played out.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]


@pytest.fixture
def settings(backend: tuple[str, str | None], channel_prefix: str, frontend: Any) -> Any:
    """Fast computers: a whole game takes a moment."""
    from tests.support.app import make_settings

    return make_settings(backend[0], backend[1], channel_prefix, frontend, bot_think=0.0)


def test_records_zip(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    tid = api.post("/api/tournaments", host, 201, name="Zip", format="knockout")["id"]
    for _ in range(3):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    api.post(f"/api/tournaments/{tid}/start", host)
    deadline = time.monotonic() + 100
    data: dict[str, Any] = {}
    while time.monotonic() < deadline:
        data = api.get(f"/api/tournaments/{tid}", host)
        played = [p for p in data["pairings"] if p["match_id"]]
        if data["status"] == "finished" and all(p["match_status"] == "finished" for p in played):
            break
        time.sleep(0.3)
    assert data["status"] == "finished", data
    answer = client.get(f"/api/export/tournaments/{tid}/records.zip", headers=host)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/zip"
    assert "attachment" in answer.headers["content-disposition"]
    archive = zipfile.ZipFile(io.BytesIO(answer.content))
    assert archive.testzip() is None
    names = archive.namelist()
    lines = client.get(f"/api/export/tournaments/{tid}/matches", headers=host).text.splitlines()
    ndjson = [json.loads(line) for line in lines]
    assert len(names) == len(ndjson) == 2  # a semi-final (seed 1 has a bye) and the final
    for name, expected in zip(names, ndjson, strict=True):
        record = json.loads(archive.read(name))
        assert record == expected
        where = record["tournament"]
        assert name == (
            f"round-{where['round']:02d}-table-{where['table']:02d}-{record['match']['id']}.json"
        )
        state, _ = replay(record)
        assert list(state.scores) == record["result"]["scores"]
    missing = client.get("/api/export/tournaments/0123456789ab/records.zip", headers=host)
    assert missing.status_code == 404
