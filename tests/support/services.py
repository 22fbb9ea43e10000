"""Real backing services for the tests: a fresh Postgres database per session, Redis, SQLite.

Postgres and Redis are the machine's (127.0.0.1:5432 user ``postgres``, 127.0.0.1:6379). When
one is missing the tests that need it are skipped with the reason, except under ``CI=true``,
where they fail: CI must run them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar, cast

import pytest

from app.db.migrate import upgrade
from app.settings import ROOT

__all__ = ["channel_prefix", "postgres_url", "redis_url", "sqlite_url"]

PG_ADMIN_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
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


def _asyncpg_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _pg(url: str, *statements: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_asyncpg_dsn(url), timeout=5)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


def create_pg_database() -> str:
    """A new empty database next to the admin one; returns its SQLAlchemy URL."""
    name = f"carc_test_{secrets.token_hex(5)}"
    try:
        run_async(lambda: _pg(PG_ADMIN_URL, f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        unavailable("Postgres", f"{type(exc).__name__}: {exc}")
    base, _, _ = PG_ADMIN_URL.rpartition("/")
    return f"{base}/{name}"


def drop_pg_database(url: str) -> None:
    """Drop a database made by :func:`create_pg_database` (closing its connections)."""
    name = url.rpartition("/")[2]
    with contextlib.suppress(Exception):  # best effort
        run_async(lambda: _pg(PG_ADMIN_URL, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def check_postgres(url: str = PG_ADMIN_URL) -> None:
    """Skip (or fail under CI) when the admin database does not answer."""
    try:
        run_async(lambda: _pg(url, "SELECT 1"))
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


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh, migrated Postgres database for this test session."""
    url = create_pg_database()
    try:
        upgrade(url, MIGRATIONS)
        yield url
    finally:
        drop_pg_database(url)


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The machine's Redis (checked)."""
    check_redis()
    return REDIS_URL


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A migrated SQLite file for this test session."""
    path: Path = tmp_path_factory.mktemp("db") / "test.db"
    url = f"sqlite+aiosqlite:///{path}"
    upgrade(url, MIGRATIONS)
    return url


@pytest.fixture(scope="session")
def channel_prefix() -> str:
    """A broker channel prefix of this session (keeps parallel runs apart on one Redis)."""
    return f"test-{secrets.token_hex(4)}"
