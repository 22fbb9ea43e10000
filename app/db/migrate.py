"""Run the Alembic migrations of ``migrations/`` programmatically (``carcassonne serve``, tests).

Synchronous: call these before an event loop runs (the async ``env.py`` starts its own).
On Postgres every run holds a transaction-level advisory lock (:func:`serialise_migrations`), so
instances started at once on an empty database migrate it one after the other: the first
applies the migrations, the others then find it at head and do nothing.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection

from app.db.session import ensure_sqlite_dir

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


def upgrade(url: str, migrations_dir: Path, revision: str = "head") -> None:
    """Migrate the database at ``url`` up to ``revision`` (creates a SQLite file's folder)."""
    ensure_sqlite_dir(url)
    cfg = alembic_config(url, migrations_dir)
    _outside_any_loop(lambda: command.upgrade(cfg, revision))


def downgrade(url: str, migrations_dir: Path, revision: str = "base") -> None:
    """Migrate the database at ``url`` down to ``revision``."""
    cfg = alembic_config(url, migrations_dir)
    _outside_any_loop(lambda: command.downgrade(cfg, revision))
