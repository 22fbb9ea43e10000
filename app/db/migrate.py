"""Run the Alembic migrations of ``migrations/`` programmatically (``carcassonne serve``, tests).

Synchronous: call these before an event loop runs (the async ``env.py`` starts its own).
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.db.session import ensure_sqlite_dir


def alembic_config(url: str, migrations_dir: Path) -> Config:
    """An Alembic config for ``url`` with scripts in ``migrations_dir``."""
    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_dir))
    cfg.attributes["url"] = url
    return cfg


def upgrade(url: str, migrations_dir: Path, revision: str = "head") -> None:
    """Migrate the database at ``url`` up to ``revision`` (creates a SQLite file's folder)."""
    ensure_sqlite_dir(url)
    command.upgrade(alembic_config(url, migrations_dir), revision)


def downgrade(url: str, migrations_dir: Path, revision: str = "base") -> None:
    """Migrate the database at ``url`` down to ``revision``."""
    command.downgrade(alembic_config(url, migrations_dir), revision)
