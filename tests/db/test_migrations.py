"""Alembic: upgrade to head, downgrade to base, upgrade again — on Postgres and SQLite; and the
migrated schema matches the models.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import insert, inspect, select, text

from app.db.migrate import downgrade, upgrade
from app.db.models import Base, lobbies, matches, utcnow
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


def _unnamed_tables(url: str) -> None:
    """Two tables without a name and one named, in the schema at head."""

    async def run() -> None:
        engine = create_engine(url, 1, 0)
        now = utcnow()
        seats = [
            {"seat": 0, "player": "p-ben", "name": "Ben", "colour": "red", "bot": False},
            {"seat": 1, "player": "p-ann", "name": "Ann", "colour": "blue", "bot": False},
        ]
        lobby = dict(
            host_id="p-ann", private=False, preset="standard", rules={}, max_seats=2,
            seats=seats, status="open", match_id=None, version=1, created_at=now,
            updated_at=now, rated=False, time_control=None,
        )  # fmt: skip
        match = dict(
            lobby_code="L1", private=False, status="live", seats=seats, rules={}, setup={},
            snapshot={}, snapshot_version=0, version=0, seat_to_act=0, turn=1, scores=[0, 0],
            next_bot_at=None, rematch_code=None, created_at=now, updated_at=now,
            finished_at=None,
        )  # fmt: skip
        try:
            async with engine.begin() as conn:
                await conn.execute(insert(lobbies).values(code="L1", name=None, **lobby))
                await conn.execute(insert(lobbies).values(code="L2", name="Old school", **lobby))
                await conn.execute(
                    insert(matches).values(id="M1", name=None, clock={"host": 1}, **match)
                )
                await conn.execute(insert(matches).values(id="M2", name=None, clock=None, **match))
        finally:
            await engine.dispose()

    run_async(run)


def _names(url: str) -> dict[str, str | None]:
    async def run() -> dict[str, str | None]:
        engine = create_engine(url, 1, 0)
        try:
            async with engine.connect() as conn:
                rows = [*await conn.execute(select(lobbies.c.code, lobbies.c.name))]
                rows += [*await conn.execute(select(matches.c.id, matches.c.name))]
                version = await conn.execute(text("SELECT version_num FROM alembic_version"))
                rows.append(("version", version.scalar_one()))
                return {key: name for key, name in rows}
        finally:
            await engine.dispose()

    return run_async(run)


def _unnamed_round_trip(url: str) -> None:
    upgrade(url, MIGRATIONS)
    _unnamed_tables(url)
    downgrade(url, MIGRATIONS, "0005_i9_notes")
    # Back to the English default the server stored before names were optional.
    assert _names(url) == {
        "L1": "Ann's table",
        "L2": "Old school",
        "M1": "Ann's table",
        "M2": "Table",
        "version": "0005_i9_notes",
    }
    upgrade(url, MIGRATIONS)
    assert _inspect(url)[1] == []


def test_downgrading_names_tables_without_one_on_sqlite(tmp_path: Path) -> None:
    _unnamed_round_trip(f"sqlite+aiosqlite:///{tmp_path / 'n.db'}")


@pytest.mark.postgres
def test_downgrading_names_tables_without_one_on_postgres(fresh_postgres: str) -> None:
    _unnamed_round_trip(fresh_postgres)


def test_files_are_numbered_in_chain_order_and_say_what_they_do() -> None:
    """File ``NNNN_<words>.py`` is the NNNN-th revision of the chain (revision ids may be older
    names and stay as they are, so existing databases upgrade); no name carries a work item.
    """
    import re

    revisions: dict[str | None, tuple[str, str]] = {}
    for path in sorted((Path(MIGRATIONS) / "versions").glob("*.py")):
        text_ = path.read_text()
        rev = re.search(r'^revision: str = "([^"]+)"', text_, re.M)
        down = re.search(r'^down_revision: str \| None = (None|"([^"]+)")', text_, re.M)
        assert rev and down, path.name
        revisions[down.group(2)] = (rev.group(1), path.name)
    chain, parent = [], None
    while parent in revisions:
        rev, name = revisions[parent]
        chain.append(name)
        parent = rev
    assert len(chain) == len(revisions), "the revisions form one chain"
    for place, name in enumerate(chain, start=1):
        assert name.startswith(f"{place:04d}_"), (place, name)
        assert not re.search(r"_i\d+_|issue", name), name


def test_a_database_at_head_is_recognised_without_alembic(tmp_path: Path) -> None:
    """A restart finds the database at head by one read (``at_head``); a database one
    revision behind, a missing file or a missing table is not at head, and ``upgrade`` then
    migrates it.
    """
    from app.db.migrate import at_head, head_revision

    versions = sorted((Path(MIGRATIONS) / "versions").glob("*.py"))
    newest = versions[-1].read_text()
    assert f'revision: str = "{head_revision(Path(MIGRATIONS))}"' in newest
    url = f"sqlite+aiosqlite:///{tmp_path / 'at_head.db'}"
    assert not at_head(url, Path(MIGRATIONS))  # no file yet
    upgrade(url, MIGRATIONS)
    assert at_head(url, Path(MIGRATIONS))
    downgrade(url, MIGRATIONS, "-1")
    assert not at_head(url, Path(MIGRATIONS))
    upgrade(url, MIGRATIONS)
    assert at_head(url, Path(MIGRATIONS))
    assert not at_head("sqlite+aiosqlite:///" + str(tmp_path / "missing" / "x.db"), MIGRATIONS)


def _lobby_before_settings(url: str) -> None:
    """At revision 0023 (no ``lobbies.settings``): two lobbies as the release before wrote them."""

    async def run() -> None:
        engine = create_engine(url, 1, 0)
        now = utcnow()
        seats = [{"seat": 0, "player": "p-ann", "name": "Ann", "colour": "red", "bot": False}]
        timed = {
            "kind": "fischer", "bank": 300, "increment": 10,
            "timeout_policy": {"kind": "skip"}, "aids": {"mode": "off"},
        }  # fmt: skip
        common = dict(
            host_id="p-ann", private=False, preset="standard", rules={"river": False},
            max_seats=2, seats=seats, status="open", match_id=None, created_at=now,
            updated_at=now, rated=False, language="de", best_of=None, spectator_delay=None,
        )  # fmt: skip
        try:
            async with engine.begin() as conn:
                await conn.execute(
                    insert(lobbies).values(
                        code="T1", name="Timed", version=4, time_control=timed, **common
                    )
                )
                await conn.execute(
                    insert(lobbies).values(
                        code="T2", name=None, version=1, time_control=None, **common
                    )
                )
        finally:
            await engine.dispose()

    run_async(run)


def _settings_round_trip(url: str) -> None:
    from app.services.lobby.model import TableSettings
    from app.services.lobby.queries import table_settings

    upgrade(url, MIGRATIONS, "0023_matches_fillfactor")
    _lobby_before_settings(url)
    upgrade(url, MIGRATIONS)

    async def run() -> list[dict[str, object]]:
        engine = create_engine(url, 1, 0)
        try:
            async with engine.connect() as conn:
                rows = await conn.execute(select(lobbies).order_by(lobbies.c.code))
                return [dict(r._mapping) for r in rows]
        finally:
            await engine.dispose()

    rows = run_async(run)
    assert [r["code"] for r in rows] == ["T1", "T2"]
    for row in rows:
        stamped = row["settings"]
        assert isinstance(stamped, dict) and stamped["at_version"] == row["version"]
        # The backfill reads as this release reads the older columns, field for field.
        assert TableSettings.from_json(stamped, int(row["version"])) == table_settings(
            {**row, "settings": None}  # type: ignore[arg-type]
        )
    timed = rows[0]["settings"]
    assert isinstance(timed, dict)
    assert timed["time_control"] == {"kind": "fischer", "bank": 300, "increment": 10}
    assert timed["timeout_policy"] == {"kind": "skip"} and timed["aids"] == {"mode": "off"}
    downgrade(url, MIGRATIONS, "0023_matches_fillfactor")
    upgrade(url, MIGRATIONS)
    assert _inspect(url)[1] == []


def test_table_settings_backfilled_on_sqlite(tmp_path: Path) -> None:
    """Migration 0024 stamps each lobby's settings, read as the older columns read."""
    _settings_round_trip(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")


@pytest.mark.postgres
def test_table_settings_backfilled_on_postgres(fresh_postgres: str) -> None:
    """Migration 0024 stamps each lobby's settings, read as the older columns read."""
    _settings_round_trip(fresh_postgres)
