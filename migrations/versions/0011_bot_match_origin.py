"""Computer-player matches are bounded per client address: ``matches.started_from`` (the
address that started the match) and ``matches.bots`` (its computer seats).

Revision ID: 0009_bot_match_origin
Revises: 0008_unrated_matches
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_bot_match_origin"
down_revision: str | None = "0008_unrated_matches"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("started_from", sa.String(64), nullable=True))
        batch.add_column(sa.Column("bots", sa.Integer(), nullable=False, server_default="0"))
    op.create_index("ix_matches_started_from", "matches", ["started_from", "status"])


def downgrade() -> None:
    op.drop_index("ix_matches_started_from", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("bots")
        batch.drop_column("started_from")
