"""The client address a Play now seek was posted from: two rated seeks from one address never
pair with each other (one person with two accounts would rate themself). Nullable: seeks of
the release before have none, and pair as before.

Revision ID: 0022_seek_address
Revises: 0021_spectator_delay
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022_seek_address"
down_revision: str | None = "0021_spectator_delay"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seeks", sa.Column("address", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("seeks", "address")
