"""The action log is the outbox: ``match_actions.published`` marks batches handed to the broker.

A committed batch starts unpublished; the instance that committed it marks it after publishing,
and any instance's outbox sweep publishes (and marks) batches left unpublished for more than a
moment — the committer died, or the broker dropped the publish. Rows logged before this
revision count as published.

Revision ID: 0003_i9_outbox
Revises: 0002_i13_clocks
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_i9_outbox"
down_revision: str | None = "0002_i13_clocks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("match_actions", sa.Column(
        "published", sa.Boolean(), nullable=False, server_default=sa.true()))
    # New rows start unpublished (the app always sets the column; the default covers old code).
    with op.batch_alter_table("match_actions") as batch:
        batch.alter_column("published", server_default=sa.false())
    op.create_index("ix_match_actions_unpublished", "match_actions", ["created_at"],
                    postgresql_where=sa.text("NOT published"),
                    sqlite_where=sa.text("NOT published"))


def downgrade() -> None:
    op.drop_index("ix_match_actions_unpublished", table_name="match_actions")
    with op.batch_alter_table("match_actions") as batch:
        batch.drop_column("published")
