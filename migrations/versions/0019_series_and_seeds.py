"""Best-of-N series at one table: ``lobbies.best_of`` (1, 3 or 5; null: one game) and
``lobbies.series`` (the series so far: its seats, games and score; docs/API.md § Series); a
knock-out's seeding: ``tournaments.seeds`` (starting numbers, top seed first; null: by number).

Revision ID: 0019_series_and_seeds
Revises: 0018_tournaments
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019_series_and_seeds"
down_revision: str | None = "0018_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("lobbies", sa.Column("best_of", sa.Integer(), nullable=True))
    op.add_column("lobbies", sa.Column("series", sa.JSON(), nullable=True))
    op.add_column("tournaments", sa.Column("seeds", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("tournaments", "seeds")
    op.drop_column("lobbies", "series")
    op.drop_column("lobbies", "best_of")
