"""Alembic: upgrade to head, downgrade to base, upgrade again — on Postgres and SQLite; and the
migrated schema matches the models.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.db.migrate import downgrade, upgrade
from app.db.models import Base
from app.db.session import create_engine
from tests.support.services import (
    MIGRATIONS,
    create_pg_database,
    drop_pg_database,
    run_async,
)

pytestmark = pytest.mark.timeout(120)

TABLES = {
    "players",
    "lobbies",
    "matches",
    "match_actions",
    "seat_presence",
    "chat_messages",
    "chat_mutes",
    "instance_heartbeats",
}


def _inspect(url: str) -> tuple[set[str], list[object]]:
    async def run() -> tuple[set[str], list[object]]:
        engine = create_engine(url, 1, 0)
        try:
            async with engine.connect() as conn:

                def look(sync_conn: object) -> tuple[set[str], list[object]]:
                    tables = set(inspect(sync_conn).get_table_names())
                    diff = compare_metadata(MigrationContext.configure(sync_conn), Base.metadata)
                    return tables, list(diff)

                return await conn.run_sync(look)
        finally:
            await engine.dispose()

    return run_async(run)


@pytest.fixture
def fresh_postgres() -> Iterator[str]:
    url = create_pg_database()
    yield url
    drop_pg_database(url)


def _round_trip(url: str) -> None:
    upgrade(url, MIGRATIONS)
    tables, diff = _inspect(url)
    assert tables >= TABLES
    assert diff == [], f"models and migrations differ: {diff}"
    downgrade(url, MIGRATIONS, "base")
    tables, _ = _inspect(url)
    assert not TABLES & tables
    upgrade(url, MIGRATIONS)
    assert _inspect(url)[0] >= TABLES


@pytest.mark.postgres
def test_upgrade_downgrade_upgrade_on_postgres(fresh_postgres: str) -> None:
    _round_trip(fresh_postgres)


def test_upgrade_downgrade_upgrade_on_sqlite(tmp_path: Path) -> None:
    _round_trip(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")


def test_serve_migrates_an_empty_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    url = "sqlite+aiosqlite:///var/carcassonne.db"
    upgrade(url, MIGRATIONS)
    assert (tmp_path / "var" / "carcassonne.db").is_file()
    assert _inspect(url)[0] >= TABLES
