"""This instance's hubs: :class:`HubManager` opens one :class:`~app.realtime.hub.Hub` per
channel on first use and closes it with its last socket, coalesces presence changes, keeps the
heartbeat (presence announcements, giving memory back after a wave of disconnects), and
:class:`Joined` registers one socket with a hub for an ``async with`` block.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.realtime.broker import Broker
from app.realtime.connection import Connection
from app.realtime.hub import (
    GIVE_BACK_AFTER,
    HEARTBEAT,
    PRESENCE_COALESCE,
    PRESENCE_DIRECT,
    Hub,
    give_back_memory,
)

log = logging.getLogger(__name__)


class HubManager:
    """Every hub of this instance, the presence heartbeat and catch-up after broker trouble."""

    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.hubs: dict[str, Hub] = {}
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()
        #: Sockets closed since memory was last given back, and at the previous tick.
        self._closed = 0
        self._closed_seen = 0
        broker.on_reconnect.append(self._after_reconnect)
        #: Called with the seconds between a batch's publish (its origin's stamp) and its
        #: arrival here (the runtime's metrics); None: not timed.
        self.on_batch_lag: Callable[[float], None] | None = None

    async def start(self) -> None:
        """Start the heartbeat."""
        self._task = asyncio.create_task(self._heartbeat(), name="hub-heartbeat")

    async def close(self) -> None:
        """Stop the heartbeat and pending work (announcements, sockets leaving), close every
        hub.
        """
        for task in [self._task, *self._pending]:
            if task is not None:
                task.cancel()
        for task in [self._task, *self._pending]:
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for hub in list(self.hubs.values()):
            await hub.close()
        self.hubs.clear()

    def get(self, channel: str) -> Hub | None:
        """The open hub of ``channel`` on this instance, if any."""
        return self.hubs.get(channel)

    async def acquire(self, channel: str, factory: Callable[[], Hub]) -> Hub:
        """The hub of ``channel``, opened with ``factory()`` when there is none yet."""
        async with self._lock:
            hub = self.hubs.get(channel)
            if hub is None:
                hub = factory()
                self.hubs[channel] = hub
                await hub.open()
            return hub

    def joined(
        self,
        channel: str,
        factory: Callable[[], Hub],
        connection: Callable[[Hub], Connection],
        after: Callable[[Hub], Awaitable[None]] | None = None,
    ) -> Joined:
        """A :class:`Joined` (use it as ``async with``: hub and connection)."""
        return Joined(self, channel, factory, connection, after)

    async def _leave(
        self, hub: Hub, conn: Connection, after: Callable[[Hub], Awaitable[None]] | None
    ) -> None:
        await self.release(hub, conn)
        if after is not None:
            try:
                await after(hub)
            except Exception:
                log.exception("after leaving %s", hub.channel)

    def pending(self) -> set[asyncio.Task[Any]]:
        """The work started and not done yet: sockets leaving (their ``after`` callbacks
        included) and presence announcements.
        """
        return set(self._pending)

    async def release(self, hub: Hub, conn: Connection) -> None:
        """Remove ``conn``; close the hub when it was the last socket."""
        hub.remove(conn)
        self._closed += 1
        await conn.stop()
        async with self._lock:
            if not hub.connections and self.hubs.get(hub.channel) is hub:
                del self.hubs[hub.channel]
                await hub.close()

    def loop_announce(self, hub: Hub) -> None:
        """Update ``hub``'s local sockets and announce its presence to the other instances.

        A small hub (up to :data:`PRESENCE_DIRECT` sockets) updates its sockets at once; a
        bigger one coalesces the changes of a short burst (:data:`PRESENCE_COALESCE`) into one
        frame, so N joins cost O(N) rather than O(N²). Announcements are always coalesced.
        """
        direct = len(hub.connections) <= PRESENCE_DIRECT
        if direct:
            hub.presence_changed()
        if hub._presence_due:
            return
        hub._presence_due = True
        task = asyncio.get_running_loop().create_task(self._announce_later(hub, not direct))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _announce_later(self, hub: Hub, frames: bool) -> None:
        await asyncio.sleep(PRESENCE_COALESCE)
        hub._presence_due = False
        if hub.closed:
            return
        if frames or len(hub.connections) > PRESENCE_DIRECT:
            hub.presence_changed()
        await hub._announce()

    def ordered_hubs(self) -> dict[str, Hub]:
        """The open match hubs of this instance, by match id."""
        return {h.key: h for h in self.hubs.values() if h.ordered and h.key is not None}

    def _after_reconnect(self) -> None:
        for hub in list(self.hubs.values()):
            hub.resync()
            self.loop_announce(hub)

    async def _heartbeat(self) -> None:
        ticks = 0
        while True:
            await asyncio.sleep(1.0)
            ticks += 1
            try:
                if self._closed >= GIVE_BACK_AFTER and self._closed == self._closed_seen:
                    self._closed = 0
                    give_back_memory()
                self._closed_seen = self._closed
                # No poll of the log while the broker is down: the version watch
                # (app.services.match.delivery.delivery) compares every match hub with the
                # database each second whatever the broker does, in one query for all of them.
                if ticks % int(HEARTBEAT) == 0:
                    for hub in list(self.hubs.values()):
                        await hub._announce()
                        hub.presence_changed()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hub heartbeat failed")


class Joined:
    """A socket joined to a channel for an ``async with`` block: on entry the channel's hub
    (opened with ``factory()`` when there is none) with ``connection(hub)`` registered; on the
    way out the connection is removed, the hub closed if it was the last one, then
    ``after(hub)`` runs — in a task of its own, so all of it completes even when the block is
    cancelled (errors of ``after`` are logged). A small object, not a generator: it lives as
    long as its socket.
    """

    __slots__ = ("_after", "_channel", "_connection", "_factory", "_manager", "conn", "hub")

    def __init__(
        self,
        manager: HubManager,
        channel: str,
        factory: Callable[[], Hub],
        connection: Callable[[Hub], Connection],
        after: Callable[[Hub], Awaitable[None]] | None,
    ) -> None:
        self._manager = manager
        self._channel = channel
        self._factory: Callable[[], Hub] | None = factory
        self._connection: Callable[[Hub], Connection] | None = connection
        self._after = after
        self.hub: Hub | None = None
        self.conn: Connection | None = None

    async def __aenter__(self) -> tuple[Hub, Connection]:
        """Acquire the hub and register the connection."""
        assert self._factory is not None and self._connection is not None
        hub = await self._manager.acquire(self._channel, self._factory)
        conn = self._connection(hub)
        self._factory = self._connection = None  # what they closed over may go
        hub.add(conn)
        self.hub, self.conn = hub, conn
        return hub, conn

    async def __aexit__(self, *exc: object) -> None:
        """Leave (see the class docstring)."""
        manager, hub, conn = self._manager, self.hub, self.conn
        if hub is None or conn is None:
            return
        task = asyncio.get_running_loop().create_task(manager._leave(hub, conn, self._after))
        manager._pending.add(task)
        task.add_done_callback(manager._pending.discard)
        await asyncio.shield(task)
