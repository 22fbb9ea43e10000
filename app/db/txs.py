"""The match row and the transaction interface of the play path, with its two implementations.

:class:`SqlTx` uses SQLAlchemy Core (SQLite, and any other database). :class:`PgTx` talks to
asyncpg directly on a plain asyncpg pool (:meth:`Database.raw`): skipping the ORM layers
roughly halves the server's CPU per move. :mod:`app.db.hot` opens them (``write_tx``,
``read_tx``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol, TypedDict

import orjson
from asyncpg.exceptions import IntegrityConstraintViolationError
from sqlalchemy import case, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.action_log import LOG_INSERT, LogRow, placeholders
from app.db.models import match_actions, matches, seat_presence
from app.json_types import JsonObject


@dataclass(frozen=True)
class MatchRow:
    """The columns of ``matches`` the play path needs."""

    id: str
    version: int
    status: str
    seats: list[dict[str, Any]]
    name: str | None
    private: bool
    lobby_code: str
    snapshot_version: int
    #: The match's clock (``app.services.clock.rules``), None for matches without one.
    clock: dict[str, Any] | None = None


#: What a broken constraint (unique, foreign key) raises, through SQLAlchemy or from asyncpg.
DUPLICATE = (IntegrityError, IntegrityConstraintViolationError)

#: Columns a move may set on its match row (``update_match``, :func:`append_fast`); anything
#: else is a programming error. Per-action columns (e.g. clocks) are added here, and their
#: values to the dict built by ``app.services.match.play.row.row_values``.
UPDATABLE = (
    "version",
    "seat_to_act",
    "turn",
    "scores",
    "updated_at",
    "next_bot_at",
    "status",
    "finished_at",
    "snapshot",
    "snapshot_version",
    "clock",
    "bots",
    "look_by",
)
#: Of those, the JSON columns (encoded as text for asyncpg).
_JSON = ("scores", "snapshot", "clock")

#: A move moves a stored ``next_bot_at`` forward when it falls due within this share of the
#: move's own horizon (``LookBy.refresh``): earlier, and the sweep would look for nothing.
REFRESH_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class LookBy:
    """What a move writes to ``matches.next_bot_at``: a bound, not a time, so that most moves
    leave that **indexed** column as it is and their row update stays a HOT update (no new
    index entries, a fraction of the WAL; docs/PERFORMANCE.md "The match row").

    The sweep must look at the match by ``due`` (a bot's turn, a clock running out, a turn
    abandoned). A stored time no later than ``due`` is kept — the sweep then looks early,
    finds nothing due and stores the true time (``app.services.match.play.bot_turns``, "wait") —
    unless it falls before ``refresh`` (already past, or soon: the look would be wasted), or
    no time is stored. Times are timezone-aware UTC.
    """

    due: datetime
    refresh: datetime

    @classmethod
    def after(cls, at: datetime, due: datetime) -> LookBy:
        """The bound for a move at ``at`` whose next look is due at ``due`` (``refresh``: a
        quarter of the way, :data:`REFRESH_SHARE`).
        """
        return cls(due, at + max(timedelta(0), due - at) * REFRESH_SHARE)


class MatchChanges(TypedDict, total=False):
    """The columns of a ``matches`` row a use case changes (what ``update_match`` and a
    move's one statement take): each as the column holds it (JSON columns as JSON values;
    ``look_by`` a :class:`LookBy` bound on ``next_bot_at``; times timezone-aware UTC).
    """

    version: int
    seat_to_act: int | None
    turn: int
    scores: list[int]
    updated_at: datetime
    next_bot_at: datetime | None
    look_by: LookBy
    clock: JsonObject | None
    bots: int
    status: str
    finished_at: datetime
    snapshot: JsonObject
    snapshot_version: int


#: The ``SET`` text of a :class:`LookBy` with its two parameters ``{due}`` and ``{refresh}``
#: (asyncpg numbering); its value changes only when the stored time is null, later than the
#: due time or earlier than the refresh time.
LOOK_BY_SET = (
    "next_bot_at = CASE WHEN next_bot_at IS NULL OR next_bot_at > {due} "
    "OR next_bot_at < {refresh} THEN {due} ELSE next_bot_at END"
)


def sql_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` for a SQLAlchemy ``UPDATE matches`` (a :class:`LookBy` becomes its ``CASE``)."""
    look = values.get("look_by")
    if look is None:
        return values if isinstance(values, dict) else dict(values)
    out = {k: v for k, v in values.items() if k != "look_by"}
    stored = matches.c.next_bot_at
    out["next_bot_at"] = case(
        (or_(stored.is_(None), stored > look.due, stored < look.refresh), look.due),
        else_=stored,
    )
    return out


