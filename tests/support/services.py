"""Real backing services for the tests: Postgres, Redis and SQLite, apart for each worker.

Postgres and Redis are the machine's (127.0.0.1:5432 user ``postgres``, 127.0.0.1:6379), used
as a client only. Each pytest-xdist worker (each session) gets its own Postgres database,
cloned from a migrated template (:mod:`tests.support.postgres`), its own SQLite file, copied
from a migrated one, and its own Redis key and channel prefix; servers take free ports. When
Postgres or Redis is missing the tests that need it are skipped with the reason, except under
``CI=true``, where they fail: CI must run them.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import secrets
import shutil
import tempfile
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from app.db.migrate import upgrade
from app.settings import ROOT
from tests.support import postgres as pg

PG_ADMIN_URL = pg.PG_ADMIN_URL
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
MIGRATIONS = ROOT / "migrations"
T = TypeVar("T")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def run_async(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion on a fresh loop in a helper thread (works even when the
    calling thread already runs a loop, as Playwright's sync API leaves one running).
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(factory())
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return cast(T, box["value"])


def unavailable(what: str, why: str) -> None:
    """Fail under CI, skip elsewhere, naming what is missing."""
    message = f"{what} is not reachable ({why})"
    if IN_CI:
        pytest.fail(f"{message}: CI=true requires it", pytrace=False)
    pytest.skip(f"{message}; start it or run under CI=true to make this a failure")


def create_pg_database(migrated: bool = False) -> str:
    """A new database next to the admin one (empty, or ``migrated``: cloned from the
    migrated template); returns its SQLAlchemy URL.
    """
    try:
        if migrated:
            return run_async(pg.create_migrated)
        return run_async(pg.create_empty)
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        unavailable("Postgres", f"{type(exc).__name__}: {exc}")
        raise  # unreachable: unavailable() skips or fails


def drop_pg_database(url: str) -> None:
    """Drop a database made by :func:`create_pg_database` (closing its connections)."""
    with contextlib.suppress(Exception):  # best effort
        run_async(lambda: pg.drop(url))


def check_postgres(url: str = PG_ADMIN_URL) -> None:
    """Skip (or fail under CI) when the admin database does not answer."""
    try:
        run_async(lambda: pg.execute(url, "SELECT 1"))
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        unavailable("Postgres", f"{type(exc).__name__}: {exc}")


def check_redis(url: str = REDIS_URL) -> None:
    """Skip (or fail under CI) when Redis does not answer PING."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        client.ping()
        client.close()
    except Exception as exc:  # noqa: BLE001
        unavailable("Redis", f"{type(exc).__name__}: {exc}")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A migrated Postgres database of this worker's own (cloned from the template)."""
    url = create_pg_database(migrated=True)
    try:
        yield url
    finally:
        drop_pg_database(url)


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The machine's Redis (checked)."""
    check_redis()
    return REDIS_URL


_SQLITE_TEMPLATE: list[Path] = []


def migrated_sqlite() -> Path:
    """A SQLite file at the migrations' head, made once per process: copy it, never write it
    (``shutil.copyfile`` costs a millisecond, migrating a new file a second or more).
    """
    if not _SQLITE_TEMPLATE:
        path = Path(tempfile.mkdtemp(prefix="carcassonne-sqlite-")) / "template.db"
        upgrade(f"sqlite+aiosqlite:///{path}", MIGRATIONS)
        atexit.register(shutil.rmtree, path.parent, True)
        _SQLITE_TEMPLATE.append(path)
    return _SQLITE_TEMPLATE[0]


def sqlite_copy(folder: Path, name: str = "test.db") -> str:
    """The URL of a new migrated SQLite file in ``folder`` (a copy of :func:`migrated_sqlite`)."""
    path = folder / name
    shutil.copyfile(migrated_sqlite(), path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A migrated SQLite file of this worker's own."""
    return sqlite_copy(tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="session")
def channel_prefix(worker_id: str) -> str:
    """The Redis key and channel prefix of this worker (keeps workers and parallel runs apart
    on one Redis): ``test-<worker>-<random>``.
    """
    return f"test-{worker_id}-{secrets.token_hex(4)}"
