"""The interactive API docs and the OpenAPI schema are for developers: a production instance
serves neither (before, ``/docs`` and ``/openapi.json`` answered there); development and test
instances serve both.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from tests.support.app import make_settings

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("environment", ["production", "development"])
def test_docs_and_schema_only_outside_production(
    sqlite_url: str, frontend: Path, environment: str
) -> None:
    settings = make_settings(
        sqlite_url,
        None,
        f"docs-{secrets.token_hex(3)}",
        frontend,
        environment=environment,
        secret_key=secrets.token_hex(32),
    )
    with TestClient(create_app(settings, with_loops=False)) as client:
        schema = client.get("/openapi.json")
        docs = client.get("/docs")
        assert client.get("/healthz").status_code == 200
    if environment == "production":
        assert schema.status_code == 404
        assert "swagger" not in docs.text.lower()
    else:
        assert schema.status_code == 200 and "paths" in schema.json()
        assert "swagger" in docs.text.lower()
