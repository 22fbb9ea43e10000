"""Clocks and leaving: a lobby's time control, a match's clock, who played an action
(the computer for a person), and instance heartbeats for the outage credit.

Revision ID: 0002_i13_clocks
Revises: 0002_i15_accounts
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_i13_clocks"
down_revision: str | None = "0002_i15_accounts"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("lobbies", sa.Column("time_control", sa.JSON(), nullable=True))
    op.add_column("matches", sa.Column("clock", sa.JSON(), nullable=True))
    op.add_column("match_actions", sa.Column("by", sa.String(16), nullable=True))
    op.create_table(
        "instance_heartbeats",
        sa.Column("instance_id", sa.String(64), primary_key=True),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("instance_heartbeats")
    with op.batch_alter_table("match_actions") as batch:
        batch.drop_column("by")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("clock")
    with op.batch_alter_table("lobbies") as batch:
        batch.drop_column("time_control")
