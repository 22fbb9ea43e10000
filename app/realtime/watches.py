"""Shared views: one read per change per instance, however many sockets watch.

A :class:`Watch` holds this instance's sockets watching one broker channel whose messages only
say "it changed" (a tournament's page). It subscribes once, and on a change (or every
``refresh_every`` seconds, to make up for a lost announcement) reads the state once through
the owner's ``read()``, then sends every socket its frame. Frames differ only by a viewer's
*key* (``key(state, viewer)``: e.g. whether the viewer hosts it, which entrant they are), so
each distinct key is rendered once per state (``render(state, key)``), not once per socket.
Changes heard while a read runs are coalesced into one more read. A read equal to the last
one sends nothing.

Nothing here knows about the database or a tournament: the owner passes the callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from typing import Any

from app.realtime.broker import Broker
from app.realtime.connection import Connection

log = logging.getLogger(__name__)

#: ``read()`` → the shared state (raises what the read raises: the first joiner is told).
Read = Callable[[], Awaitable[Any]]
#: ``key(state, viewer)`` → what of a viewer changes their frame (equal keys, equal frames).
Key = Callable[[Any, str | None], Hashable]
#: ``render(state, key)`` → the frame for every viewer with that key.
Render = Callable[[Any, Hashable], str]


class Watch:
    """This instance's sockets on one channel, and the state they all were last sent."""

    def __init__(
        self, channel: str, read: Read, key: Key, render: Render, refresh_every: float
    ) -> None:
        self.channel = channel
        self.read = read
        self.key = key
        self.render = render
        self.refresh_every = refresh_every
        #: The last state read (None: not read yet) and how many reads were made (metrics, tests).
        self.state: Any = None
        self.reads = 0
        self.viewers: dict[Connection, str | None] = {}
        self._frames: dict[Hashable, str] = {}
        self._changed = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def heard(self, _message: str) -> None:
        """The broker's handler: the channel changed (read again soon, once)."""
        self._changed.set()

    def start(self) -> None:
        """Start the reader task (reads on a change and every ``refresh_every`` seconds)."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.channel)

    async def stop(self) -> None:
        """Stop the reader task."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    async def current(self) -> Any:
        """The state, read now if it never was (raises what ``read()`` raises)."""
        async with self._lock:
            if self.state is None:
                self._show(await self._read())
            return self.state

    def frame(self, viewer: str | None) -> str:
        """The frame of ``viewer`` for the current state (rendered once per key)."""
        key = self.key(self.state, viewer)
        frame = self._frames.get(key)
        if frame is None:
            frame = self._frames[key] = self.render(self.state, key)
        return frame

    async def _read(self) -> Any:
        self.reads += 1
        return await self.read()

    def _show(self, state: Any) -> None:
        """Keep ``state`` and send each socket its frame (nothing when it did not change)."""
        if state == self.state:
            return
        first = self.state is None
        self.state = state
        self._frames = {}
        if first:
            return  # every socket here is being sent it by its joiner
        for conn, viewer in self.viewers.items():
            conn.push(None, self.frame(viewer))

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self.refresh_every)
            self._changed.clear()
            try:
                async with self._lock:
                    self._show(await self._read())
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the next change or refresh tries again
                log.warning("reading %s failed: %r", self.channel, exc)


class Watches:
    """Every :class:`Watch` of this instance: one per channel, opened with its first socket
    and closed with its last.
    """

    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.watches: dict[str, Watch] = {}
        self._lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def watching(
        self,
        channel: str,
        conn: Connection,
        viewer: str | None,
        *,
        read: Read,
        key: Key,
        render: Render,
        refresh_every: float,
    ) -> AsyncIterator[str]:
        """Watch ``channel`` with ``conn`` (for ``viewer``) for the block: yields the frame to
        send it first (the caller sends it, then starts ``conn``); later frames are pushed on
        ``conn``. The callbacks are used only when this opens the channel's watch. Raises
        what the first ``read()`` raises (the watch is closed again when no one else watches).
        """
        watch = await self._acquire(channel, read, key, render, refresh_every)
        watch.viewers[conn] = viewer
        try:
            await watch.current()
            yield watch.frame(viewer)
        finally:
            watch.viewers.pop(conn, None)
            await self._release(watch)

    async def close(self) -> None:
        """Close every watch (the instance stops)."""
        for watch in list(self.watches.values()):
            await watch.stop()
            await self.broker.unsubscribe(watch.channel, watch.heard)
        self.watches.clear()

    async def _acquire(
        self, channel: str, read: Read, key: Key, render: Render, refresh_every: float
    ) -> Watch:
        async with self._lock:
            watch = self.watches.get(channel)
            if watch is None:
                watch = Watch(channel, read, key, render, refresh_every)
                await self.broker.subscribe(channel, watch.heard)
                watch.start()
                self.watches[channel] = watch
            return watch

    async def _release(self, watch: Watch) -> None:
        async with self._lock:
            if watch.viewers or self.watches.get(watch.channel) is not watch:
                return
            del self.watches[watch.channel]
            await watch.stop()
            await self.broker.unsubscribe(watch.channel, watch.heard)
