"""Run the Alembic migrations of ``migrations/`` programmatically (``carcassonne serve``, tests).

Synchronous: call these before an event loop runs (the async ``env.py`` starts its own).
A database already at the newest revision is recognised without Alembic (:func:`at_head`:
one query), so a restart does not pay Alembic's ~0.15 s import.
On Postgres every run holds a transaction-level advisory lock (:func:`serialise_migrations`), so
instances started at once on an empty database migrate it one after the other: the first
applies the migrations, the others then find it at head and do nothing.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.db.session import create_engine, ensure_sqlite_dir

if TYPE_CHECKING:
    from alembic.config import Config

#: The advisory lock key of migrations (any constant 64-bit number; "carc" "migr" in ASCII).
MIGRATION_LOCK_KEY = 0x63617263_6D696772


def serialise_migrations(connection: Connection) -> None:
    """Wait for (and hold until the transaction ends) the migration lock, on Postgres.

    Called by ``migrations/env.py`` first thing in its transaction, before Alembic reads the
    current revision. SQLite needs none (one file, one writer at a time).
    """
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})


def alembic_config(url: str, migrations_dir: Path) -> Config:
    """An Alembic config for ``url`` with scripts in ``migrations_dir``."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir))
    cfg.attributes["url"] = url
    return cfg


def _outside_any_loop(fn: Callable[[], None]) -> None:
    """Run ``fn`` here, or in a helper thread when this thread already runs an event loop
    (``env.py`` starts its own loop with ``asyncio.run``).
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        fn()
        return
    errors: list[BaseException] = []

    def target() -> None:
        try:
            fn()
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=target, name="alembic")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


_REVISION = re.compile(r'^revision: str = "([^"]+)"', re.M)
_DOWN = re.compile(r'^down_revision: str \| None = (?:None|"([^"]+)")', re.M)


def head_revision(migrations_dir: Path) -> str | None:
    """The newest revision id of ``migrations_dir/versions`` (the one no other revision names
    as its ``down_revision``); None when the files do not form one chain as written.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (migrations_dir / "versions").glob("*.py"):
        source = path.read_text()
        rev, down = _REVISION.search(source), _DOWN.search(source)
        if rev is None or down is None:
            return None
        revisions.add(rev.group(1))
        if down.group(1):
            parents.add(down.group(1))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


def at_head(url: str, migrations_dir: Path) -> bool:
    """True when the database at ``url`` already holds the newest revision (one read of
    ``alembic_version``; False for a missing database, table or any doubt).
    """
    head = head_revision(migrations_dir)
    if head is None:
        return False

    async def current() -> list[str]:
        engine = create_engine(url, pool_size=1, max_overflow=0)
        try:
            async with engine.connect() as conn:
                rows = await conn.execute(text("SELECT version_num FROM alembic_version"))
                return [str(r[0]) for r in rows]
        finally:
            await engine.dispose()

    try:
        found: list[list[str]] = []
        _outside_any_loop(lambda: found.append(asyncio.run(current())))
    except Exception:  # noqa: BLE001 - any doubt: Alembic decides (and reports the real error)
        return False
    return found[0] == [head]


def upgrade(url: str, migrations_dir: Path, revision: str = "head") -> None:
    """Migrate the database at ``url`` up to ``revision`` (creates a SQLite file's folder)."""
    ensure_sqlite_dir(url)
    if revision == "head" and at_head(url, migrations_dir):
        return
    from alembic import command

    cfg = alembic_config(url, migrations_dir)
    _outside_any_loop(lambda: command.upgrade(cfg, revision))


def downgrade(url: str, migrations_dir: Path, revision: str = "base") -> None:
    """Migrate the database at ``url`` down to ``revision``."""
    from alembic import command

    cfg = alembic_config(url, migrations_dir)
    _outside_any_loop(lambda: command.downgrade(cfg, revision))
