"""Players, lobbies, matches, the action log and seat presence.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_table(
        "lobbies",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("host_id", sa.String(32), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("preset", sa.String(32), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("max_seats", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )
    op.create_index("ix_lobbies_status_private", "lobbies", ["status", "private"])
    op.create_table(
        "matches",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("lobby_code", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=False),
        sa.Column("snapshot_version", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat_to_act", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("scores", sa.JSON(), nullable=False),
        sa.Column("next_bot_at", TS, nullable=True),
        sa.Column("rematch_code", sa.String(32), nullable=True),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("updated_at", TS, nullable=False),
        sa.Column("finished_at", TS, nullable=True),
    )
    op.create_index("ix_matches_status_private", "matches", ["status", "private"])
    op.create_index("ix_matches_next_bot_at", "matches", ["next_bot_at"])
    op.create_table(
        "match_actions",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column(
            "match_id",
            sa.String(32),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(64), nullable=True),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("events", sa.Text(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("match_id", "seq", name="uq_match_actions_match_seq"),
        sa.UniqueConstraint("match_id", "seat", "client_id", name="uq_match_actions_client_id"),
    )
    op.create_table(
        "seat_presence",
        sa.Column(
            "match_id",
            sa.String(32),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("last_seen", TS, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_presence")
    op.drop_table("match_actions")
    op.drop_index("ix_matches_next_bot_at", table_name="matches")
    op.drop_index("ix_matches_status_private", table_name="matches")
    op.drop_table("matches")
    op.drop_index("ix_lobbies_status_private", table_name="lobbies")
    op.drop_table("lobbies")
    op.drop_table("players")
