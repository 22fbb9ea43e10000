"""A rated table whose match was not really played ends unrated: ``match_players.unrated``.

A rated match changes ratings only when every seat's own player made at least a third of the
seat's moves (docs/RATINGS.md); otherwise its history rows say why it ended unrated
(``"not_played"``) and ``rated`` becomes false.

Revision ID: 0008_unrated_matches
Revises: 0007_ended_sessions
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_unrated_matches"
down_revision: str | None = "0007_ended_sessions"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_players") as batch:
        batch.add_column(sa.Column("unrated", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match_players") as batch:
        batch.drop_column("unrated")
