"""A table's name is optional: ``lobbies.name`` and ``matches.name`` may be null.

Null means the host gave no name; every client then words "{host}'s table" in its reader's
language (docs/API.md § Lobbies), instead of the server storing an English default. Rows
from before keep the name they were given ("Ann's table").

Downgrading gives every null name the English default the server stored before: the host's
name from the seats (a match keeps its host's seat in ``clock["host"]``) and "'s table", or
"Table" when the host is unknown.

Revision ID: 0006_table_name_optional
Revises: 0005_i9_notes
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0006_table_name_optional"
down_revision: str | None = "0005_i9_notes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_lobbies = sa.table(
    "lobbies",
    sa.column("code", sa.String),
    sa.column("name", sa.String),
    sa.column("host_id", sa.String),
    sa.column("seats", sa.JSON),
)
_matches = sa.table(
    "matches",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("seats", sa.JSON),
    sa.column("clock", sa.JSON),
)


def upgrade() -> None:
    for table in ("lobbies", "matches"):
        with op.batch_alter_table(table) as batch:
            batch.alter_column("name", existing_type=sa.String(64), nullable=True)


def _default(host: Any) -> str:
    return f"{host}'s table"[:64] if host else "Table"


def downgrade() -> None:
    conn = op.get_bind()
    unnamed = conn.execute(
        sa.select(_lobbies.c.code, _lobbies.c.host_id, _lobbies.c.seats).where(
            _lobbies.c.name.is_(None)
        )
    ).all()
    for code, host_id, seats in unnamed:
        host = next((s.get("name") for s in seats or [] if s.get("player") == host_id), None)
        conn.execute(
            sa.update(_lobbies).where(_lobbies.c.code == code).values(name=_default(host))
        )
    unnamed = conn.execute(
        sa.select(_matches.c.id, _matches.c.seats, _matches.c.clock).where(
            _matches.c.name.is_(None)
        )
    ).all()
    for match_id, seats, clock in unnamed:
        seat = (clock or {}).get("host")
        ok = isinstance(seat, int) and 0 <= seat < len(seats or [])
        host = seats[seat].get("name") if ok else None
        conn.execute(
            sa.update(_matches).where(_matches.c.id == match_id).values(name=_default(host))
        )
    for table in ("matches", "lobbies"):
        with op.batch_alter_table(table) as batch:
            batch.alter_column("name", existing_type=sa.String(64), nullable=False)
