"""Starting a tournament: by its organiser, or by the sweep at its start time — both under the
tournament's row lock, so it starts once: registration closes, the registered players who did
not check in are dropped (no-shows), the rounds are fixed and round 1 is paired
(:mod:`app.services.tournaments.rounds`).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.db.session import as_utc
from app.services.errors import Conflict, Forbidden, NotFound
from app.services.runtime import Runtime
from app.services.tournaments import queries as sql
from app.services.tournaments.formats import knockout
from app.services.tournaments.model import Tournament, TournamentChange, TournamentJson
from app.services.tournaments.reads import view
from app.services.tournaments.rounds import pair_until_pending
from app.services.tournaments.tournaments import announce, total_rounds

log = logging.getLogger(__name__)


async def start(rt: Runtime, tid: str, host_id: str) -> TournamentJson:
    """Host only: close registration, drop the registered players who did not check in
    (no-shows), and pair round 1. A Swiss asking for more rounds than its field allows (every
    pair once) plays as many as it allows. Raises :class:`Forbidden`, :class:`NotFound`,
    :class:`Conflict` (started, fewer than two checked-in entrants).
    """
    async with rt.storage.db.transaction() as conn:
        t = await sql.tournament(conn, tid, lock=True)
        if t is None:
            raise NotFound("no such tournament")
        if t.host_id != host_id:
            raise Forbidden("only the organiser can do that")
        await _start_locked(rt, conn, t)
    await announce(rt, tid)
    return await view(rt, tid, host_id)


async def start_scheduled(rt: Runtime, tid: str) -> bool:
    """The sweep: start tournament ``tid`` if it is still in registration and its start time
    has come (under its row lock: one instance starts it, once). The sweep asks only for
    tournaments with enough checked-in entrants
    (:func:`app.services.tournaments.queries.due_to_start`); one found short after all stays
    in registration (the organiser may also start it by hand) until enough check in or the
    sweep cancels it. Returns whether it started.
    """
    async with rt.storage.db.transaction() as conn:
        t = await sql.tournament(conn, tid, lock=True)
        if t is None or t.status != "registering" or t.starts_at is None:
            return False
        if as_utc(t.starts_at) > utcnow():
            return False
        try:
            await _start_locked(rt, conn, t)
        except Conflict:
            return False  # too few checked in yet: nothing was written
    log.info("tournament %s started at its start time", tid)
    await announce(rt, tid)
    return True


async def _start_locked(rt: Runtime, conn: AsyncConnection, t: Tournament) -> None:
    """:func:`start`'s work, inside the caller's transaction holding the tournament's row."""
    tid = t.id
    if t.status != "registering":
        raise Conflict("the tournament has started", reason="tournament_started")
    people = await sql.entrants(conn, tid)
    ready = [e for e in people if e.status == "checked_in"]
    if len(ready) < 2:
        raise Conflict("at least two checked-in entrants are needed", reason="tournament_too_few")
    if len(ready) < t.seats:
        raise Conflict(
            f"at least {t.seats} checked-in entrants are needed", reason="tournament_too_few"
        )
    # Written only once nothing can refuse the start (a scheduled start that finds too few
    # checked in writes nothing and tries again).
    no_shows = [e.number for e in people if e.status == "registered"]
    await sql.set_entrant_status(conn, tid, no_shows, "dropped")
    n = len(ready)
    now = utcnow()
    values: TournamentChange = {"status": "running", "starts_at": now}
    if t.format == "arena":
        values["ends_at"] = now + timedelta(minutes=int(t.duration_minutes or 0))
    elif t.format == "knockout":
        values["rounds"] = knockout.rounds_for(n)
    else:
        rounds = total_rounds(t, n)
        if t.format == "swiss":
            rounds = min(rounds, n - 1 if n % 2 == 0 else n)
        values["rounds"] = rounds
    await sql.update_tournament(conn, tid, values)
    await pair_until_pending(rt, conn, tid)
