"""Group commit of the play path on Postgres: the optimistic appends of many matches that move
at the same moment go to the database as **one statement**.

:func:`app.db.hot.append_fast` writes one move with one statement (bump the match row if it is
still at the version the cache holds, append the log row). Under load many matches move within
the same millisecond, and each statement costs its encoding, a send, a wake-up for the answer
and a pool checkout, on the server and in Postgres alike. :class:`AppendBatcher` queues the
moves; a flush takes everything queued and writes it with :data:`BATCH_SQL` (``unnest`` of one
array per column: the same conditions per row, one transaction, one round trip). At most two
flushes are in flight; while they are, new moves queue up, so a quiet server writes each move
alone at once (no added wait) and a busy one writes bigger batches: the batch size follows
the load.

Each move's answer is its own: True when its row was bumped and its log row appended, False
when the row was no longer at the expected version and clock (exactly the single statement's
outcome). When the batch statement fails on a unique violation (a repeated client action id,
or a log row another instance wrote first) nothing of it was written: its moves are written
again one statement each, so only the move at fault gets the error. Any other error (the
database unreachable) reaches every move of the batch, as it would have reached each alone.

A batch never holds two moves of one match: a move is only written under its match's lock
(:meth:`app.services.cache.StateCache.lock`), and the lock is held until its answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.db.action_log import LOG_COLUMN_NAMES, LOG_COLUMNS, LOG_INSERT, LogRow
from app.db.txs import DUPLICATE, LOOK_BY_SET

log = logging.getLogger(__name__)

#: The most moves one statement writes (a bigger queue is written by the next flushes).
MAX_BATCH = 256

#: The match-row columns a batched move may set: everything a move between snapshots sets.
#: Moves that also write a snapshot or finish the match go alone (:func:`batchable`).
BATCH_COLUMNS = frozenset(
    {"version", "seat_to_act", "turn", "scores", "updated_at", "look_by", "clock"}
)

#: The arrays of a batch after the log row's (:data:`app.db.action_log.LOG_COLUMNS`), each
#: with its name in the statement: the clock the row must still hold (JSON text or NULL), the
#: seat to act, the turn, the scores (JSON text), the next look's due and refresh times
#: (:class:`app.db.txs.LookBy`: ``next_bot_at`` mostly stays, and the update stays HOT), the
#: new clock (JSON text) and whether the move sets the clock.
_MOVE_ARRAYS = (
    ("old_clock", "text[]"),
    ("seat_to_act", "int[]"),
    ("turn", "int[]"),
    ("scores", "text[]"),
    ("due", "timestamptz[]"),
    ("new_clock", "text[]"),
    ("sets_clock", "bool[]"),
    ("refresh", "timestamptz[]"),
)
_ARRAYS = [(column, kind) for column, _, kind in LOG_COLUMNS] + list(_MOVE_ARRAYS)

#: One statement for a batch: one array per column of the log row (:data:`LOG_COLUMNS`, in
#: order: ``$1`` match ids … ``$9`` published), then :data:`_MOVE_ARRAYS` (``$10`` …), one
#: element per move. A move bumps its match row from version ``seq - 1`` to ``seq`` if the
#: row is still live at that version and clock, and appends its log row. Returns the match
#: ids written.
BATCH_SQL = f"""
WITH input AS (
    SELECT * FROM unnest(
        {", ".join(f"${n}::{kind}" for n, (_, kind) in enumerate(_ARRAYS, 1))}
    ) AS t({", ".join(name for name, _ in _ARRAYS)})
), bumped AS (
    UPDATE matches m SET
        version = i.seq,
        seat_to_act = i.seat_to_act,
        turn = i.turn,
        scores = i.scores::json,
        updated_at = i.created_at,
        {LOOK_BY_SET.format(due="i.due", refresh="i.refresh")},
        clock = CASE WHEN i.sets_clock THEN i.new_clock::json ELSE m.clock END
    FROM input i
    WHERE m.id = i.match_id AND m.version = i.seq - 1 AND m.status = 'live'
        AND m.clock::jsonb IS NOT DISTINCT FROM i.old_clock::jsonb
    RETURNING m.id
)
{LOG_INSERT}
SELECT {", ".join(f"i.{column}" for column in LOG_COLUMN_NAMES)}
FROM input i JOIN bumped b ON b.id = i.match_id
RETURNING match_id
"""


#: The columns every batched move sets (the batch statement sets them all).
BATCH_REQUIRED = BATCH_COLUMNS - {"clock"}


def batchable(values: Mapping[str, Any], at: datetime) -> bool:
    """Whether a move setting the match-row ``values`` at ``at`` can join a batch: it sets
    every column of :data:`BATCH_REQUIRED`, ``updated_at`` to ``at``, and nothing else but the
    clock (a move writing a snapshot, or the last move, goes alone).
    """
    keys = values.keys()
    return BATCH_REQUIRED <= keys <= BATCH_COLUMNS and values["updated_at"] == at


@dataclass(slots=True)
class Append:
    """One move to append (what :func:`app.db.hot.append_fast` takes): its log ``row``, the
    clock the match row must still hold (``old_clock``, JSON text or None), the match-row
    columns it sets (``values``; ``version``: ``row.version``), the new clock and the scores
    as JSON text (``new_clock`` None when the move sets no clock).
    """

    row: LogRow
    old_clock: str | None
    values: Mapping[str, Any]
    new_clock: str | None
    scores: str
    #: Set by :meth:`AppendBatcher.append`.
    answer: asyncio.Future[bool] | None = field(repr=False, default=None)


#: Writes one move alone (its own statement), returning whether it was written; raises
#: :data:`app.db.txs.DUPLICATE` for a repeated client action id.
WriteOne = Callable[[Any, Append], Awaitable[bool]]


class AppendBatcher:
    """Queues moves and writes them in batches, at most ``flushes`` statements in flight.

    ``connection``: an async context manager factory yielding an asyncpg connection
    (:meth:`app.db.session.Database.raw`); ``write_one``: the single statement (for a batch of
    one, and to retry a batch move by move after a unique violation). ``flushes``: 1 batches
    the most; 2 (the default) lets a move start while one slow statement is in flight, so a
    stalled round trip does not hold every other match's move behind it.
    """

    def __init__(
        self, connection: Callable[[], Any], write_one: WriteOne, flushes: int = 2
    ) -> None:
        self._connection = connection
        self._write_one = write_one
        self._queue: list[Append] = []
        self._max_flushes = max(1, flushes)
        self._flushing: set[asyncio.Task[None]] = set()
        #: Moves written, and statements used for them (batch sizes: ``moves / statements``).
        self.moves = 0
        self.statements = 0

    async def append(self, move: Append) -> bool:
        """Queue ``move`` and wait for its answer (see the module docstring)."""
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        move.answer = answer
        self._queue.append(move)
        self._start_flushing()
        return await answer

    def _start_flushing(self) -> None:
        if self._queue and len(self._flushing) < self._max_flushes:
            task = asyncio.get_running_loop().create_task(self._flush_all())
            self._flushing.add(task)
            task.add_done_callback(self._flush_ended)

    def _flush_ended(self, task: asyncio.Task[None]) -> None:
        self._flushing.discard(task)
        self._start_flushing()  # queued while it was ending (or it was cancelled)

    async def _flush_all(self) -> None:
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            await self._flush(batch)

    async def _flush(self, batch: list[Append]) -> None:
        self.moves += len(batch)
        try:
            async with self._connection() as pg:
                if len(batch) == 1:
                    self.statements += 1
                    _answer(batch[0], await self._write_one(pg, batch[0]))
                else:
                    await self._write_batch(pg, batch)
        except BaseException as exc:
            for move in batch:
                _fail(move, exc)
            if not isinstance(exc, Exception):
                raise

    async def _write_batch(self, pg: Any, batch: list[Append]) -> None:
        self.statements += 1
        try:
            rows = await pg.fetch(BATCH_SQL, *_columns(batch))
        except DUPLICATE:
            # Nothing of the batch was written: each move alone, so the error is its own.
            for move in batch:
                self.statements += 1
                try:
                    _answer(move, await self._write_one(pg, move))
                except DUPLICATE as exc:
                    _fail(move, exc)
            return
        written = {row[0] for row in rows}
        for move in batch:
            _answer(move, move.row.match_id in written)

    async def close(self) -> None:
        """Wait for the flushes in flight (used when the database closes)."""
        for task in list(self._flushing):
            with contextlib.suppress(Exception):
                await task


def _answer(move: Append, written: bool) -> None:
    if move.answer is not None and not move.answer.done():  # its caller may be gone
        move.answer.set_result(written)


def _fail(move: Append, exc: BaseException) -> None:
    if move.answer is None or move.answer.done():
        return
    if isinstance(exc, asyncio.CancelledError):
        move.answer.cancel()
    else:
        move.answer.set_exception(exc)


def _columns(batch: list[Append]) -> list[list[Any]]:
    """The arrays of :data:`BATCH_SQL` for ``batch``: the log rows' columns, then the moves'."""
    log = [list(column) for column in zip(*(m.row.args() for m in batch), strict=True)]
    return [
        *log,
        [m.old_clock for m in batch],
        [m.values["seat_to_act"] for m in batch],
        [m.values["turn"] for m in batch],
        [m.scores for m in batch],
        [m.values["look_by"].due for m in batch],
        [m.new_clock for m in batch],
        ["clock" in m.values for m in batch],
        [m.values["look_by"].refresh for m in batch],
    ]
