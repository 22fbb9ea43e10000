"""The "Play now" seek pool: a ``seeks`` table, one row per player waiting for a match.

Pairing locks a pool's open seeks (``FOR UPDATE SKIP LOCKED`` on Postgres), so each seek joins
at most one match; a partial unique index keeps one open seek per player.

Revision ID: 0011_seek_pool
Revises: 0010_left_at_move
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_seek_pool"
down_revision: str | None = "0010_left_at_move"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("pool", sa.String(200), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("time_control", sa.JSON(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seeks_pool_status", "seeks", ["pool", "status"])
    op.create_index(
        "ux_seeks_open_player",
        "seeks",
        ["player_id"],
        unique=True,
        postgresql_where=sa.text("status = 'open'"),
        sqlite_where=sa.text("status = 'open'"),
    )


def downgrade() -> None:
    op.drop_index("ux_seeks_open_player", table_name="seeks")
    op.drop_index("ix_seeks_pool_status", table_name="seeks")
    op.drop_table("seeks")
