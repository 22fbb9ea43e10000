"""Websocket fan-out: one :class:`Hub` per channel (a match or a lobby) per instance.

A hub holds this instance's sockets on one channel and one broker subscription for them.
Batches of a match are *ordered*: each carries its version; the hub forwards them in version
order, drops duplicates (its own echoes, replays) and fills gaps from the database through the
``fetch`` callback (another instance may publish out of order; a broker outage loses
messages). Lobby frames carry the whole lobby, so the newest version simply wins.

Presence is aggregated across instances: each instance announces which keys (match seats or
lobby players) and how many spectators it holds on the channel, and its version; the hub sums
them. Announcements are refreshed by the heartbeat of :mod:`app.realtime.hubs` and expire when
an instance dies. A hub that hears of a higher version than it forwarded (an announcement, a
``head`` message of the outbox sweep, the database watch: :meth:`Hub.behind`) fetches the gap.

Presence costs are linear: a hub keeps counts of its sockets' keys (no scan per join), and the
frames and announcements a burst of joins or leaves causes are coalesced into one each.

Nothing here knows about the database or the engine: the owner passes callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app.allocator import release_free_memory
from app.realtime.broker import Broker
from app.realtime.connection import Connection, Fetch
from app.realtime.protocol import broker_message, dumps, parse_broker_message

log = logging.getLogger(__name__)

#: ``refresh()`` → the frame that brings a socket up to date with a change that is not an action
#: (the clock, or the final position of a match ended early); None: nothing to send.
Refresh = Callable[[], Awaitable[str | None]]

#: Broker kinds of unversioned frames (chat): for every socket / for spectators' sockets only.
NOTE_ALL = "note"
NOTE_SPECTATORS = "note-spectators"

#: Presence timing, the one set for the whole app: instances announce their sockets every
#: ``HEARTBEAT`` seconds (and refresh ``seat_presence``); an announcement (or a seat's presence
#: row) older than ``PRESENCE_TTL`` seconds no longer counts.
HEARTBEAT = 15.0
PRESENCE_TTL = 45.0
#: Seconds a presence change waits so a burst of joins/leaves makes one frame and one message.
PRESENCE_COALESCE = 0.05
#: Hubs with at most this many local sockets send presence frames at once (not coalesced).
PRESENCE_DIRECT = 32
#: After this many sockets closed (then a second without any closing), the instance collects
#: its garbage and hands the freed memory back to the system (see :func:`give_back_memory`).
GIVE_BACK_AFTER = 100


def give_back_memory() -> None:
    """Collect garbage cycles (closed sockets leave some: exceptions, tasks) and return the
    allocator's free pages to the system now (:func:`app.allocator.release_free_memory`).

    Under jemalloc (what ``carcassonne serve`` runs on where it is installed: app/allocator.py)
    the closed sockets' memory goes back: every Python object lives in jemalloc's page-sized
    slabs. Under CPython's own allocator most of it stays: small objects live in 1 MiB arenas,
    an arena goes back only once every block in it is free, and after a wave of sockets closes
    the process's ordinary allocations keep a few live blocks in each (docs/PERFORMANCE.md).
    """
    found = gc.collect()
    release_free_memory()
    log.info("memory given back after sockets closed: %d unreachable objects collected", found)


class Owner(Protocol):
    """What a hub needs of the :class:`~app.realtime.hubs.HubManager` that opened it."""

    broker: Broker
    #: Called with a remote batch's seconds from publish to arrival (None: not timed).
    on_batch_lag: Callable[[float], None] | None

    def loop_announce(self, hub: Hub) -> None:
        """Announce ``hub``'s presence soon (coalesced with other changes)."""