class Tx(Protocol):
    """One open write transaction (committed when its context exits without error)."""

    async def lock_match(
        self, match_id: str, *, skip_locked: bool = False, due_before: datetime | None = None
    ) -> MatchRow | None:
        """Lock and read a match row; None when absent (or locked/not due, with the options)."""

    async def snapshot(self, match_id: str) -> dict[str, Any]:
        """The match's latest ``GameState.to_json()`` snapshot."""

    async def actions_after(self, match_id: str, seq: int, upto: int) -> list[tuple[int, str]]:
        """``(seq, action JSON)`` of the log after ``seq`` up to ``upto``, in order."""

    async def append_action(self, row: LogRow) -> None:
        """Insert ``row`` into the action log (unique ``(match_id, seq)``: a repeat raises one
        of :data:`DUPLICATE`).
        """

    async def update_match(self, match_id: str, values: Mapping[str, Any]) -> None:
        """Set columns of the match row (keys from :data:`UPDATABLE`)."""

    async def last_seen(self, match_id: str, seat: int) -> datetime | None:
        """When ``seat`` was last seen connected."""

    async def touch_presence(self, seats: list[tuple[str, int]], at: datetime) -> None:
        """Upsert ``seat_presence.last_seen = at`` for ``(match_id, seat)`` pairs."""


def _row(data: Any) -> MatchRow:
    seats = data["seats"]
    if isinstance(seats, str):
        seats = orjson.loads(seats)
    clock = data["clock"]
    if isinstance(clock, str):
        clock = orjson.loads(clock)
    return MatchRow(
        data["id"],
        data["version"],
        data["status"],
        seats,
        data["name"],
        data["private"],
        data["lobby_code"],
        data["snapshot_version"],
        clock,
    )


_COLUMNS = (
    matches.c.id,
    matches.c.version,
    matches.c.status,
    matches.c.seats,
    matches.c.name,
    matches.c.private,
    matches.c.lobby_code,
    matches.c.snapshot_version,
    matches.c.clock,
)


class SqlTx:
    """:class:`Tx` on a SQLAlchemy connection; ``postgres`` adds the row locks (False also
    serves plain reads).
    """

    def __init__(self, conn: AsyncConnection, postgres: bool) -> None:
        self.conn = conn
        self.postgres = postgres

    async def lock_match(
        self, match_id: str, *, skip_locked: bool = False, due_before: datetime | None = None
    ) -> MatchRow | None:
        """See :class:`Tx`."""
        query = select(*_COLUMNS).where(matches.c.id == match_id)
        if due_before is not None:
            query = query.where(matches.c.status == "live", matches.c.next_bot_at <= due_before)
        if self.postgres:
            query = query.with_for_update(skip_locked=skip_locked)
        found = (await self.conn.execute(query)).mappings().first()
        return None if found is None else _row(found)

    async def snapshot(self, match_id: str) -> dict[str, Any]:
        """See :class:`Tx`."""
        value = (
            await self.conn.execute(select(matches.c.snapshot).where(matches.c.id == match_id))
        ).scalar_one()
        return dict(value)

    async def actions_after(self, match_id: str, seq: int, upto: int) -> list[tuple[int, str]]:
        """See :class:`Tx`."""
        result = await self.conn.execute(
            select(match_actions.c.seq, match_actions.c.action)
            .where(
                match_actions.c.match_id == match_id,
                match_actions.c.seq > seq,
                match_actions.c.seq <= upto,
            )
            .order_by(match_actions.c.seq)
        )
        return [(int(s), str(a)) for s, a in result]

    async def append_action(self, row: LogRow) -> None:
        """See :class:`Tx`."""
        await self.conn.execute(insert(match_actions).values(row.values()))

    async def update_match(self, match_id: str, values: Mapping[str, Any]) -> None:
        """See :class:`Tx`."""
        assert set(values) <= set(UPDATABLE)
        extra = {"notes": matches.c.notes + 1} if _is_note(values) else {}
        await self.conn.execute(
            update(matches).where(matches.c.id == match_id).values(**sql_values(values), **extra)
        )

    async def last_seen(self, match_id: str, seat: int) -> datetime | None:
        """See :class:`Tx`."""
        value = (
            await self.conn.execute(
                select(seat_presence.c.last_seen).where(
                    seat_presence.c.match_id == match_id, seat_presence.c.seat == seat
                )
            )
        ).scalar()
        return value if isinstance(value, datetime) else None

    async def touch_presence(self, seats: list[tuple[str, int]], at: datetime) -> None:
        """See :class:`Tx`."""
        if self.postgres:
            from sqlalchemy.dialects.postgresql import insert as upsert
        else:
            from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
        stmt = upsert(seat_presence).values(
            [{"match_id": m, "seat": s, "last_seen": at} for m, s in seats]
        )
        await self.conn.execute(
            stmt.on_conflict_do_update(
                index_elements=[seat_presence.c.match_id, seat_presence.c.seat],
                set_={"last_seen": at},
            )
        )


