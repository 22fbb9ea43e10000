"""A table's settings in one column (``lobbies.settings``, migration 0024) beside the older
columns a release before it reads: both written alike on every change, the column read only
where it was written at the row's version, so a row the release before changed reads from the
older columns (a rolling upgrade runs both releases on one database).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db.models import lobbies
from tests.support.client import Api

pytestmark = pytest.mark.timeout(60)

TIMED = {"kind": "fischer", "bank": 300, "increment": 10}


def _row(client: TestClient, code: str) -> dict[str, Any]:
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> dict[str, Any]:
        async with rt.storage.db.transaction() as conn:
            found = (await conn.execute(select(lobbies).where(lobbies.c.code == code))).one()
            return dict(found._mapping)

    row: dict[str, Any] = client.portal.call(run)  # type: ignore[union-attr]
    return row


def _older_release_writes(client: TestClient, code: str, **values: Any) -> None:
    """Change the older columns as the release before does: a new version, ``settings`` left."""
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(lobbies)
                .where(lobbies.c.code == code)
                .values(version=lobbies.c.version + 1, **values)
            )

    client.portal.call(run)  # type: ignore[union-attr]


def test_a_new_table_stores_its_settings_in_one_column(api: Api) -> None:
    _, _, ann = api.player("Ann")
    made = api.lobby(
        ann,
        seats=3,
        name="Friday",
        preset="river",
        time_control=TIMED,
        timeout_policy={"kind": "skip"},
        aids={"mode": "learning"},
        best_of=3,
        spectator_delay={"moves": 2},
    )
    row = _row(api.client, made["code"])
    settings = row["settings"]
    assert settings["format"] == 1 and settings["at_version"] == row["version"] == 1
    assert settings["time_control"] == TIMED
    assert settings["timeout_policy"] == {"kind": "skip"}
    assert settings["aids"]["mode"] == "learning"
    assert (settings["name"], settings["preset"], settings["best_of"]) == ("Friday", "river", 3)
    assert settings["spectator_delay"] == {"moves": 2} and settings["rules"] == row["rules"]
    # The older columns, as the release before reads them: the time options packed in one.
    assert row["time_control"] == {
        **TIMED,
        "timeout_policy": {"kind": "skip"},
        "aids": settings["aids"],
    }
    assert (row["name"], row["preset"], row["best_of"]) == ("Friday", "river", 3)


def test_every_change_stamps_the_settings_at_the_new_version(api: Api) -> None:
    _, _, ann = api.player("Ann")
    code = api.lobby(ann, seats=2)["code"]
    changed = api.client.patch(
        f"/api/lobbies/{code}", headers=ann, json={"name": "Late game", "time_control": TIMED}
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["name"] == "Late game" and changed.json()["time_control"] == TIMED
    row = _row(api.client, code)
    assert row["settings"]["at_version"] == row["version"] == 2
    assert row["settings"]["name"] == row["name"] == "Late game"
    assert row["settings"]["time_control"] == TIMED
    # A change of no setting (a seat) stamps it too: the column is never behind the row.
    _, _, ben = api.player("Ben")
    api.post(f"/api/lobbies/{code}/join", ben)
    row = _row(api.client, code)
    assert row["settings"]["at_version"] == row["version"] == 3


def test_a_row_the_release_before_changed_reads_from_the_older_columns(api: Api) -> None:
    _, _, ann = api.player("Ann")
    code = api.lobby(ann, seats=2, name="Before")["code"]
    _older_release_writes(
        api.client, code, name="Renamed by the release before", time_control=TIMED
    )
    seen = api.get(f"/api/lobbies/{code}")
    assert seen["name"] == "Renamed by the release before"
    assert seen["time_control"] == TIMED
    # The next change by this release writes the column anew from what the row holds.
    api.client.patch(f"/api/lobbies/{code}", headers=ann, json={"private": True})
    row = _row(api.client, code)
    assert row["settings"]["at_version"] == row["version"]
    assert row["settings"]["name"] == "Renamed by the release before"
    assert row["settings"]["time_control"] == TIMED and row["settings"]["private"] is True
