"""Identity, catalogue, presets, health, metrics and the static frontend."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.services.identity import Tokens
from tests.support.app import SECRET, make_settings
from tests.support.client import Api

pytestmark = pytest.mark.timeout(60)


def test_create_player_and_me(api: Api, client: TestClient) -> None:
    player_id, token, headers = api.player("  Ann   Marie ")
    me = api.get("/api/me", headers)
    assert me == {"id": player_id, "name": "Ann Marie"}
    assert token not in client.get("/api/me", headers=headers).text.replace(token, "", 0)


@pytest.mark.parametrize("name", ["", " ", "x" * 25, "<script>", "a\x00b", "tab\tname", "é" * 25])
def test_bad_names_are_refused(client: TestClient, name: str) -> None:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "validation_error"


def test_unicode_letters_and_punctuation_are_fine(api: Api) -> None:
    _, _, headers = api.player("Zoë O'Neil-Smith_2.0")
    assert api.get("/api/me", headers)["name"] == "Zoë O'Neil-Smith_2.0"


@pytest.mark.parametrize("header", [None, "Bearer nonsense", "Bearer ", "Basic abc"])
def test_me_needs_a_valid_token(client: TestClient, header: str | None) -> None:
    headers = {"Authorization": header} if header is not None else {}
    r = client.get("/api/me", headers=headers)
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "unauthorized"


def test_a_token_signed_with_another_key_is_refused(api: Api, client: TestClient) -> None:
    from app.services.identity import Tokens

    player_id, _, _ = api.player()
    forged = Tokens("some-other-secret-key-000").issue(player_id)
    r = client.get("/api/me", headers={"Authorization": f"Bearer {forged}"})
    assert r.status_code == 401


def test_catalogue_and_presets(api: Api) -> None:
    tiles = api.get("/api/catalogue")["tiles"]
    assert {"A", "D", "X"} <= {t["id"] for t in tiles}
    assert all({"id", "count", "edges", "segments"} <= set(t) for t in tiles)
    presets = api.get("/api/presets")["presets"]
    assert {"standard", "first_edition", "river"} <= set(presets)
    assert presets["river"]["river"] is True


def test_health_and_metrics(api: Api, client: TestClient) -> None:
    assert api.get("/healthz") == {"ok": True}
    assert api.get("/readyz") == {
        "ok": True,
        "database": True,
        "broker": True,
        "draining": False,
        "clocks": True,
    }
    text = client.get("/metrics").text
    for name in (
        "carcassonne_matches_live",
        "carcassonne_websocket_connections",
        "carcassonne_actions_applied",
        "carcassonne_action_latency_seconds",
    ):
        assert name in text


def test_static_frontend_is_served(client: TestClient) -> None:
    index = client.get("/")
    assert index.status_code == 200 and "<title>Carcassonne</title>" in index.text
    assert client.get("/app.js").text.startswith("export")
    assert client.get("/static/app.js").status_code == 200
    missing = client.get("/nothing-here.js")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_unknown_api_path_and_method(client: TestClient) -> None:
    assert client.get("/api/nope").json()["error"]["code"] == "not_found"
    r = client.put("/api/players", json={})
    assert r.status_code in (404, 405)
    assert "error" in r.json()


def test_old_tokens_are_renewed_and_expired_ones_refused(
    sqlite_url: str, channel_prefix: str, frontend: Path
) -> None:
    settings = make_settings(sqlite_url, None, channel_prefix, frontend, token_renew_after=0)
    with TestClient(create_app(settings)) as client:
        api = Api(client)
        player_id, _, headers = api.player("Ann")
        r = client.get("/api/me", headers=headers)
        fresh = r.headers["X-Renewed-Token"]
        assert r.status_code == 200 and fresh
        me = client.get("/api/me", headers={"Authorization": f"Bearer {fresh}"})
        assert me.json()["id"] == player_id
        expired = Tokens(SECRET, clock=lambda: time.time() - 40 * 24 * 3600).issue(player_id)
        r = client.get("/api/me", headers={"Authorization": f"Bearer {expired}"})
        assert r.status_code == 401 and "expired" in r.json()["error"]["message"]
        assert "X-Renewed-Token" not in client.get("/api/catalogue").headers
