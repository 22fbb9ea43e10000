"""Room on each page of ``matches`` for a move's new row version (Postgres fill factor 70): a
move's update of its match row then stays on its page and, since it changes no indexed column
(``next_bot_at`` is written as a bound, app/db/txs.py ``LookBy``), is a HOT update: no new
index entries, a fraction of the WAL. A storage parameter only: the release before reads and
writes the table as it did (new pages are filled to 70 %, existing ones as they fill up).

Revision ID: 0023_matches_fillfactor
Revises: 0022_seek_address
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0023_matches_fillfactor"
down_revision: str | None = "0022_seek_address"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Percent of each heap page of ``matches`` that inserts fill (the rest is for updates).
FILLFACTOR = 70


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"ALTER TABLE matches SET (fillfactor = {FILLFACTOR})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE matches RESET (fillfactor)")