class Hub:
    """This instance's sockets on one broker channel.

    ``ordered``: match batches (gap-filled with ``fetch``); otherwise newest-version-wins.
    ``render_presence(keys, spectators)`` builds the frame sent when presence changes (None:
    send nothing).
    """

    def __init__(
        self,
        manager: Owner,
        channel: str,
        *,
        ordered: bool,
        fetch: Fetch | None = None,
        render_presence: Callable[[set[str], int], str | None] | None = None,
        key: str | None = None,
        refresh: Refresh | None = None,
    ) -> None:
        self.manager = manager
        self.channel = channel
        self.ordered = ordered
        self.fetch = fetch
        self.render_presence = render_presence
        #: The match id of an ordered hub (the database watch asks for its version).
        self.key = key
        self.refresh = refresh
        #: The match's count of committed non-action changes as last seen by the watch.
        self.notes: int | None = None
        self.connections: set[Connection] = set()
        self._keys: Counter[str] = Counter()
        self._spectators = 0
        self._presence_due = False
        self.last_v: int | None = None
        #: The owner's latest state of the channel (a lobby's JSON), for presence re-renders.
        self.state: Any = None
        self._inbox: asyncio.Queue[tuple[int, str] | None] = asyncio.Queue()
        self._pump: asyncio.Task[None] | None = None
        self._remote: dict[str, tuple[set[str], int, float]] = {}
        self._presence_sent: tuple[frozenset[str], int] | None = None
        self.closed = False

    # -------------------------------------------------------------- lifecycle

    async def open(self) -> None:
        """Subscribe and ask the other instances who is connected."""
        self._pump = asyncio.create_task(self._run(), name=f"hub:{self.channel}")
        await self.manager.broker.subscribe(self.channel, self._on_message)
        await self._announce(hello=True)

    async def close(self) -> None:
        """Unsubscribe and stop."""
        self.closed = True
        await self.manager.broker.unsubscribe(self.channel, self._on_message)
        self._inbox.put_nowait(None)
        if self._pump is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._pump

    # -------------------------------------------------------------- delivery

    def deliver(self, version: int, frame: str) -> None:
        """Forward a frame produced by this instance (already committed) to local sockets."""
        self._inbox.put_nowait((version, frame))

    def resync(self) -> None:
        """Fetch and forward whatever the database has after the last forwarded version."""
        if self.ordered and self.fetch is not None:
            self._inbox.put_nowait((-1, ""))

    def behind(self, version: int) -> None:
        """Someone saw ``version`` committed: fetch the gap if this hub has not forwarded it."""
        if self.ordered and self.last_v is not None and version > self.last_v:
            self.resync()

    def noted(self, notes: int) -> None:
        """The database counts ``notes`` committed changes that are not actions (the clock, an
        early end): when that grew since the last look, send every socket here the current
        clock or final position (``refresh``) — the broadcast of the change may have been lost.
        A duplicate is harmless (the clock frame carries the whole clock). The first look only
        records the count: the sockets' first frames were read after the hub subscribed.
        """
        seen, self.notes = self.notes, notes
        if seen is not None and notes > seen and self.refresh is not None:
            self._inbox.put_nowait((-2, ""))

    def note_version(self, version: int) -> None:
        """A socket joined at ``version`` (its first frames were read from the database).

        A new hub starts forwarding after that version. An open hub keeps its own mark — what
        it forwarded to the sockets it already has — and, when the joiner read a newer version
        than that (a batch committed elsewhere and still on its way here), fetches the gap for
        them now: moving the mark would make the batch look like a duplicate when it arrives
        and the version watch see no gap, so those sockets would miss the move. The joiner's
        connection skips what it already has (its ``sent_v``).
        """
        if self.last_v is None:
            self.last_v = version
        elif version > self.last_v:
            self.behind(version)

    def deliver_note(self, frame: str, only_spectators: bool = False) -> None:
        """Push an unversioned frame (a chat message) to local sockets now: all of them, or
        only spectators' (``key`` None). Other instances get it as a ``note`` message.
        """
        for conn in list(self.connections):
            if not only_spectators or conn.key is None:
                conn.push(None, frame)

    def _on_message(self, message: str) -> None:
        try:
            origin, kind, version, payload = parse_broker_message(message)
        except ValueError:
            log.warning("malformed broker message on %s", self.channel)
            return
        origin, _, stamp = origin.partition("@")
        if origin == self.manager.broker.instance_id:
            return  # our own echo: local sockets had it first-hand
        if kind == "batch":
            self._inbox.put_nowait((version, payload))
            if stamp and self.manager.on_batch_lag is not None:
                self.manager.on_batch_lag(max(0.0, time.time() - float(stamp)))
        elif kind == "head":
            self.behind(version)
        elif kind in (NOTE_ALL, NOTE_SPECTATORS):
            self.deliver_note(payload, kind == NOTE_SPECTATORS)
        elif kind == "presence":
            try:
                data = json.loads(payload)
                keys = {str(k) for k in data.get("keys", [])}
                spectators = int(data.get("spectators", 0))
                seen = data.get("v")
            except (ValueError, TypeError, AttributeError):
                return
            if isinstance(seen, int):
                self.behind(seen)
            if keys or spectators:
                self._remote[origin] = (keys, spectators, time.monotonic())
            else:
                self._remote.pop(origin, None)
            if data.get("hello"):
                asyncio.get_running_loop().create_task(self._announce())
            self.presence_changed()

    async def forwarded(self) -> None:
        """Return once everything this hub was handed so far (and since) is in its sockets'
        outboxes (a drain waits for this before it flushes them).
        """
        if self._pump is not None and not self._pump.done():
            await self._inbox.join()

    async def _run(self) -> None:
        while True:
            item = await self._inbox.get()
            if item is None:
                self._inbox.task_done()
                return
            version, frame = item
            try:
                if version == -2:
                    if self.refresh is not None:
                        note = await self.refresh()
                        if note is not None:
                            self._fan_out(None, note)
                    continue
                if version < 0:
                    await self._fill(None)
                    continue
                if not self.ordered:
                    if self.last_v is None or version > self.last_v:
                        self.last_v = version
                        self._fan_out(version, frame)
                    continue
                if self.last_v is not None and version <= self.last_v:
                    continue
                if self.last_v is not None and version > self.last_v + 1:
                    # Up to the latest (a catch-up ends with the whole view), not just the gap:
                    # this frame's delta is against the version right before it.
                    await self._fill(None)
                    if self.last_v is not None and version <= self.last_v:
                        continue
                    if self.last_v is not None and version != self.last_v + 1:
                        continue  # the version watch brings it
                self.last_v = version
                self._fan_out(version, frame)
            except asyncio.CancelledError:
                raise
            except ConnectionError as exc:  # the log out of reach (a restart): the watch retries
                log.warning("hub %s could not fetch version %s: %s", self.channel, version, exc)
            except Exception:
                log.exception("hub %s failed to forward version %s", self.channel, version)
            finally:
                self._inbox.task_done()

    async def _fill(self, upto: int | None) -> None:
        if self.fetch is None or self.last_v is None:
            return
        for v, text in await self.fetch(self.last_v, upto):
            if v > self.last_v:
                self.last_v = v
                self._fan_out(v, text)

    def _fan_out(self, version: int | None, frame: str) -> None:
        for conn in list(self.connections):
            conn.push(version, frame)

    # -------------------------------------------------------------- sockets & presence

    def add(self, conn: Connection) -> None:
        """Register a socket (its outbox starts collecting frames at once)."""
        if conn in self.connections:
            return
        self.connections.add(conn)
        if conn.key is None:
            self._spectators += 1
        else:
            self._keys[conn.key] += 1
        self.manager.loop_announce(self)

    def remove(self, conn: Connection) -> None:
        """Forget a socket."""
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        if conn.key is None:
            self._spectators -= 1
        else:
            self._keys[conn.key] -= 1
            if self._keys[conn.key] <= 0:
                del self._keys[conn.key]
        self.manager.loop_announce(self)

    def local_presence(self) -> tuple[set[str], int]:
        """Keys and spectator count of this instance's sockets (kept as counts: no scan)."""
        return set(self._keys), self._spectators

    def heard_elsewhere(self) -> bool:
        """True when another instance announced sockets on this channel (not yet expired).

        False means this instance's sockets are the only ones the match has (as far as the
        presence announcements tell): a batch need not go through the broker. An instance whose
        announcement is still on its way catches up by its version watch within a second.
        """
        now = time.monotonic()
        return any(now - seen <= PRESENCE_TTL for _, _, seen in self._remote.values())

    def presence(self) -> tuple[set[str], int]:
        """Keys connected anywhere, and spectators anywhere (expired announcements dropped)."""
        keys, spectators = self.local_presence()
        now = time.monotonic()
        for origin, (rkeys, rspect, seen) in list(self._remote.items()):
            if now - seen > PRESENCE_TTL:
                del self._remote[origin]
                continue
            keys |= rkeys
            spectators += rspect
        return keys, spectators

    def presence_changed(self) -> None:
        """Send a presence frame to local sockets if the aggregate changed."""
        if self.render_presence is None:
            return
        keys, spectators = self.presence()
        state = (frozenset(keys), spectators)
        if state == self._presence_sent:
            return
        self._presence_sent = state
        frame = self.render_presence(keys, spectators)
        if frame is not None:
            self._fan_out(None, frame)

    async def _announce(self, hello: bool = False) -> None:
        keys, spectators = self.local_presence()
        payload = dumps(
            {
                "keys": sorted(keys),
                "spectators": spectators,
                "hello": hello,
                "v": self.last_v if self.ordered else None,
            }
        )
        await self.manager.broker.publish(
            self.channel, broker_message(self.manager.broker.instance_id, "presence", 0, payload)
        )
