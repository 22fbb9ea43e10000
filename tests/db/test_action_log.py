"""The action log's row (app/db/action_log.py): one definition of the columns every insert of
the log lists, and the committed move is that row.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime

from app.db import hot
from app.db.action_log import LOG_COLUMN_NAMES, LOG_COLUMNS, LOG_INSERT, LogRow, placeholders
from app.db.group_commit import BATCH_SQL
from app.db.models import match_actions
from app.db.txs import PgTx
from app.services.match.committed import Committed


def test_the_columns_are_the_tables_and_the_attributes_the_rows() -> None:
    assert set(LOG_COLUMN_NAMES) == {c.name for c in match_actions.c} - {"id"}
    assert [a for _, a, _ in LOG_COLUMNS] == [f.name for f in fields(LogRow)]
    assert issubclass(Committed, LogRow)
    assert not hasattr(
        LogRow(
            match_id="m",
            version=1,
            seat=0,
            client_id=None,
            action_json="{}",
            events_json="[]",
            at=datetime.now(UTC),
        ),
        "__dict__",
    )


def test_every_raw_insert_lists_the_columns_in_order() -> None:
    head = (
        "INSERT INTO match_actions (match_id, seq, seat, client_id, action, events, "
        "created_at, by, published)"
    )
    assert head == LOG_INSERT
    assert f"{head} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)" == PgTx._APPEND
    assert (
        f"{head}\nSELECT i.match_id, i.seq, i.seat, i.client_id, i.action, i.events, "
        "i.created_at, i.by, i.published\n" in BATCH_SQL
    )
    assert placeholders(3) == "$3, $4, $5, $6, $7, $8, $9, $10, $11"
    assert len(LOG_COLUMNS) + 1 == hot._OLD_CLOCK


def test_a_row_gives_its_values_in_column_order() -> None:
    at = datetime(2024, 1, 2, tzinfo=UTC)
    row = LogRow(
        match_id="m",
        version=4,
        seat=1,
        client_id="c",
        action_json="{}",
        events_json="[]",
        at=at,
        by="computer",
        published=True,
    )
    assert row.args() == ("m", 4, 1, "c", "{}", "[]", at, "computer", True)
    assert row.values() == dict(zip(LOG_COLUMN_NAMES, row.args(), strict=True))
