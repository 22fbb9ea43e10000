"""A seat that left says when: ``match_players.left_at``, the record move it first did not play.

The verdict of a finished match ranks a seat that left last (docs/RATINGS.md) and says so in
words ("left at move 23 — counted last"); the settlement stores the move here.

Revision ID: 0010_left_at_move
Revises: 0009_bot_match_origin
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_left_at_move"
down_revision: str | None = "0009_bot_match_origin"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_players") as batch:
        batch.add_column(sa.Column("left_at", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match_players") as batch:
        batch.drop_column("left_at")
