"""Open tables are an ownership budget (docs/API.md § Limits): one player hosts at most
``LOBBIES_PER_HOST`` open tables at once — at the budget a new table replaces the oldest one
where nobody else sits, and is refused when every one has others seated — and a table
unchanged for a day (``IDLE``) is no longer listed nor counted. Before, a guest could keep as
many open tables as the lobby rate allowed, for ever, and fill the public list.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.api.app import create_app
from app.db.models import lobbies, utcnow
from app.services.lobby.lobby import IDLE
from tests.support.app import make_settings
from tests.support.client import Api
from tests.support.services import MIGRATIONS, upgrade

pytestmark = pytest.mark.timeout(120)


def test_a_host_keeps_a_few_open_tables_and_idle_ones_stop_counting(
    tmp_path: Path, frontend: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'budget.db'}"
    upgrade(url, MIGRATIONS)
    settings = make_settings(
        url, None, f"budget-{secrets.token_hex(3)}", frontend, lobbies_per_host=2
    )
    with TestClient(create_app(settings)) as client:
        api = Api(client)
        _, _, ann = api.player("Ann")
        _, _, ben = api.player("Ben")
        first = api.lobby(ann, seats=2)["code"]
        second = api.lobby(ann, seats=3)["code"]
        api.post(f"/api/lobbies/{second}/join", ben)
        third = api.lobby(ann, seats=2)["code"]  # replaces the first, where Ann sat alone
        assert api.get(f"/api/lobbies/{first}")["status"] == "closed"
        api.post(f"/api/lobbies/{third}/join", ben)
        r = client.post("/api/lobbies", json={"seats": 2}, headers=ann)
        assert r.status_code == 409, r.text  # both have Ben seated: nothing to replace
        assert r.json()["error"]["reason"] == "lobby_budget"
        assert r.json()["error"]["params"] == {"max": 2}
        api.lobby(ben, seats=2)  # another host's budget is their own

        async def idle() -> None:
            rt = client.app.state.runtime  # type: ignore[attr-defined]
            async with rt.storage.db.transaction() as conn:
                await conn.execute(
                    update(lobbies)
                    .where(lobbies.c.code == second)
                    .values(updated_at=utcnow() - IDLE - IDLE / 24)
                )

        client.portal.call(idle)  # type: ignore[union-attr]
        listed = {t["code"] for t in api.get("/api/lobbies")["lobbies"]}
        assert second not in listed and third in listed
        api.lobby(ann, seats=2)  # the idle table no longer counts
