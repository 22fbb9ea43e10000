"""Analyses of finished matches: ``match_analyses`` (one row per match, the Strong computer
player's evaluation of every move, stored once and shared; app/db/analyses.py).

Revision ID: 0020_match_analyses
Revises: 0019_series_and_seeds
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020_match_analyses"
down_revision: str | None = "0019_series_and_seeds"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_analyses",
        sa.Column(
            "match_id",
            sa.String(32),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("requested_by", sa.String(32), nullable=True),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
    )
    op.create_index(
        "ix_match_analyses_requester", "match_analyses", ["requested_by", "status"]
    )


def downgrade() -> None:
    op.drop_index("ix_match_analyses_requester", table_name="match_analyses")
    op.drop_table("match_analyses")
