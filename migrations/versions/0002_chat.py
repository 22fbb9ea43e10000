"""Chat: messages of waiting rooms and matches, and the people a host muted.

Revision ID: 0002_i14_chat
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_i14_chat"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("scope", sa.String(8), nullable=False),
        sa.Column("key", sa.String(32), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("colour", sa.String(16), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("quick", sa.String(24), nullable=True),
        sa.Column("created_at", TS, nullable=False),
    )
    op.create_index("ix_chat_messages_scope_key_id", "chat_messages", ["scope", "key", "id"])
    op.create_table(
        "chat_mutes",
        sa.Column("lobby_code", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("created_at", TS, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_messages_scope_key_id", table_name="chat_messages")
    op.drop_table("chat_messages")
