"""What each seat of a finished match did, for profile statistics: ``match_players.statistics``.

A JSON object written when the match is settled: ``{"points": {"road", "city", "cloister",
"farm", "other"}, "longest_road", "biggest_city"}`` (points by feature; the tiles of the longest
road and the biggest city the seat scored). Null for rows settled before this revision: the
statistics reader fills them from the match's action log the first time it needs them.

Revision ID: 0014_match_player_statistics
Revises: 0011_seek_pool
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014_match_player_statistics"
down_revision: str | None = "0011_seek_pool"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("match_players") as batch:
        batch.add_column(sa.Column("statistics", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("match_players") as batch:
        batch.drop_column("statistics")
