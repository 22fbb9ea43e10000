"""Draining an instance for a restart: a deploy nobody notices.

On ``SIGTERM`` (wired in :mod:`app.server`) the instance, within ``DRAIN_TIMEOUT`` seconds:

1. :func:`begin` — refuses new work: ``/readyz`` says no, new requests get 503 ``unavailable``
   and new websockets are refused (:mod:`app.api.shell.draining`), and frames that would write
   (actions, chat, clock requests) arriving on open sockets are no longer taken
   (:func:`taking`; the client sends them again on its next socket, or over REST).
2. :func:`close_sockets` — waits for the frames in flight to finish, sends every socket what
   its outbox still holds (the answers to those actions included), then closes it with
   **1012** (service restart): the client reconnects at once, to another instance, with
   ``since=<last version>``. A socket closed by a drain is not its player leaving: no leave
   countdown starts and the seat is not marked gone
   (:func:`app.services.match.delivery.sockets.left_match`); the seat stays present until the
   other instance's socket refreshes it.
3. :func:`finish` (the app's lifespan shutdown, after uvicorn let the requests in flight end)
   — stops the background loops, lets the background work in flight end (publishes, bot
   moves), marks the published batches and publishes the head of every batch still
   unpublished, so no other instance's outbox sweep needs to step in.

Nothing here decides when: :mod:`app.server` calls these in order with one deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Iterator

from app.services.match.delivery import delivery
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

#: The websocket close code of a drained socket (RFC 6455: "service restart").
SERVICE_RESTART = 1012
RESTART_REASON = "service restart: reconnect"
#: The drain's phases end at these shares of ``DRAIN_TIMEOUT`` after it began: sockets closed
#: (:func:`close_sockets`), requests in flight answered (uvicorn's graceful shutdown), spawned
#: work settled (:func:`finish`); the last outbox flush has what is left.
SOCKETS, REQUESTS, WORK = 0.5, 0.7, 0.9

#: Tests only (``ENVIRONMENT=test``): seconds the drain waits between refusing new work and
#: closing the sockets, so a test can watch a draining instance.
TEST_PAUSE = "CARCASSONNE_TEST_DRAIN_PAUSE"


def begin(rt: Runtime) -> None:
    """Start draining: from now on the instance takes no new request, socket or frame. The
    clock of the drain's phases (:func:`by`) starts at the first call.
    """
    if not rt.draining:
        rt.draining = True
        rt.drain_started = time.monotonic()
        log.warning(
            "draining (at most %.1f s): refusing new requests and sockets",
            rt.settings.drain_timeout,
        )


def by(rt: Runtime, share: float) -> float:
    """When (``time.monotonic()``) the drain's phase ending at ``share`` of ``DRAIN_TIMEOUT``
    ends.
    """
    return rt.drain_started + share * rt.settings.drain_timeout


@contextlib.contextmanager
def taking(rt: Runtime) -> Iterator[bool]:
    """Around the handling of one socket frame that writes: yields False when the instance is
    draining (the frame must be dropped), True otherwise — and then counts it as in flight
    until the block ends, so :func:`close_sockets` waits for it.
    """
    if rt.draining:
        yield False
        return
    rt.in_flight += 1
    try:
        yield True
    finally:
        rt.in_flight -= 1


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


async def close_sockets(rt: Runtime) -> int:
    """Wait for the frames in flight and for their batches to reach the sockets' outboxes
    (through each hub), flush every socket's outbox and close it with :data:`SERVICE_RESTART`,
    then wait for the sockets' handlers to leave their hubs, and close every other admitted
    socket (``rt.fanout.admitted``: the tournament page's) — all within the phase :data:`SOCKETS`.
    Returns how many sockets were closed.
    """
    deadline = by(rt, SOCKETS)
    pause = os.environ.get(TEST_PAUSE) if rt.settings.environment == "test" else None
    if pause:
        await asyncio.sleep(float(pause))
    while rt.in_flight > 0 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    if rt.in_flight:
        log.warning("draining: %d frames still in flight at the deadline", rt.in_flight)
    hubs = list(rt.fanout.hubs.hubs.values())
    with contextlib.suppress(TimeoutError):  # their answers reach the sockets' outboxes
        await asyncio.wait_for(asyncio.gather(*(h.forwarded() for h in hubs)), _left(deadline))
    connections = [c for hub in hubs for c in list(hub.connections)]
    if connections:
        await asyncio.gather(
            *(c.finish(SERVICE_RESTART, RESTART_REASON, _left(deadline)) for c in connections),
            return_exceptions=True,
        )
    while any(hub.connections for hub in list(rt.fanout.hubs.hubs.values())):
        if time.monotonic() >= deadline:
            break
        await asyncio.sleep(0.02)
    # Sockets no hub holds (the tournament page's) have no outbox to flush: closed now.
    others = await asyncio.gather(
        *(close(SERVICE_RESTART, RESTART_REASON) for close in list(rt.fanout.admitted)),
        return_exceptions=True,
    )
    return len(connections) + sum(1 for closed in others if closed is True)


async def finish(rt: Runtime) -> None:
    """Stop the background loops, let spawned work in flight end (within the phase
    :data:`WORK`), then flush the outbox by the drain's end: mark what was published, publish
    the head of every batch still unpublished (this instance's or anyone's: announcing a head
    twice is harmless, the receivers drop what they have).
    """
    await rt.stop_loops()
    await rt.settle(_left(by(rt, WORK)))
    deadline = by(rt, 1.0)
    try:
        await asyncio.wait_for(delivery.flush_marks(rt), max(0.2, _left(deadline)))
        announced = await asyncio.wait_for(
            delivery.sweep_once(rt, older_than=0.0), max(0.2, _left(deadline))
        )
    except Exception as exc:  # the others' sweeps publish what is left
        log.warning("draining: the last outbox flush failed (%r)", exc)
        return
    if announced:
        log.info("draining: published the head of %d matches", announced)
