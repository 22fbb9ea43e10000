"""Spectator delay: ``lobbies.spectator_delay`` (the host's choice), ``tournaments.spectator_delay``
(the organiser's, for every table) and ``matches.spectator_delay`` (copied when the match starts). JSON ``{"moves": N}`` or
``{"seconds": M}``; null: spectators see the match live (app/services/match/spectating/delay.py).

Revision ID: 0021_spectator_delay
Revises: 0020_match_analyses
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021_spectator_delay"
down_revision: str | None = "0020_match_analyses"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("lobbies", sa.Column("spectator_delay", sa.JSON(), nullable=True))
    op.add_column("matches", sa.Column("spectator_delay", sa.JSON(), nullable=True))
    op.add_column("tournaments", sa.Column("spectator_delay", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("tournaments", "spectator_delay")
    op.drop_column("matches", "spectator_delay")
    op.drop_column("lobbies", "spectator_delay")
