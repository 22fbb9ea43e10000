"""Postgres databases for the tests: one migrated template per migration set, cloned per worker.

Migrating a database costs seconds (Alembic, 20-odd revisions); cloning a migrated one costs
milliseconds. The first worker that needs Postgres builds ``carc_tpl_<digest>`` (the digest is
of the ``migrations/`` files, so a new revision makes a new template and the old ones are
dropped), holding an advisory lock so the other workers wait for it instead of building their
own; every worker then clones it with ``CREATE DATABASE ... TEMPLATE``. A template outlives the
run (the next run starts from it), a clone is dropped when its session ends.

Everything here runs on the machine's Postgres as a client (``TEST_DATABASE_URL``, default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``): it creates and drops databases whose
names start with ``carc_``, and never stops, restarts or reconfigures the cluster. Tests that
restart Postgres use :mod:`tests.support.private_services`.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
from pathlib import Path

from app.db.migrate import upgrade
from app.settings import ROOT

PG_ADMIN_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
MIGRATIONS = ROOT / "migrations"
#: Advisory lock key of template building ("carc" "tmpl" in ASCII).
TEMPLATE_LOCK_KEY = 0x63617263_746D706C


def asyncpg_dsn(url: str) -> str:
    """``url`` (SQLAlchemy form) as a DSN asyncpg reads."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def url_of(name: str, admin_url: str = PG_ADMIN_URL) -> str:
    """The SQLAlchemy URL of database ``name`` on the admin database's server."""
    base, _, _ = admin_url.rpartition("/")
    return f"{base}/{name}"


def migrations_digest(folder: Path = MIGRATIONS) -> str:
    """12 hex digits naming the migration set: every ``.py`` file's path and bytes."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


async def execute(url: str, *statements: str) -> None:
    """Run ``statements`` one after the other on a fresh connection to ``url``."""
    import asyncpg

    conn = await asyncpg.connect(asyncpg_dsn(url), timeout=10)
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


async def _clone_template(admin_url: str, clone: str) -> None:
    """Create database ``clone`` from the migrated template of today's migrations, building
    the template first when it is missing. All of it under an advisory lock: one worker builds
    the template while the others wait, and no clone meets another session in the template.
    Older templates are dropped.
    """
    import asyncpg

    name = f"carc_tpl_{migrations_digest()}"
    conn = await asyncpg.connect(asyncpg_dsn(admin_url), timeout=10)
    try:
        await conn.execute("SELECT pg_advisory_lock($1)", TEMPLATE_LOCK_KEY)
        try:
            names = {
                r["datname"]
                for r in await conn.fetch(
                    "SELECT datname FROM pg_database WHERE datname LIKE 'carc\\_tpl\\_%'"
                )
            }
            if name not in names:
                building = f"{name}_building"
                await conn.execute(f'DROP DATABASE IF EXISTS "{building}" WITH (FORCE)')
                await conn.execute(f'CREATE DATABASE "{building}"')
                # ``upgrade`` runs its own loop: keep it off this one.
                await asyncio.to_thread(upgrade, url_of(building, admin_url), MIGRATIONS)
                await conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
            for old in names - {name}:
                await conn.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
            await conn.execute(f'CREATE DATABASE "{clone}" TEMPLATE "{name}"')
        finally:
            await conn.execute("SELECT pg_advisory_unlock($1)", TEMPLATE_LOCK_KEY)
    finally:
        await conn.close()


async def create_migrated(admin_url: str = PG_ADMIN_URL, prefix: str = "carc_test") -> str:
    """A new database at the migrations' head, cloned from the template; its URL.

    Raises whatever asyncpg raises when the server cannot be reached (callers turn that into a
    skip, or a failure under ``CI=true``).
    """
    name = f"{prefix}_{secrets.token_hex(5)}"
    await _clone_template(admin_url, name)
    return url_of(name, admin_url)


async def create_empty(admin_url: str = PG_ADMIN_URL, prefix: str = "carc_test") -> str:
    """A new empty database (for tests of the migrations themselves); its URL."""
    name = f"{prefix}_{secrets.token_hex(5)}"
    await execute(admin_url, f'CREATE DATABASE "{name}"')
    return url_of(name, admin_url)


async def drop(url: str, admin_url: str = PG_ADMIN_URL) -> None:
    """Drop the database of ``url`` (closing its connections)."""
    name = url.rpartition("/")[2]
    await execute(admin_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
