"""Accounts, match history, ratings, shuffle commitments, rated lobbies.

Revision ID: 0002_i15_accounts
Revises: 0002_i14_chat
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_i15_accounts"
down_revision: str | None = "0002_i14_chat"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("lobbies") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(32),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("username_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_table(
        "match_players",
        sa.Column("match_id", sa.String(32),
                  sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("bot", sa.Boolean(), nullable=False),
        sa.Column("preset", sa.String(32), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("started_at", TS, nullable=False),
        sa.Column("finished_at", TS, nullable=True),
    )
    op.create_index("ix_match_players_player", "match_players", ["player_id", "started_at"])
    op.create_table(
        "match_fairness",
        sa.Column("match_id", sa.String(32),
                  sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("scheme", sa.String(40), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("salt", sa.String(64), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("preset", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_index("ix_ratings_preset", "ratings", ["preset"])
    op.create_table(
        "rating_changes",
        sa.Column("match_id", sa.String(32),
                  sa.ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_preset", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("match_fairness")
    op.drop_index("ix_match_players_player", table_name="match_players")
    op.drop_table("match_players")
    op.drop_table("accounts")
    with op.batch_alter_table("lobbies") as batch:
        batch.drop_column("rated")
