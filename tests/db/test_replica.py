"""``DATABASE_REPLICA_URL``: the reads that may lag (history, profiles, statistics, the
leaderboard, record exports) go to the replica; everything else to the primary.

A second, separately migrated database stands in for the replica: it receives no
replication, so a read answered from it shows which database a route asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from app.api.app import create_app
from app.db.models import players
from app.db.session import Database
from tests.support.app import make_settings
from tests.support.client import Api
from tests.support.services import MIGRATIONS, create_pg_database, drop_pg_database, upgrade

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(120)]


@pytest.fixture
def replica_url() -> Iterator[str]:
    """A migrated database of this test only, standing in for a read replica."""
    url = create_pg_database()
    try:
        upgrade(url, MIGRATIONS)
        yield url
    finally:
        drop_pg_database(url)


def test_lagging_reads_go_to_the_replica(
    postgres_url: str, replica_url: str, channel_prefix: str, frontend: Path
) -> None:
    settings = make_settings(
        postgres_url, None, channel_prefix, frontend, database_replica_url=replica_url
    )
    with TestClient(create_app(settings)) as client:
        api = Api(client)
        rt: Any = client.app.state.runtime  # type: ignore[attr-defined]
        player, _, headers = api.player("Ann")  # written to the primary
        # Reads that may lag ask the replica, which does not know Ann yet.
        for path in ("matches", "profile", "statistics"):
            api.get(f"/api/players/{player}/{path}", status=404)
        # Everything else reads the primary.
        assert api.get("/api/me", headers)["id"] == player
        match_id, _, _ = api.match()
        assert api.get(f"/api/matches/{match_id}")["version"] == 0

        async def replicate_ann() -> None:
            async with rt.storage.db.reading() as conn:
                row = (await conn.execute(select(players).where(players.c.id == player))).one()
            async with rt.storage.replica.transaction() as conn:
                await conn.execute(insert(players).values(**row._mapping))

        client.portal.call(replicate_ann)  # type: ignore[union-attr]
        assert api.get(f"/api/players/{player}/matches")["total"] == 0
        assert api.get(f"/api/players/{player}/profile")["played"] == 0
        assert api.get(f"/api/players/{player}/statistics")["played"] == 0


def test_without_a_replica_every_read_is_the_primary(
    postgres_url: str, channel_prefix: str, frontend: Path
) -> None:
    settings = make_settings(postgres_url, None, channel_prefix, frontend)
    with TestClient(create_app(settings)) as client:
        rt: Any = client.app.state.runtime  # type: ignore[attr-defined]
        assert rt.storage.replica is rt.storage.db
        assert isinstance(rt.storage.db, Database)
        player, _, _ = Api(client).player("Ben")
        assert Api(client).get(f"/api/players/{player}/matches")["total"] == 0
