"""The broker on a Redis Cluster: sharded pub/sub (``SPUBLISH``/``SSUBSCRIBE``, Redis >= 7).

``REDIS_URL=redis+cluster://host:port[,host:port...]`` chooses it
(:mod:`app.realtime.redis_client`).
Classic ``PUBLISH`` on a cluster is broadcast to every node over the cluster bus, so it does not
scale with the nodes; a shard channel lives on the one primary owning its hash slot, and only
that primary's subscribers hear it. Channel names are hash-tagged (:meth:`shard_channel`:
``carcassonne:match:42`` becomes ``carcassonne:{match:42}``), so everything of one match is
hashed by its ``kind:key`` alone and lives on one shard.

This process holds one subscriber connection per primary (a :class:`_Shard`), each with its
own reconnect loop, so a restarting primary stalls only its own matches: the others keep
flowing. A shard that reconnects runs the ``on_reconnect`` hooks (hubs fetch what they missed
from the log, as with one Redis); while it is down, publishes to it fail (False) and the outbox
sweep publishes them later. After a failure the slot map is read again, so channels follow a
failover to a replica promoted elsewhere.

Publishing goes to the primary owning the channel's slot through that primary's own batching
publisher (one connection, pipelined, in order), so a primary that is down stalls only its own
matches' publishes (they return False: the outbox sweep publishes them once it is back).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import urlsplit

from redis.exceptions import ConnectionError as RedisConnectionError

from app.realtime.broker import RedisBroker
from app.realtime.redis_client import cluster_client

log = logging.getLogger(__name__)

#: Seconds of silence on a shard connection before it is pinged (a dead peer shows this way).
IDLE_PING = 5


class _Shard:
    """The subscriber connection of one primary: ``host:port``, its shard channels, a loop."""

    def __init__(self, broker: RedisClusterBroker, host: str, port: int) -> None:
        self.broker = broker
        self.host, self.port = host, port
        self.channels: set[str] = set()
        self.pubsub: Any = None
        self.connected = False
        self.task = asyncio.create_task(self._run(), name=f"redis-shard-{host}:{port}")
        #: ``(shard channel, message, done)`` waiting for this primary; the publishing
        #: connection and its task (started on the first publish).
        self.outbox: asyncio.Queue[tuple[str, str, asyncio.Future[bool]]] = asyncio.Queue()
        self.publisher: asyncio.Task[None] | None = None
        self.client: Any = None

    def _client(self) -> Any:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        return aioredis.Redis(
            host=self.host,
            port=self.port,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
            retry=Retry(NoBackoff(), 0),
            decode_responses=True,
            **self.broker.auth,
        )

    async def publish(self, channel: str, message: str) -> bool:
        """``SPUBLISH`` on this primary (batched, in order); False when it does not take it."""
        if self.publisher is None or self.publisher.done():
            self.publisher = asyncio.create_task(
                self._publish_loop(), name=f"redis-shard-publish-{self.name}"
            )
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.outbox.put_nowait((channel, message, done))
        return await done

    async def _publish_loop(self) -> None:
        if self.client is None:
            self.client = self._client()
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty() and len(batch) < 256:
                batch.append(self.outbox.get_nowait())
            ok = True
            try:
                try:
                    await self._send(batch)
                except RedisConnectionError:
                    # A connection the primary closed (it restarted) fails once: a fresh one
                    # answers, or fails fast while the primary is down.
                    await self._send(batch)
            except asyncio.CancelledError:
                for *_, done in batch:
                    if not done.done():
                        done.set_result(False)
                raise
            except Exception as exc:
                ok = False
                log.warning("redis shard %s: publish of %d failed: %s", self.name, len(batch), exc)
            for *_, done in batch:
                if not done.done():
                    done.set_result(ok)

    @property
    def name(self) -> str:
        """``host:port``, redis-py's node name."""
        return f"{self.host}:{self.port}"

    async def subscribe(self, channel: str) -> None:
        """``SSUBSCRIBE`` now when connected (else the loop does it when it connects)."""
        self.channels.add(channel)
        if self.connected and self.pubsub is not None:
            try:
                await self.pubsub.ssubscribe(channel)
            except Exception as exc:  # the loop resubscribes everything on reconnect
                log.warning("redis ssubscribe %s on %s failed: %s", channel, self.name, exc)

    async def unsubscribe(self, channel: str) -> None:
        """``SUNSUBSCRIBE`` (best effort: a stale subscription only costs ignored messages)."""
        self.channels.discard(channel)
        if self.connected and self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.sunsubscribe(channel)

    async def _send(self, batch: list[tuple[str, str, asyncio.Future[bool]]]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for channel, message, _ in batch:
            pipe.execute_command("SPUBLISH", channel, message)
        await pipe.execute()

    async def _run(self) -> None:
        delay, first = 0.1, True
        while not self.broker.closing:
            client = self._client()
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                # One SSUBSCRIBE per channel: a command's channels must share a slot.
                for channel in (self.broker.keepalive_for(self), *self.channels):
                    await pubsub.ssubscribe(channel)
                self.pubsub, self.connected, delay = pubsub, True, 0.1
                if not first:
                    log.info("redis shard %s reconnected", self.name)
                    self.broker.run_reconnect_hooks()
                first = False
                await self._read(pubsub)
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.broker.closing:
                    return
                if self.connected or first:
                    log.warning("redis shard %s lost: %s", self.name, exc)
                first = False
                self.connected, self.pubsub = False, None
                await _close(pubsub, client)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                if await self.broker.reroute(self):
                    return  # this node no longer owns any slot: its channels moved
            finally:
                if self.broker.closing:
                    await _close(pubsub, client)

    async def _read(self, pubsub: Any) -> None:
        idle = 0
        dispatch = self.broker.dispatch_shard
        while not self.broker.closing:
            msg = await pubsub.get_message(timeout=1.0)
            if msg is None:
                idle += 1
                if idle % IDLE_PING == 0:
                    await pubsub.ping()
                continue
            idle = 0
            if msg.get("type") == "smessage":
                dispatch(str(msg["channel"]), str(msg["data"]))


async def _close(pubsub: Any, client: Any) -> None:
    with contextlib.suppress(Exception):
        await pubsub.aclose()
    with contextlib.suppress(Exception):
        await client.aclose()


class RedisClusterBroker(RedisBroker):
    """Sharded pub/sub on a Redis Cluster (``redis+cluster://`` seeds); see the module text."""

    def __init__(self, url: str, prefix: str = "carcassonne") -> None:
        super().__init__(url, prefix)
        #: Shard loops by node name, and the node each subscribed shard channel is on.
        self._shards: dict[str, _Shard] = {}
        self._route: dict[str, str] = {}
        #: Shard channel -> the channel name the app uses (for dispatch).
        self._names: dict[str, str] = {}
        self._keepalive: dict[str, str] = {}
        self._topology_lock = asyncio.Lock()
        #: Credentials of the URL, for the shard connections.
        parts = urlsplit(url)
        self.auth: dict[str, Any] = {"username": parts.username, "password": parts.password}

    def _make_client(self, url: str) -> Any:
        return cluster_client(
            url, socket_timeout=2.0, socket_connect_timeout=2.0, decode_responses=True
        )

    @property
    def closing(self) -> bool:
        """True once :meth:`close` began (the shard loops end)."""
        return self._closing

    def shard_channel(self, channel: str) -> str:
        """``prefix:kind:key`` -> ``prefix:{kind:key}``: the hash tag keeps a match on one
        shard (its slot is the tag's). Other names are tagged whole.
        """
        head = self._prefix + ":"
        if channel.startswith(head):
            return f"{head}{{{channel[len(head) :]}}}"
        return f"{{{channel}}}"

    def keepalive_for(self, shard: _Shard) -> str:
        """A shard channel whose slot ``shard`` owns, so its connection always has one
        subscription (a subscriber connection with none cannot be read or pinged).
        """
        name = self._keepalive.get(shard.name)
        if name is None:
            for i in range(100_000):
                candidate = f"{self._prefix}:{{{self.CONTROL}:{i}}}"
                if self._client.get_node_from_key(candidate).name == shard.name:
                    name = self._keepalive[shard.name] = candidate
                    break
            else:  # pragma: no cover - a node owning under 1 in 100,000 slots
                name = f"{self._prefix}:{{{self.CONTROL}}}"
        return name

    def dispatch_shard(self, shard_channel: str, message: str) -> None:
        """A message arrived on ``shard_channel``: call the app channel's handlers."""
        channel = self._names.get(shard_channel)
        if channel is not None:
            self._dispatch(channel, message)

    def run_reconnect_hooks(self) -> None:
        """Run the ``on_reconnect`` hooks (a shard came back: hubs fetch their gaps)."""
        for hook in list(self.on_reconnect):
            hook()

    async def start(self) -> None:
        """Read the slot map and connect one subscriber per primary (waits up to 2 s; a
        cluster that does not answer yet is tried again in the background).
        """
        self._task = asyncio.create_task(self._bootstrap(), name="redis-cluster-broker")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._connected.wait(), 2.0)

    async def _bootstrap(self) -> None:
        delay = 0.1
        while not self._closing:
            try:
                await self._client.initialize()
                break
            except Exception as exc:
                log.warning("redis cluster not reachable yet: %s", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
        for node in self._client.get_primaries():
            self._shard(node.host, node.port)
        for channel in list(self._handlers):
            await self._subscribe_shard(channel)
        while not self._closing and not self.healthy:
            await asyncio.sleep(0.05)
        self._connected.set()

    @property
    def healthy(self) -> bool:
        """True when every primary's subscriber connection is up."""
        shards: dict[str, _Shard] = getattr(self, "_shards", {})
        return bool(shards) and all(s.connected for s in shards.values())

    @healthy.setter
    def healthy(self, value: bool) -> None:
        """Ignored: health is the shards' (the base classes assign it)."""

    def _shard(self, host: str, port: int) -> _Shard:
        name = f"{host}:{port}"
        shard = self._shards.get(name)
        if shard is None:
            shard = self._shards[name] = _Shard(self, host, port)
        return shard

    async def _subscribe_shard(self, channel: str) -> None:
        sharded = self.shard_channel(channel)
        self._names[sharded] = channel
        node = self._client.get_node_from_key(sharded)
        self._route[sharded] = node.name
        await self._shard(node.host, node.port).subscribe(sharded)

    async def subscribe(self, channel: str, handler: Any) -> None:
        """``SSUBSCRIBE`` on the channel's primary on the first local handler."""
        first = channel not in self._handlers
        await super(RedisBroker, self).subscribe(channel, handler)
        if first and self._shards:
            await self._subscribe_shard(channel)

    async def unsubscribe(self, channel: str, handler: Any) -> None:
        """``SUNSUBSCRIBE`` when the last local handler of ``channel`` goes."""
        await super(RedisBroker, self).unsubscribe(channel, handler)
        if channel not in self._handlers:
            sharded = self.shard_channel(channel)
            self._names.pop(sharded, None)
            node = self._route.pop(sharded, None)
            if node in self._shards:
                await self._shards[node].unsubscribe(sharded)

    async def reroute(self, failed: _Shard) -> bool:
        """After ``failed`` lost its connection: read the slot map again and move every
        channel whose slot another primary owns now. True when ``failed`` owns no slot any
        more (its loop ends).
        """
        async with self._topology_lock:
            try:
                await self._client.nodes_manager.initialize()
            except Exception as exc:  # the cluster itself is out: keep the old map
                log.debug("redis cluster slot map not read: %s", exc)
                return False
            primaries = {n.name: n for n in self._client.get_primaries()}
            for node in primaries.values():
                self._shard(node.host, node.port)
            for sharded in list(self._route):
                owner = self._client.get_node_from_key(sharded)
                if owner.name != self._route[sharded]:
                    self._shards[self._route[sharded]].channels.discard(sharded)
                    self._route[sharded] = owner.name
                    await self._shards[owner.name].subscribe(sharded)
            if failed.name not in primaries:
                self._shards.pop(failed.name, None)
                self._keepalive.pop(failed.name, None)
                return True
            return False

    async def publish(self, channel: str, message: str) -> bool:
        """``SPUBLISH`` on the primary owning the channel's slot, through that primary's own
        publisher (a primary that is down delays only its own matches); False when it does
        not take it, or before the slot map is known.
        """
        if self._closing:
            return False
        sharded = self.shard_channel(channel)
        try:
            shard = self._shards.get(self._client.get_node_from_key(sharded).name)
        except Exception:  # no slot map yet
            return False
        if shard is None:
            return False
        return await shard.publish(sharded, message)

    async def ping(self) -> bool:
        """``PING`` a primary: the cluster answers (one shard restarting leaves the
        instance ready; its matches catch up from the log when it is back).
        """
        try:
            return bool(await self._client.ping(target_nodes=self._client.RANDOM))
        except Exception:
            return False

    async def close(self) -> None:
        """Stop the publisher, the shard loops and the cluster client."""
        self._closing = True
        tasks = [t for s in self._shards.values() for t in (s.task, s.publisher)]
        for task in (self._publisher, self._task, *tasks):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(task, 3.0)
        for shard in self._shards.values():
            for part in (shard.pubsub, shard.client):
                if part is not None:
                    with contextlib.suppress(Exception):
                        await part.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose()
