"""The analysis of a finished match by the Strong computer player (app/bots/analysis.py):
asked for, queued, computed in the bot worker pool, stored once and shared.

- Only for a finished match (never during play: no help while it is played), and seen by
  whoever may see its replay (:func:`app.services.match.reads.check_watch`).
- Asked for by a person (:func:`request_analysis`) or by the server when a rated match ends
  (:func:`analyse_if_rated`). Bounded: at most :data:`PER_PLAYER` analyses waiting per
  person, :data:`QUEUE` asked for by people in all (``rate_limited``, reason
  ``analysis_busy``), :data:`GUEST_QUEUE` of them by guests (``analysis_guests_busy``: a guest
  is free to make, so guests share a smaller part), and beyond people's :data:`QUEUE` another
  :data:`RATED_ROOM` that only the server's requests for rated matches may take (people can
  never crowd them out). The queue is counted and taken in one step: under an advisory lock
  on Postgres (SQLite has one writer), never check-then-insert. An instance
  runs one at a time, a few turns per worker task (:data:`CHUNK`) with a pause as long as the
  task after each (:data:`PAUSE_SHARE`), so the bots' turns get a worker between two tasks,
  people's moves (on the event loop) never wait for one, and a small machine's cores are not
  kept busy by analyses.
- Stored in ``match_analyses`` (app/db/analyses.py). A row left ``queued`` or ``running``
  for :data:`ABANDONED_AFTER` (its instance stopped) may be asked for again.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from app.bots.analysis import PLAYOUTS, count_moves, moves_in_worker, summary
from app.bots.pool import Busy
from app.db.errors import is_database_unavailable, log_failure
from app.db.models import utcnow
from app.db.session import as_utc
from app.engine import export_record
from app.json_types import JsonObject
from app.services.errors import Conflict, RateLimited
from app.services.match import queries
from app.services.match.reads import check_watch, current
from app.services.runtime import Runtime

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Analyses waiting or running at once: per person; asked for by people (accounts and guests)
#: in all; by guests in all (a part of ``QUEUE``); and the room beyond ``QUEUE`` kept for the
#: server's requests (rated matches when they end), which are refused only past
#: ``QUEUE + RATED_ROOM`` in all.
PER_PLAYER = 2
QUEUE = 16
GUEST_QUEUE = 4
RATED_ROOM = 16
#: Turns analysed per worker task.
CHUNK = 6
#: A row still queued or running this long after it was asked for is abandoned.
ABANDONED_AFTER = timedelta(minutes=15)
#: Seconds one worker task may take before it counts as stuck.
TASK_TIMEOUT = 120.0
#: After each worker task the analysis waits this share of the task's time: the worker's core
#: is left idle half the time for the bots' turns and, on a small machine, for people's moves.
PAUSE_SHARE = 1.0

_PENDING = ("queued", "running")
_gates: weakref.WeakKeyDictionary[Runtime, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def _gate(rt: Runtime) -> asyncio.Semaphore:
    """One analysis at a time per instance."""
    gate = _gates.get(rt)
    if gate is None:
        gate = _gates[rt] = asyncio.Semaphore(1)
    return gate


def _abandoned(row: queries.Analysis) -> bool:
    return row.status in _PENDING and as_utc(row.requested_at) < utcnow() - ABANDONED_AFTER


def analysis_json(match_id: str, row: queries.Analysis | None) -> JsonObject:
    """``{"match_id", "status": none|queued|running|done|failed, "requested_at",
    "finished_at", "seconds", "error", "analysis"}`` (``analysis``: the
    ``carcassonne-analysis/1`` JSON once done, else null).
    """
    if row is None:
        return {
            "match_id": match_id,
            "status": "none",
            "requested_at": None,
            "finished_at": None,
            "seconds": None,
            "error": None,
            "analysis": None,
        }
    failed = _abandoned(row)
    return {
        "match_id": match_id,
        "status": "failed" if failed else row.status,
        "requested_at": as_utc(row.requested_at).isoformat(),
        "finished_at": as_utc(row.finished_at).isoformat() if row.finished_at else None,
        "seconds": row.seconds,
        "error": "abandoned: ask again" if failed else row.error,
        "analysis": row.result if row.status == "done" else None,
    }


async def _finished_record(
    rt: Runtime, match_id: str, player_id: str | None, code: str | None, *, check: bool
) -> dict[str, Any]:
    """The record of a finished match; raises :class:`NotFound`, :class:`Forbidden` (with
    ``check``: private), :class:`Conflict` (``analysis_live``: still being played).
    """
    live = await current(rt, match_id)
    if check:
        check_watch(live, player_id, code)
    if not live.state.is_over:
        raise Conflict(
            "a match is analysed once it is over (no help during play)", reason="analysis_live"
        )
    return export_record(live.state)


async def get_analysis(
    rt: Runtime, match_id: str, player_id: str | None, code: str | None
) -> JsonObject:
    """The match's analysis as it stands (:func:`analysis_json`). Raises :class:`NotFound`,
    :class:`Forbidden` (private), :class:`Conflict` (``analysis_live``).
    """
    await _finished_record(rt, match_id, player_id, code, check=True)
    async with rt.storage.db.reading() as conn:
        row = await queries.analysis(conn, match_id)
    return analysis_json(match_id, row)


async def request_analysis(
    rt: Runtime, match_id: str, player_id: str | None, code: str | None
) -> JsonObject:
    """Ask for the match's analysis (idempotent: one done, queued or running is returned as it
    is). ``player_id`` None: the server asks (for a rated match; no per-person limit, and the
    room of :data:`RATED_ROOM` beyond people's). The queue is counted and the request queued
    under one lock (:func:`queries.lock_analysis_queue`), so concurrent requests never pass
    the caps. Raises :class:`NotFound`, :class:`Forbidden`, :class:`Conflict`
    (``analysis_live``), :class:`RateLimited` (``analysis_busy``: too many waiting for this
    person, or people's :data:`QUEUE` full, or — the server asking — the whole queue full;
    ``analysis_guests_busy``: a guest, and guests' :data:`GUEST_QUEUE` full).
    """
    await _finished_record(rt, match_id, player_id, code, check=player_id is not None)
    async with rt.storage.db.transaction() as conn:
        await queries.lock_analysis_queue(conn, rt.storage.db.is_postgres)
        row = await queries.analysis(conn, match_id)
        if row is not None and (
            row.status == "done" or (row.status in _PENDING and not _abandoned(row))
        ):
            return analysis_json(match_id, row)
        waiting = await queries.pending_analyses(conn, utcnow() - ABANDONED_AFTER, player_id)
        _check_room(
            waiting,
            player_id,
            player_id is not None and not await queries.is_member(conn, player_id),
        )
        await queries.queue_analysis(conn, match_id, player_id, utcnow())
        row = await queries.analysis(conn, match_id)
    rt.spawn(run_analysis(rt, match_id))
    return analysis_json(match_id, row)


def _check_room(waiting: dict[str, int], player_id: str | None, guest: bool) -> None:
    """Raise :class:`RateLimited` unless the queue (``waiting``: the counts of
    :func:`queries.pending_analyses`) has room for one more request of ``player_id`` (None:
    the server's, for a rated match); ``guest``: the asker has no account.
    """
    if player_id is None:
        if waiting["all"] >= QUEUE + RATED_ROOM:
            raise RateLimited(
                "the computer players are busy analysing: try again in a minute",
                retry_after=60,
                reason="analysis_busy",
            )
        return
    if waiting["mine"] >= PER_PLAYER:
        raise RateLimited(
            f"at most {PER_PLAYER} analyses waiting per player: wait for yours to finish",
            retry_after=30,
            reason="analysis_busy",
        )
    if guest and waiting["guests"] >= GUEST_QUEUE:
        raise RateLimited(
            f"guests have at most {GUEST_QUEUE} analyses waiting together: sign in, or try "
            "again in a minute",
            retry_after=60,
            reason="analysis_guests_busy",
            params={"max": GUEST_QUEUE},
        )
    if waiting["people"] >= QUEUE:
        raise RateLimited(
            "the computer players are busy analysing: try again in a minute",
            retry_after=60,
            reason="analysis_busy",
        )


#: Tries (a second apart) to ask for a rated match's analysis while the database is away.
UNAVAILABLE_TRIES = 10


async def analyse_if_rated(rt: Runtime, match_id: str) -> None:
    """After a match ended: ask for its analysis when it was rated. Never raises: while the
    database is out of reach (a restart, a failover) it tries again a second later, up to
    :data:`UNAVAILABLE_TRIES` times; what still fails is logged (one line for an outage, the
    traceback for anything else).
    """
    for attempt in range(UNAVAILABLE_TRIES):
        try:
            async with rt.storage.db.reading() as conn:
                rated = await queries.is_rated_match(conn, match_id)
            if rated:
                await request_analysis(rt, match_id, None, None)
            return
        except RateLimited:
            log.info("analysis of rated match %s skipped: the queue is full", match_id)
            return
        except Exception as exc:
            if is_database_unavailable(exc) and attempt + 1 < UNAVAILABLE_TRIES:
                await asyncio.sleep(1.0)
                continue
            log_failure(log, f"could not ask for the analysis of match {match_id}")
            return


async def _offload(rt: Runtime, fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` in the bot pool, waiting while the pool's queue is full."""
    for attempt in range(30):
        try:
            return await rt.workers.bots.offload(fn, *args, timeout=TASK_TIMEOUT)
        except Busy:
            if attempt == 29:
                raise
            await asyncio.sleep(2.0)
    raise AssertionError("unreachable")


async def run_analysis(rt: Runtime, match_id: str) -> None:
    """Compute and store the analysis of a queued match (one at a time per instance)."""
    async with _gate(rt):
        started = time.perf_counter()
        try:
            record = await _finished_record(rt, match_id, None, None, check=False)
            await queries.analysis_running(rt.storage.db, match_id)
            total = await _offload(rt, count_moves, record)
            moves: list[dict[str, Any]] = []
            for first in range(1, total + 1, CHUNK):
                last = min(total, first + CHUNK - 1)
                began = time.perf_counter()
                moves += await _offload(rt, moves_in_worker, record, first, last, PLAYOUTS, 0)
                await asyncio.sleep(PAUSE_SHARE * (time.perf_counter() - began))
            seconds = time.perf_counter() - started
            result = await _offload(rt, summary, record, moves, PLAYOUTS, seconds)
        except Exception as exc:
            log.warning("analysis of match %s failed: %r", match_id, exc)
            await queries.analysis_failed(rt.storage.db, match_id, str(exc), utcnow())
            return
        await queries.analysis_done(
            rt.storage.db, match_id, result, seconds=round(seconds, 2), at=utcnow()
        )
