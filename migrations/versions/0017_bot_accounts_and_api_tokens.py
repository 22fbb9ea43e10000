"""The open platform: bot accounts (``players.bot_account``, one-way), personal API tokens with
scopes (``api_tokens``, only a SHA-256 of each token is kept) and challenges to bots
(``bot_challenges``: a person asks a bot for a match, or invites it into a lobby seat).

Revision ID: 0017_bot_accounts_and_api_tokens
Revises: 0016_table_language
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_bot_accounts_and_api_tokens"
down_revision: str | None = "0016_table_language"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(
            sa.Column("bot_account", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("scopes", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_api_tokens_player", "api_tokens", ["player_id"])
    op.create_table(
        "bot_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("bot_id", sa.String(32), nullable=False),
        sa.Column("challenger_id", sa.String(32), nullable=False),
        sa.Column("lobby_code", sa.String(32), nullable=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("time_control", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_bot_challenges_bot", "bot_challenges", ["bot_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_bot_challenges_bot", "bot_challenges")
    op.drop_table("bot_challenges")
    op.drop_index("ix_api_tokens_player", "api_tokens")
    op.drop_table("api_tokens")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot_account")
