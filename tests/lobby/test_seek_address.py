"""Two rated Play now seeks posted from one client address never pair with each other (one
person with two accounts would rate themself); a seek from another address pairs with either.
Before, two rated seeks of one person's two accounts made a rated match at once.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from app.services.lobby import seeks
from tests.support.app import make_settings
from tests.support.services import MIGRATIONS, upgrade

pytestmark = pytest.mark.timeout(60)
PASSWORD = "correct horse battery"


def _account(client: TestClient) -> tuple[str, dict[str, str]]:
    r = client.post(
        "/api/accounts", json={"username": f"A{secrets.token_hex(4)}", "password": PASSWORD}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return body["account"]["id"], {"Authorization": f"Bearer {body['token']}"}


def test_rated_seeks_of_one_address_do_not_pair(tmp_path: Path, frontend: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'seeks.db'}"
    upgrade(url, MIGRATIONS)
    settings = make_settings(
        url, None, f"seeks-{secrets.token_hex(3)}", frontend, seek_rated_same_address=False
    )
    body = {"players": 2, "preset": "standard", "rated": True}
    with TestClient(create_app(settings)) as client:
        (_, main), (_, sock) = _account(client), _account(client)
        first = client.post("/api/seeks", json=body, headers=main).json()
        second = client.post("/api/seeks", json=body, headers=sock).json()
        assert first["status"] == second["status"] == "open"  # one address: no pairing
        other, _ = _account(client)
        rt = client.app.state.runtime  # type: ignore[attr-defined]

        async def elsewhere() -> Any:
            return await seeks.create_seek(
                rt,
                other,
                players=2,
                preset="standard",
                rated=True,
                time_control=None,
                address="10.20.30.40",
            )

        got = client.portal.call(elsewhere)  # type: ignore[union-attr]
        assert got["status"] == "matched"
        states = [
            client.get(f"/api/seeks/{s['id']}", headers=h).json()["status"]
            for s, h in ((first, main), (second, sock))
        ]
        assert sorted(states) == ["matched", "open"]
