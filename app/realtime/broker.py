"""Publish/subscribe of match and lobby channels between app instances.

Two backends behind one small interface, in the shape of encode/broadcaster: :class:`RedisBroker`
(``REDIS_URL`` set: one pub/sub connection per process, every channel fanned out to local
handlers) and :class:`MemoryBroker` (the embedded default and for tests: one process only);
on a Redis Cluster, :class:`app.realtime.cluster_broker.RedisClusterBroker`. The factory
choosing one from ``REDIS_URL`` is :func:`app.realtime.backends.create_broker`.

A handler is a plain function called with the message text; it must not block (hubs queue the
message and return). Publishing never raises: a broker that is down makes :meth:`publish`
return False; the action log in the database stays the source of truth and clients catch up
from it. When the Redis connection comes back, every ``on_reconnect`` hook runs so hubs can
fetch what they missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

Handler = Callable[[str], None]

log = logging.getLogger(__name__)


class Broker:
    """The interface: ``publish``, ``subscribe``/``unsubscribe``, ``ping`` and ``healthy``."""

    def __init__(self) -> None:
        #: Identifies this process in messages, so it can skip its own echoes.
        self.instance_id = secrets.token_hex(6)
        self._handlers: dict[str, list[Handler]] = {}
        self.on_reconnect: list[Callable[[], None]] = []
        self.healthy = True

    async def start(self) -> None:
        """Connect (a broker that cannot connect yet keeps trying in the background)."""

    async def close(self) -> None:
        """Disconnect and stop background work."""

    async def publish(self, channel: str, message: str) -> bool:
        """Send ``message`` to every subscriber of ``channel`` in every instance.

        Returns False (and logs) when the broker is unreachable; never raises.
        """
        raise NotImplementedError

    async def ping(self) -> bool:
        """True when the broker answers."""
        return self.healthy

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler(message)`` for every message published on ``channel``."""
        self._handlers.setdefault(channel, []).append(handler)

    async def unsubscribe(self, channel: str, handler: Handler) -> None:
        """Stop calling ``handler`` for ``channel``."""
        handlers = self._handlers.get(channel)
        if handlers and handler in handlers:
            handlers.remove(handler)
        if handlers is not None and not handlers:
            del self._handlers[channel]

    def _dispatch(self, channel: str, message: str) -> None:
        for handler in list(self._handlers.get(channel, ())):
            try:
                handler(message)
            except Exception:  # a faulty handler must not stop the others
                log.exception("broker handler failed on %s", channel)


class MemoryBroker(Broker):
    """In-process broker: a publish reaches this process's subscribers only."""

    async def publish(self, channel: str, message: str) -> bool:
        """Deliver to local handlers; always succeeds."""
        self._dispatch(channel, message)
        return True


class RedisBroker(Broker):
    """Redis pub/sub: one subscriber connection per process, reconnecting with backoff."""

    CONTROL = "ctl"

    def __init__(self, url: str, prefix: str = "carcassonne") -> None:
        super().__init__()
        self._url = url
        self._prefix = prefix
        self._client: Any = self._make_client(url)
        self._pubsub: Any = None
        self._task: asyncio.Task[None] | None = None
        self._connected = asyncio.Event()
        self._closing = False
        self._outbox: asyncio.Queue[tuple[str, str, asyncio.Future[bool]]] = asyncio.Queue()
        self._publisher: asyncio.Task[None] | None = None
        self.healthy = False

    def _make_client(self, url: str) -> Any:
        """The publishing (and pub/sub) client: no retries inside redis-py, 2 s timeouts."""
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        return aioredis.Redis.from_url(
            url,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
            retry=Retry(NoBackoff(), 0),
            decode_responses=True,
        )

    async def start(self) -> None:
        """Start the listener; waits up to 2 s for the first connection."""
        self._task = asyncio.create_task(self._listen(), name="redis-broker")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._connected.wait(), 2.0)

    async def close(self) -> None:
        """Stop the listener and close the connections."""
        self._closing = True
        if self._publisher is not None:
            # redis-py may swallow a cancellation inside a pipeline read (the loop then waits
            # on its queue for ever): bounded, like the listener below.
            self._publisher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._publisher, 3.0)
        if self._task is not None:
            # redis-py may swallow a cancellation inside a read: the flag ends the loop too.
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._task, 3.0)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose()

    async def publish(self, channel: str, message: str) -> bool:
        """``PUBLISH`` (through the batching publisher: one connection, pipelined, in order);
        returns False when Redis is unreachable.
        """
        if self._closing:
            return False
        if self._publisher is None or self._publisher.done():
            self._publisher = asyncio.create_task(self._publish_loop(), name="redis-publish")
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._outbox.put_nowait((channel, message, done))
        return await done

    async def _publish_loop(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 256:
                batch.append(self._outbox.get_nowait())
            ok = True
            try:
                await self._send(batch)
            except asyncio.CancelledError:
                for *_, done in batch:
                    if not done.done():
                        done.set_result(False)
                raise
            except Exception as exc:
                ok = False
                log.warning("redis publish of %d message(s) failed: %s", len(batch), exc)
            for *_, done in batch:
                if not done.done():
                    done.set_result(ok)

    async def _send(self, batch: list[tuple[str, str, asyncio.Future[bool]]]) -> None:
        """``PUBLISH`` every ``(channel, message, _)`` of ``batch`` in one pipeline."""
        pipe = self._client.pipeline(transaction=False)
        for channel, message, _ in batch:
            pipe.publish(channel, message)
        await pipe.execute()

    async def ping(self) -> bool:
        """``PING`` through the publishing connection."""
        try:
            return bool(await self._client.ping())
        except Exception:
            return False

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Subscribe in Redis on the first local handler of ``channel``."""
        first = channel not in self._handlers
        await super().subscribe(channel, handler)
        if first and self._pubsub is not None and self.healthy:
            try:
                await self._pubsub.subscribe(channel)
            except Exception as exc:  # the listener resubscribes everything on reconnect
                log.warning("redis subscribe %s failed: %s", channel, exc)

    async def unsubscribe(self, channel: str, handler: Handler) -> None:
        """Unsubscribe in Redis when the last local handler of ``channel`` goes."""
        await super().unsubscribe(channel, handler)
        if channel not in self._handlers and self._pubsub is not None and self.healthy:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)

    async def _listen(self) -> None:
        delay = 0.1
        first = True
        while not self._closing:
            pubsub = self._client.pubsub(ignore_subscribe_messages=True)
            try:
                channels = [f"{self._prefix}:{self.CONTROL}", *self._handlers]
                await pubsub.subscribe(*channels)
                self._pubsub = pubsub
                self.healthy = True
                self._connected.set()
                delay = 0.1
                if not first:
                    log.info("redis broker reconnected")
                    for hook in list(self.on_reconnect):
                        hook()
                first = False
                idle = 0
                while not self._closing:
                    msg = await pubsub.get_message(timeout=1.0)
                    if msg is None:
                        idle += 1
                        if idle % 5 == 0:
                            await pubsub.ping()  # notices a dead connection while idle
                        continue
                    idle = 0
                    if msg.get("type") == "message":
                        self._dispatch(str(msg["channel"]), str(msg["data"]))
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._closing:
                    return
                if self.healthy:
                    log.warning("redis broker connection lost: %s", exc)
                self.healthy = False
                self._pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                first = False
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
