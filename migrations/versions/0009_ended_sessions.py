"""Logging out ends one session: ``ended_sessions``.

An account's token carries the session (one login on one device) it belongs to; logging out
records the session here and its tokens, renewed ones included, are refused. A row is pruned
once the session's last token would have expired.

Revision ID: 0007_ended_sessions
Revises: 0006_table_name_optional
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_ended_sessions"
down_revision: str | None = "0006_table_name_optional"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ended_sessions",
        sa.Column("session", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ended_sessions_expires_at", "ended_sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_ended_sessions_expires_at", "ended_sessions")
    op.drop_table("ended_sessions")
