"""Outage credit: a deploy or a crash never costs anyone time.

Every instance writes a heartbeat into ``instance_heartbeats`` every ``instance_heartbeat``
seconds. An instance that starts looks at the latest heartbeat of any instance: if none beat
for longer than :data:`GAP_FACTOR` heartbeats, nobody was serving (a restart, the crash of the
only instance), and it moves every running deadline of every live match later by the gap
(:func:`app.services.clock.rules.credit`) — once: the check and the credit run in one transaction
serialised by an advisory lock on Postgres (SQLite has one writer), and the instance's own
heartbeat is written in that same transaction, so the next instance to start sees no gap.

The gap is measured from the last heartbeat, so the credit may exceed the true outage by up to
one heartbeat interval; it is never less.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from app.db.models import utcnow
from app.db.session import as_utc
from app.db.txs import MatchChanges
from app.services.clock import clocks, queries
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

#: A gap longer than this many heartbeat intervals with no instance beating is an outage.
GAP_FACTOR = 2.0
#: Heartbeat rows older than this are deleted (instances that are gone for good).
KEEP = timedelta(days=1)
_LOCK_KEY = 13_131_313


async def start_and_credit(rt: Runtime) -> int:
    """Check for an outage, credit it to every live match's clock, and write this instance's
    first heartbeat. Returns the credited gap in milliseconds (0: no outage).
    """
    instance = rt.fanout.broker.instance_id
    async with rt.storage.db.transaction() as conn:
        if rt.storage.db.is_postgres:
            await queries.advisory_lock(conn, _LOCK_KEY)
        last = await queries.last_heartbeat(conn)
        now = utcnow()
        gap_ms = 0
        if last is not None:
            gap = now - as_utc(last)
            if gap.total_seconds() > GAP_FACTOR * rt.settings.instance_heartbeat:
                gap_ms = int(gap.total_seconds() * 1000)
        if gap_ms:
            rows = await queries.live_clocks(conn, lock=rt.storage.db.is_postgres)
            for row in rows:
                clock, due = clocks.credit_all(row.clock, gap_ms)
                values: MatchChanges = {"clock": clock}
                if row.next_bot_at is not None:
                    values["next_bot_at"] = clocks.earliest(
                        as_utc(row.next_bot_at) + timedelta(milliseconds=gap_ms), due
                    )
                await queries.update_match(conn, row.id, values)
            log.warning(
                "no instance served for %.1f s: credited to %d live matches' clocks",
                gap_ms / 1000,
                len(rows),
            )
        await queries.forget_heartbeats_before(conn, now - KEEP)
        # Stamped at the end, not at ``now``: crediting many clocks takes time, and an instance
        # checking right after this one must not count that time as a gap.
        await queries.insert_heartbeat(conn, instance, utcnow())
    return gap_ms


async def beat(rt: Runtime) -> None:
    """Refresh this instance's heartbeat."""
    async with rt.storage.db.transaction() as conn:
        if not await queries.refresh_heartbeat(conn, rt.fanout.broker.instance_id, utcnow()):
            await queries.insert_heartbeat(conn, rt.fanout.broker.instance_id, utcnow())
