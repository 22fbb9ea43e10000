"""A lobby's settings in one column: ``lobbies.settings`` (JSON, null allowed), the table's
``TableSettings`` (app/services/lobby/model.py: rules, preset, name, private, rated, time
control, time-out policy, aid policy, language, best-of, spectator delay) with the row
``version`` it was written at.

The expand step of an expand/contract change (migrations/README.md). The release before
this one keeps reading and writing the older columns (``rules`` … ``spectator_delay``, the time
options packed into ``time_control``); this release writes the new column *and* those columns
alike, and reads the new column only where it was written at the row's current version (a row
the release before changed since reads from the older columns). The backfill below stamps every
existing row at its version. Dropping the repeated columns is a later release's contract step,
once no release that reads them runs.

Revision ID: 0024_table_settings
Revises: 0023_matches_fillfactor
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0024_table_settings"
down_revision: str | None = "0023_matches_fillfactor"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Rows read and stamped per statement.
BATCH = 500

_lobbies = sa.table(
    "lobbies",
    sa.column("code", sa.String),
    sa.column("version", sa.Integer),
    sa.column("rules", sa.JSON),
    sa.column("preset", sa.String),
    sa.column("name", sa.String),
    sa.column("private", sa.Boolean),
    sa.column("rated", sa.Boolean),
    sa.column("time_control", sa.JSON),
    sa.column("language", sa.String),
    sa.column("best_of", sa.Integer),
    sa.column("spectator_delay", sa.JSON),
    sa.column("settings", sa.JSON),
)


def settings_of(row: Any) -> dict[str, Any]:
    """The ``settings`` value of one lobby row (format 1, frozen here as this migration wrote
    it: the time options unpacked from ``time_control``, whose ``timeout_policy`` and ``aids``
    keys hold the policies).
    """
    packed = row.time_control or {}
    control = {k: v for k, v in packed.items() if k not in ("timeout_policy", "aids")} or None
    policy, aids = packed.get("timeout_policy"), packed.get("aids")
    return {
        "format": 1,
        "at_version": row.version,
        "rules": row.rules,
        "preset": row.preset,
        "name": row.name,
        "private": bool(row.private),
        "rated": bool(row.rated),
        "time_control": control,
        "timeout_policy": policy if isinstance(policy, dict) else None,
        "aids": aids if isinstance(aids, dict) else None,
        "language": row.language,
        "best_of": row.best_of,
        "spectator_delay": row.spectator_delay,
    }


def upgrade() -> None:
    op.add_column("lobbies", sa.Column("settings", sa.JSON(), nullable=True))
    bind = op.get_bind()
    after = ""
    while True:
        rows = bind.execute(
            sa.select(_lobbies)
            .where(_lobbies.c.code > after, _lobbies.c.settings.is_(None))
            .order_by(_lobbies.c.code)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        for row in rows:
            # Stamped only while the row is still at the version read: a row the release
            # before changed meanwhile keeps null and reads from the older columns.
            bind.execute(
                sa.update(_lobbies)
                .where(_lobbies.c.code == row.code, _lobbies.c.version == row.version)
                .values(settings=settings_of(row))
            )
        after = rows[-1].code


def downgrade() -> None:
    op.drop_column("lobbies", "settings")