class PgTx:
    """:class:`Tx` straight on asyncpg (the connection's transaction is already open);
    ``locking`` False: a read-only transaction, where ``lock_match`` is a plain read.
    """

    _LOCK = (
        "SELECT id, version, status, seats, name, private, lobby_code, snapshot_version, "
        "clock FROM matches WHERE id = $1"
    )
    #: The locked path's log insert (:data:`app.db.action_log.LOG_COLUMNS`, in order).
    _APPEND = f"{LOG_INSERT} VALUES ({placeholders()})"

    def __init__(self, pg: Any, locking: bool = True) -> None:
        self.pg = pg
        self.locking = locking

    async def lock_match(
        self, match_id: str, *, skip_locked: bool = False, due_before: datetime | None = None
    ) -> MatchRow | None:
        """See :class:`Tx`."""
        sql = self._LOCK
        args: list[Any] = [match_id]
        if due_before is not None:
            sql += " AND status = 'live' AND next_bot_at <= $2"
            args.append(due_before)
        if self.locking:
            sql += " FOR UPDATE SKIP LOCKED" if skip_locked else " FOR UPDATE"
        found = await self.pg.fetchrow(sql, *args)
        return None if found is None else _row(found)

    async def snapshot(self, match_id: str) -> dict[str, Any]:
        """See :class:`Tx`."""
        value = await self.pg.fetchval("SELECT snapshot FROM matches WHERE id = $1", match_id)
        return dict(orjson.loads(value) if isinstance(value, str) else value)

    async def actions_after(self, match_id: str, seq: int, upto: int) -> list[tuple[int, str]]:
        """See :class:`Tx`."""
        rows = await self.pg.fetch(
            "SELECT seq, action FROM match_actions WHERE match_id = $1 AND seq > $2 "
            "AND seq <= $3 ORDER BY seq",
            match_id,
            seq,
            upto,
        )
        return [(int(r["seq"]), str(r["action"])) for r in rows]

    async def append_action(self, row: LogRow) -> None:
        """See :class:`Tx`."""
        await self.pg.execute(self._APPEND, *row.args())

    async def update_match(self, match_id: str, values: Mapping[str, Any]) -> None:
        """See :class:`Tx`."""
        assert set(values) <= set(UPDATABLE)
        sets, args = set_clause(values, 2)
        if _is_note(values):
            sets += ", notes = notes + 1"
        await self.pg.execute(f"UPDATE matches SET {sets} WHERE id = $1", match_id, *args)

    async def last_seen(self, match_id: str, seat: int) -> datetime | None:
        """See :class:`Tx`."""
        value = await self.pg.fetchval(
            "SELECT last_seen FROM seat_presence WHERE match_id = $1 AND seat = $2", match_id, seat
        )
        return value if isinstance(value, datetime) else None

    async def touch_presence(self, seats: list[tuple[str, int]], at: datetime) -> None:
        """See :class:`Tx` (one statement over arrays, whatever the number of seats)."""
        await self.pg.execute(
            "INSERT INTO seat_presence (match_id, seat, last_seen) "
            "SELECT m, s, $3 FROM unnest($1::varchar[], $2::int[]) AS t(m, s) "
            "ON CONFLICT (match_id, seat) DO UPDATE SET last_seen = EXCLUDED.last_seen",
            [m for m, _ in seats],
            [s for _, s in seats],
            at,
        )


def _is_note(values: Mapping[str, Any]) -> bool:
    """A match-row write that changes the clock or ends the match without an action (no new
    version) is a *note*: it counts in ``matches.notes``, which the version watch compares.
    """
    return "version" not in values and ("clock" in values or "status" in values)


def json_text(value: Any) -> str:
    """JSON text for a json/jsonb parameter (orjson: the snapshot is large)."""
    return orjson.dumps(value).decode()


def set_clause(values: Mapping[str, Any], first: int) -> tuple[str, list[Any]]:
    """``"a = $n, b = $n+1"`` and the arguments, keys sorted: one statement text per key set,
    so asyncpg's statement cache serves it. A :class:`LookBy` takes two parameters.
    """
    keys, sets = _set_text(frozenset(values), first)
    args: list[Any] = []
    for k in keys:
        if k == "look_by":
            args += (values[k].due, values[k].refresh)
        else:
            args.append(json_text(values[k]) if k in _JSON else values[k])
    return sets, args


@functools.lru_cache(maxsize=64)
def _set_text(columns: frozenset[str], first: int) -> tuple[tuple[str, ...], str]:
    """The sorted column names and the ``SET`` text of :func:`set_clause` (a few key sets
    recur: built once each).
    """
    assert columns <= set(UPDATABLE)
    keys = tuple(sorted(columns))
    sets, i = [], first
    for k in keys:
        if k == "look_by":
            sets.append(LOOK_BY_SET.format(due=f"${i}::timestamptz", refresh=f"${i + 1}"))
            i += 2
        else:
            sets.append(f"{k} = ${i}")
            i += 1
    return keys, ", ".join(sets)
