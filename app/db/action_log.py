"""The action log's row: what one committed move writes to ``match_actions``, and the one
definition of the columns every insert of the log lists, in their order.

:class:`LogRow` is the row; the play path's record of a move
(``app.services.match.committed.Committed``) *is* one (a subclass), built once when the move is
committed and handed whole to the write path: :meth:`app.db.txs.Tx.append_action`,
:func:`app.db.hot.append_fast` and the group commit (:mod:`app.db.group_commit`). Each insert
of the log — SQLAlchemy's (:class:`app.db.txs.SqlTx`), the locked path's on asyncpg
(:class:`app.db.txs.PgTx`), the one-move statement and the batched one — lists
:data:`LOG_COLUMN_NAMES` (its head :data:`LOG_INSERT`) and takes the values in that order
from :meth:`LogRow.args` (or their mapping, :meth:`LogRow.values`), so the forms cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter
from typing import Any

#: The columns of a ``match_actions`` row as every insert of the log lists them, in order:
#: ``(column, the LogRow attribute holding its value, its Postgres array type)`` (the array
#: type for the group commit's ``unnest``). The row's ``id`` is the database's own.
LOG_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("match_id", "match_id", "text[]"),
    ("seq", "version", "int[]"),
    ("seat", "seat", "int[]"),
    ("client_id", "client_id", "text[]"),
    ("action", "action_json", "text[]"),
    ("events", "events_json", "text[]"),
    ("created_at", "at", "timestamptz[]"),
    ("by", "by", "text[]"),
    ("published", "published", "bool[]"),
)

#: The column names of :data:`LOG_COLUMNS`, in order.
LOG_COLUMN_NAMES: tuple[str, ...] = tuple(column for column, _, _ in LOG_COLUMNS)

#: The head of every raw insert of the log (the values follow: ``VALUES`` or ``SELECT``).
LOG_INSERT = f"INSERT INTO match_actions ({', '.join(LOG_COLUMN_NAMES)})"

#: The row's values in the order of :data:`LOG_COLUMNS` (a tuple; C code, no per-call setup).
_args = attrgetter(*(attribute for _, attribute, _ in LOG_COLUMNS))


def placeholders(first: int = 1) -> str:
    """The asyncpg parameters ``"$first, …"`` of one log row, one per column of
    :data:`LOG_COLUMNS` in order (``$1, …, $9`` by default).
    """
    return ", ".join(f"${first + i}" for i in range(len(LOG_COLUMNS)))


@dataclass(frozen=True, slots=True, kw_only=True)
class LogRow:
    """One row of the action log as written: the match ``match_id``, the match ``version``
    the move made (the log's ``seq``; unique per match), the acting ``seat``, the client's
    action id ``client_id`` (None for moves the sweep made), the action and its events as
    JSON text (``action_json``, ``events_json``), ``at`` (timezone-aware UTC, the row's
    ``created_at``), ``by`` (``"computer"`` when the computer chose for a person's seat, else
    None) and ``published`` (nothing to publish: no other instance listens, the outbox sweep
    leaves the row alone).
    """

    match_id: str
    version: int
    seat: int
    client_id: str | None
    action_json: str = field(repr=False)
    events_json: str = field(repr=False)
    at: datetime
    by: str | None = None
    published: bool = False

    def args(self) -> tuple[Any, ...]:
        """The row's values in the order of :data:`LOG_COLUMNS` (asyncpg's positional
        parameters; :func:`placeholders` numbers them).
        """
        values: tuple[Any, ...] = _args(self)
        return values

    def values(self) -> dict[str, Any]:
        """The row as ``{column: value}`` (:data:`LOG_COLUMN_NAMES`; SQLAlchemy's insert)."""
        return dict(zip(LOG_COLUMN_NAMES, _args(self), strict=True))
