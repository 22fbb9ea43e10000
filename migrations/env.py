"""Alembic environment (async): runs the migrations on the app's database.

The URL comes from ``config.attributes["url"]`` (set by :mod:`app.db.migrate`), else the
``sqlalchemy.url`` option, else the app's settings (``DATABASE_URL``).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from app.db.migrate import serialise_migrations
from app.db.models import Base
from app.db.session import create_engine

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    if not url:
        from app.settings import get_settings

        url = get_settings().database_url
    return str(url)


def _run(connection: Connection) -> None:
    serialise_migrations(connection)  # instances started at once migrate one after the other
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async() -> None:
    engine = create_engine(_url(), pool_size=1, max_overflow=0)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_run_async())
