"""Players can revoke their tokens: ``players.token_generation``.

A token carries the generation it was issued in; one of an older generation is refused. The
generation grows when an account's password changes, when its owner signs out everywhere and
when the account is deleted; 0 (every existing player) revokes nothing.

Revision ID: 0004_token_revocation
Revises: 0003_i9_outbox
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_token_revocation"
down_revision: str | None = "0003_i9_outbox"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "players",
        sa.Column("token_generation", sa.Integer(), nullable=False, server_default="0"),
    )


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("token_generation")
