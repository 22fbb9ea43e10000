"""Turn alerts by Web Push: ``push_subscriptions`` (one row per browser that opted in) and
``server_secrets`` (the VAPID key pair every instance signs pushes with, generated once when no
setting gives one).

Revision ID: 0015_push_subscriptions
Revises: 0014_match_player_statistics
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_push_subscriptions"
down_revision: str | None = "0014_match_player_statistics"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("session", sa.String(32), nullable=True),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_push_subscriptions_player_id", "push_subscriptions", ["player_id"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_index("ix_push_subscriptions_player_id", "push_subscriptions")
    op.drop_table("push_subscriptions")
