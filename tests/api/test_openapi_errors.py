"""The OpenAPI schema documents the error answers each endpoint gives."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.timeout(60)

EXPECTED = {
    ("post", "/api/players"): {"413", "422", "429"},
    ("get", "/api/me"): {"401", "404"},
    ("post", "/api/lobbies"): {"401", "413", "422", "429"},
    ("get", "/api/lobbies/{code}"): {"404", "422"},
    ("patch", "/api/lobbies/{code}"): {"401", "403", "404", "409", "413", "422"},
    ("post", "/api/lobbies/{code}/join"): {"401", "404", "409"},
    ("post", "/api/lobbies/{code}/start"): {"401", "403", "404", "409"},
    ("delete", "/api/lobbies/{code}/bots/{seat}"): {"401", "403", "404", "409"},
    ("get", "/api/matches/{match_id}"): {"401", "403", "404", "422"},
    ("post", "/api/matches/{match_id}/actions"): {"401", "403", "404", "409", "413", "422", "429"},
    ("get", "/api/matches/{match_id}/events"): {"401", "403", "404", "422"},
    ("post", "/api/matches/{match_id}/rematch"): {"401", "403", "404", "409"},
}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_error_answers_are_in_the_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for (method, path), statuses in EXPECTED.items():
        answers = paths[path][method]["responses"]
        assert statuses <= set(answers), (method, path, sorted(answers))
        for status in statuses - {"422"}:
            schema = answers[status]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (path, status)
    # every route that takes a token says what a bad one gets
    for path, operations in paths.items():
        for method, operation in operations.items():
            if operation.get("security"):
                assert "401" in operation["responses"], (method, path)
