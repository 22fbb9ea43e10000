"""When a tournament moves on by itself: a match settled (a ``match_settled`` listener) and the
sweep every instance runs (:data:`SWEEP_EVERY` seconds): start the tournaments whose start
time has come and that have enough checked-in entrants (once:
:func:`app.services.tournaments.starting.start_scheduled` holds the row lock), cancel those
still short of entrants :data:`START_GRACE` after their start time, hold the clocks of paused
tournaments that run again, settle tournament matches whose history was missed, and advance
every running tournament (:func:`app.services.tournaments.rounds.advance`; its row lock keeps
instances apart).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from app.db.errors import log_failure
from app.db.models import utcnow
from app.db.session import as_utc
from app.services.records import history
from app.services.records import queries as records_sql
from app.services.runtime import Runtime
from app.services.tournaments import live, pause
from app.services.tournaments import queries as sql
from app.services.tournaments.rounds import advance
from app.services.tournaments.starting import start_scheduled

log = logging.getLogger(__name__)

#: Seconds between two looks of the sweep at the running tournaments.
SWEEP_EVERY = 2.0
#: A scheduled tournament still short of checked-in entrants this long after its start time is
#: cancelled (until then the sweep starts it as soon as enough check in).
START_GRACE = timedelta(minutes=15)
#: A finished match whose history nobody settled after this long is settled by the sweep.
SETTLE_LATE = timedelta(seconds=10)


def listen(rt: Runtime) -> None:
    """Subscribe the tournaments' listener to ``rt.match_settled`` (at startup, once)."""
    rt.match_settled.subscribe(on_match_settled)


def on_match_settled(rt: Runtime, match_id: str) -> None:
    """Listener of ``rt.match_settled``: a settled match may finish a round."""
    rt.spawn(match_settled(rt, match_id))


async def match_settled(rt: Runtime, match_id: str) -> None:
    """A match's history settled: when it was a tournament game, move the tournament on (its
    result is there to count). Never raises: the sweep catches what this misses.
    """
    try:
        async with rt.storage.db.reading() as conn:
            tid = await sql.tournament_of_match(conn, match_id)
        if tid is not None:
            await advance(rt, tid)
    except Exception:
        log_failure(log, f"could not count tournament match {match_id}")


async def sweep(rt: Runtime) -> None:
    """Background loop: every :data:`SWEEP_EVERY` seconds, hold the clocks of paused
    tournaments that run again, settle tournament matches whose history was missed and move
    every running tournament on (the row lock keeps instances apart).
    """
    while True:
        await asyncio.sleep(SWEEP_EVERY)
        try:
            await sweep_once(rt)
        except Exception:
            log_failure(log, "tournament sweep failed")


async def sweep_once(rt: Runtime) -> int:
    """One pass of :func:`sweep`; returns how many tournaments changed."""
    now = utcnow()
    async with rt.storage.db.reading() as conn:
        due = await sql.due_to_start(conn, now)
        overdue = await sql.has_overdue(conn, now - START_GRACE)
    if overdue:
        async with rt.storage.db.transaction() as conn:
            cancelled = await sql.cancel_unstarted(conn, now - START_GRACE, now)
        for tid in cancelled:
            log.info("tournament %s cancelled: too few checked in by its start", tid)
            await live.publish(rt, tid)
    for tid in due:
        await start_scheduled(rt, tid)
    async with rt.storage.db.reading() as conn:
        ids = await sql.running(conn)
        paused = await sql.paused(conn)
    for tid in paused:
        await pause.keep_held(rt, tid)
    changed = 0
    for tid in ids:
        async with rt.storage.db.reading() as conn:
            games = [
                g.match_id for g in await sql.games(conn, tid) if g.points is None and g.match_id
            ]
            states = await sql.match_states(conn, games)
        for match_id in games:
            m = states.get(match_id)
            if m is not None and m.status == "finished":
                await _settle_if_late(rt, match_id)
        changed += int(await advance(rt, tid))
    return changed


async def _settle_if_late(rt: Runtime, match_id: str) -> None:
    async with rt.storage.db.reading() as conn:
        m = await records_sql.match_result(conn, match_id)
    if m is None or m.finished_at is None:
        return
    if utcnow() - as_utc(m.finished_at) > SETTLE_LATE:
        await history.settle(rt, match_id)
