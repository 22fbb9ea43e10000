"""``matches.notes`` counts the committed changes of a match that are not actions: its clock
changed without a move (a leave countdown, a vote, a proposal, a take-back, a time-out's
bookkeeping) or it was ended early by a vote.

The version watch of every instance compares it with what its hub last saw, so such a change
reaches every socket even when its broadcast was lost (the actions' outbox covers the rest).

Revision ID: 0005_i9_notes
Revises: 0004_token_revocation
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_i9_notes"
down_revision: str | None = "0004_token_revocation"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "matches", sa.Column("notes", sa.Integer(), nullable=False, server_default="0")
    )


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("notes")
