"""One client socket of a hub: an ordered outbox drained by a writer task.

:class:`Connection` sends versioned frames in order, skips what the socket already has
(``sent_v``) and fills a gap through ``fetch`` before a frame that carries a delta against a
version the socket never got. Nothing here knows about hubs, the broker or the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import ClassVar, Protocol

log = logging.getLogger(__name__)

#: ``fetch(after, upto)`` → ``[(version, frame)]`` for ``after < version <= upto`` (``upto``
#: None: up to the latest), in order; a snapshot frame may stand for several versions.
Fetch = Callable[[int, int | None], Awaitable[list[tuple[int, str]]]]


class FetchFailed(Exception):
    """``fetch`` raised: the log could not be read (its ``__cause__`` says why)."""


class Socket(Protocol):
    """The part of a websocket a :class:`Connection` uses."""

    async def send_text(self, data: str) -> None:
        """Send one text frame."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close the socket."""


class Connection:
    """One client socket: an ordered outbox and the last version it was sent (``sent_v``).

    ``key``: the seat (as text) or player id it stands for, None for a spectator. The outbox is
    a plain deque drained by a writer task that exists only while there is something to send
    (an idle socket holds no task: memory per idle socket).
    """

    QUEUE_LIMIT = 2000

    #: Sockets closed in this process, by ``(close code, "server" | "client")`` (metrics:
    #: :func:`count_close`).
    closes: ClassVar[Counter[tuple[int, str]]] = Counter()

    def __init__(self, socket: Socket, key: str | None, fetch: Fetch | None = None) -> None:
        self.socket = socket
        self.key = key
        self.fetch = fetch
        self.sent_v = -1
        #: The outbox; None while empty (an idle socket keeps no buffer).
        self.queue: deque[tuple[str, int | None, str] | None] | None = None
        self.overflowed = False
        self._writer: asyncio.Task[None] | None = None
        self._started = False
        self._stopped = False

    def push(self, version: int | None, frame: str) -> None:
        """Queue a frame (versioned frames older than ``sent_v`` are skipped when sent)."""
        if self.overflowed:
            return
        if self.queue is None:
            self.queue = deque()
        if len(self.queue) >= self.QUEUE_LIMIT:
            # A client this far behind reconnects with ?since= and catches up from the log.
            self.overflowed = True
            self.queue.append(None)
        else:
            self.queue.append(("frame", version, frame))
        self._kick()

    def request_sync(self, since: int) -> None:
        """Queue a resend of every batch after ``since`` (the client's ``sync`` frame)."""
        if self.queue is None:
            self.queue = deque()
        self.queue.append(("sync", since, ""))
        self._kick()

    def start(self, sent_v: int) -> None:
        """Start sending the outbox; frames up to ``sent_v`` were sent already."""
        self.sent_v = max(self.sent_v, sent_v)
        self._started = True
        self._kick()

    async def stop(self) -> None:
        """Stop the writer."""
        self._stopped = True
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer

    async def finish(self, code: int, reason: str, timeout: float) -> None:
        """Send what the outbox holds (for at most ``timeout`` seconds), then stop and close the
        socket with ``code`` (a drain: 1012). Never raises.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self._stopped and loop.time() < deadline:
            writer = self._writer
            if writer is not None and not writer.done():
                await asyncio.wait({writer}, timeout=deadline - loop.time())
            elif self.queue:  # not started yet (its first frames are on their way)
                await asyncio.sleep(0.01)
            else:
                break
        await self.stop()
        count_close(code)
        with contextlib.suppress(Exception):
            left = max(0.1, deadline - loop.time())
            await asyncio.wait_for(self.socket.close(code, reason), left)

    async def _fetch(self, after: int, upto: int | None) -> list[tuple[int, str]]:
        assert self.fetch is not None
        try:
            return await self.fetch(after, upto)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise FetchFailed("reading the log failed") from exc

    def _kick(self) -> None:
        if (
            self._started
            and not self._stopped
            and self.queue
            and (self._writer is None or self._writer.done())
        ):
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _send_versioned(self, version: int, frame: str) -> None:
        if version <= self.sent_v:
            return
        if version > self.sent_v + 1 and self.sent_v >= 0 and self.fetch is not None:
            # A live frame carries a delta against the version before it: fill the gap up to
            # the latest version instead (a catch-up ends with the whole view), which covers it.
            for v, missing in await self._fetch(self.sent_v, None):
                if v > self.sent_v:
                    await self.socket.send_text(missing)
                    self.sent_v = v
            if version <= self.sent_v:
                return
            if version != self.sent_v + 1:
                return  # not applicable here; the version watch brings it with its view
        await self.socket.send_text(frame)
        self.sent_v = version

    async def _write(self) -> None:
        try:
            while self.queue:
                item = self.queue.popleft()
                if not self.queue:
                    self.queue = None
                if item is None:
                    self._stopped = True
                    with contextlib.suppress(Exception):
                        count_close(1013)
                        await self.socket.close(1013, "too far behind: reconnect with since")
                    return
                kind, version, frame = item
                if kind == "sync":
                    assert version is not None
                    if self.fetch is not None:
                        for v, text in await self._fetch(version, None):
                            # What this socket was sent already is on its way to the client
                            # (in order, on one connection): sending it again would deliver
                            # a version twice (a client resumed after a pause asks for what
                            # it had not read yet).
                            if v > self.sent_v:
                                await self.socket.send_text(text)
                                self.sent_v = v
                elif version is None:
                    await self.socket.send_text(frame)
                else:
                    await self._send_versioned(version, frame)
        except asyncio.CancelledError:
            raise
        except FetchFailed as exc:
            # The log could not be read (the database restarting): this socket cannot be
            # brought up to date here, so it reconnects with ``since`` and catches up then.
            self._stopped = True
            log.warning("catch-up failed, socket closed to reconnect: %s", exc.__cause__)
            with contextlib.suppress(Exception):
                count_close(1013)
                await self.socket.close(1013, "catch-up failed: reconnect with since")
        except Exception as exc:  # the socket went away; the reader side cleans up
            self._stopped = True
            log.debug("writer stopped: %s", exc)
        finally:
            self._writer = None  # nothing to send: an idle socket keeps no task


def count_close(code: int, by: str = "server") -> None:
    """Count a websocket closed with ``code`` (``by``: ``server``, this process closed it, or
    ``client``, the receive loop saw the client's close or its answer to ours).
    """
    Connection.closes[(code, by)] += 1
