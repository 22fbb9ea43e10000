"""Durable delivery: every committed batch reaches every socket of every instance.

The action log is the outbox (``match_actions.published``):

1. The instance that commits a batch hands it to its own sockets at once (no broker round
   trip) and publishes it; a failed publish is retried (:func:`publish_batch`). Published rows
   are marked in bulk a moment later (:func:`flush_marks`).
2. Any instance's sweep (:func:`delivery_loop`) claims rows still unpublished after
   :data:`SWEEP_AFTER` seconds with ``FOR UPDATE SKIP LOCKED`` — the committer died between
   commit and publish, or the broker lost the message — and publishes the match's head version;
   a hub behind it fetches the gap from the log.
3. Whatever the broker does, every instance compares the versions of the matches it has
   sockets on with the database every :data:`WATCH_EVERY` seconds (one query for all of
   them) and fetches what its hubs miss; hubs also tell each other their version in the
   presence heartbeat.

So after any single fault (an instance SIGKILLed at any point of the write path, Redis down or
paused) every connected client is at the latest version within :data:`WATCH_EVERY` plus one
fetch — well inside the 5 s promised in docs/API.md. Receivers drop duplicates by version.

Changes that are not actions — ``clock`` frames (a leave countdown, a vote, a proposal) and the
final snapshot of a match ended early by vote — are state, not a log: only the latest value
matters, so they need no outbox rows. Each such write counts in ``matches.notes`` (in the same
statement, :meth:`app.db.txs.Tx.update_match`); the watch compares that count too, and a hub that
sees it grow re-sends the current clock (or the final position) to its sockets — the same
bound as for actions, whatever happened to the broadcast.

An instance that holds every socket of a match (no other instance announced any) writes its
batches as published and does not broadcast them: nobody else would hear them, and an instance
whose announcement was still on its way catches up by its watch.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from datetime import timedelta

from app.db.errors import log_failure
from app.db.models import utcnow
from app.engine.view import view_delta
from app.realtime.protocol import broker_message, events_frame
from app.services.cache import Live
from app.services.clock import clocks
from app.services.match import queries
from app.services.match.committed import Committed
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

#: A batch still unpublished this long after its commit is published by the sweep (seconds).
SWEEP_AFTER = 1.5
#: Seconds between two comparisons of local hubs with the database's versions.
WATCH_EVERY = 1.0
#: Publish attempts by the committing instance before leaving a batch to the sweep.
PUBLISH_ATTEMPTS = 3
#: Seconds between two flushes of the published marks.
MARK_EVERY = 0.25

#: Tests only (``ENVIRONMENT=test``): SIGKILL this process right after committing the action
#: that makes this version — before any socket or the broker hears of it.
KILL_AFTER_COMMIT = "CARCASSONNE_TEST_KILL_AFTER_COMMIT"


async def flush_marks(rt: Runtime) -> None:
    """Mark the batches the broker took as published, in one statement (kept for the next
    flush when the database fails).
    """
    if not rt.fanout.published:
        return
    batch, rt.fanout.published = rt.fanout.published, []
    try:
        await queries.mark_published(rt.storage.db, batch)
    except Exception:
        rt.fanout.published = batch + rt.fanout.published
        raise


def after_commit_hook(rt: Runtime, version: int) -> None:
    """The test hook of :data:`KILL_AFTER_COMMIT` (does nothing outside tests)."""
    if rt.settings.environment != "test":
        return
    target = os.environ.get(KILL_AFTER_COMMIT)
    if target and target.isdigit() and int(target) == version:
        os.kill(os.getpid(), signal.SIGKILL)


def on_move_committed(rt: Runtime, live: Live, move: Committed) -> None:
    """Subscriber of ``rt.move_committed``: the batch frame (with ``by``, the clock and the
    view delta) encoded once, handed to this instance's sockets, and published for the other
    instances unless ``move.published`` (not awaited: a slow or dead broker must not delay
    the answer; the outbox sweep covers a publish that never happens).
    """
    after_commit_hook(rt, move.version)
    frame = events_frame(
        move.version,
        move.seat,
        move.client_id,
        move.events_json,
        by=move.by,
        clock=clocks.public(live.clock),
        delta=view_delta(live.state, move.events),
    )
    hub = rt.fanout.hubs.get(rt.fanout.channel("match", move.match_id))
    if hub is not None:
        hub.deliver(move.version, frame)
    if not move.published:
        rt.spawn(publish_batch(rt, move.match_id, move.version, frame))


async def publish_batch(rt: Runtime, match_id: str, version: int, frame: str) -> None:
    """Publish a committed batch to the other instances, retrying; mark it published."""
    channel = rt.fanout.channel("match", match_id)
    # The origin carries the publish time (``id@unix``): receivers time the delivery with it.
    origin = f"{rt.fanout.broker.instance_id}@{time.time():.4f}"
    message = broker_message(origin, "batch", version, frame)
    for attempt in range(PUBLISH_ATTEMPTS):
        if await rt.fanout.broker.publish(channel, message):
            rt.fanout.published.append((match_id, version))
            return
        rt.metrics.publish_failures.inc()
        await asyncio.sleep(0.3 * (attempt + 1))
    log.warning("batch %s of match %s left to the outbox sweep", version, match_id)


async def sweep_once(rt: Runtime, older_than: float = SWEEP_AFTER) -> int:
    """Publish the head version of every match with batches unpublished for ``older_than``
    seconds (a draining instance: 0, every one); returns how many matches were announced (0
    when another instance holds them, or none is due).
    """
    before = utcnow() - timedelta(seconds=older_than)
    async with queries.claim_unpublished(rt.storage.db, before) as heads:
        for match_id, version in heads.items():
            ok = await rt.fanout.broker.publish(
                rt.fanout.channel("match", match_id),
                broker_message(rt.fanout.broker.instance_id, "head", version, ""),
            )
            if not ok:
                raise ConnectionError("broker down: the rows stay unpublished")
            hub = rt.fanout.hubs.get(rt.fanout.channel("match", match_id))
            if hub is not None:
                hub.behind(version)
        rt.metrics.sweep_announced.inc(len(heads))
        return len(heads)


async def watch_versions(rt: Runtime) -> None:
    """Compare the version of every match with a hub here with the database's — a hub behind
    fetches the gap — and its count of non-action changes (``notes``: the clock changed without
    a move, or the match ended early) — a hub that sees it grow sends the current clock or
    final position to its sockets.
    """
    hubs = rt.fanout.hubs.ordered_hubs()
    if not hubs:
        return
    versions = await queries.match_versions(rt.storage.db, list(hubs))
    for match_id, (version, notes) in versions.items():
        hub = hubs[match_id]
        if hub.last_v is not None and version > hub.last_v:
            rt.metrics.watch_catch_ups.inc()
        hub.behind(version)
        hub.noted(notes)


async def delivery_loop(rt: Runtime) -> None:
    """Forever: flush published marks, sweep the outbox, watch the versions (see the module
    docstring).
    """
    ticks = 0
    per_second = round(1 / MARK_EVERY)
    while True:
        await asyncio.sleep(MARK_EVERY)
        ticks += 1
        try:
            await flush_marks(rt)
            if ticks % round(WATCH_EVERY / MARK_EVERY) == 0:
                await watch_versions(rt)
            if ticks % per_second == 0:
                await sweep_once(rt)
        except asyncio.CancelledError:
            raise
        except ConnectionError as exc:
            log.debug("outbox sweep: %s", exc)
        except Exception:
            log_failure(log, "delivery loop failed")
