"""A table says the language its host plays in: ``lobbies.language`` (``en``, ``de``, ``fr`` or
null for "any"), set when the table is created; the Tables page filters on it.

Revision ID: 0016_table_language
Revises: 0015_push_subscriptions
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016_table_language"
down_revision: str | None = "0015_push_subscriptions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("lobbies") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("lobbies") as batch:
        batch.drop_column("language")
