"""How many spectators watch each match, across every instance (the lobby list's numbers).

Each instance writes its own count of a match's spectators into the Redis hash
``{prefix}:spectators:{match}`` (field: the instance id, value: ``"<count> <unix time>"``) when
one comes or goes, and rewrites all of them every :data:`REFRESH` seconds; a reader sums the
fields younger than :data:`STALE`, so a dead instance's spectators drop out by themselves.
Without Redis (or while it does not answer) the counts are this instance's hubs' own.

Writes are coalesced: one pipeline at a time, carrying every match that changed meanwhile. A
burst of sockets coming or going thus costs a few round trips and one pooled Redis connection,
not one of each per socket (redis-py's pool keeps every connection it ever opened: a wave of
1,000 concurrent writes left ~100 of them behind, and their objects, scattered among the
sockets' own, kept ~30 MB of the interpreter's memory arenas from going back to the system).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from app.realtime.redis_client import redis_client

log = logging.getLogger(__name__)

#: Seconds between two rewrites of this instance's counts, and the age they are ignored at.
REFRESH = 15.0
STALE = 45.0


class SpectatorCounts:
    """Spectator counts per match id. ``local(match_id)`` gives this instance's own count."""

    def __init__(
        self, redis_url: str | None, prefix: str, instance_id: str, local: Callable[[str], int]
    ) -> None:
        self._prefix = prefix
        self._instance = instance_id
        self._local = local
        self._watched: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        #: Matches changed since the last write began; the future their callers await (the
        #: end of the write that will carry them); the task writing.
        self._dirty: set[str] = set()
        self._next: asyncio.Future[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._client: Any = None
        if redis_url:
            self._client = redis_client(
                redis_url, socket_timeout=1.0, socket_connect_timeout=1.0, decode_responses=True
            )

    def _key(self, match_id: str) -> str:
        return f"{self._prefix}:spectators:{match_id}"

    async def _write(self, match_ids: list[str]) -> None:
        pipe = self._client.pipeline(transaction=False)
        now = int(time.time())
        for match_id in match_ids:
            count = self._local(match_id)
            if count:
                pipe.hset(self._key(match_id), self._instance, f"{count} {now}")
                pipe.expire(self._key(match_id), int(STALE) * 2)
            else:
                pipe.hdel(self._key(match_id), self._instance)
                self._watched.discard(match_id)
        await pipe.execute()

    async def changed(self, match_id: str) -> None:
        """A spectator came to or left ``match_id`` on this instance: publish its count.

        Returns once a write that read the count after this call has ended (written, or failed
        and left to the next refresh). Concurrent calls share writes (see the module
        docstring); cancelling the caller does not cancel the write.
        """
        if self._client is None:
            return
        self._watched.add(match_id)
        if self._task is None:
            self._task = asyncio.create_task(self._refresh(), name="spectator-counts")
        self._dirty.add(match_id)
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
        done = self._next
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_changes(), name="spectator-writes")
        await asyncio.shield(done)

    async def _write_changes(self) -> None:
        """Write the changed matches, one pipeline at a time, until none is left."""
        while self._dirty:
            batch, self._dirty = sorted(self._dirty), set()
            done, self._next = self._next, None
            try:
                await self._write(batch)
            except Exception as exc:  # noqa: BLE001 - the next refresh catches up
                log.debug("spectator counts not written: %s", exc)
            finally:
                if done is not None and not done.done():
                    done.set_result(None)

    async def _refresh(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            with contextlib.suppress(Exception):
                await self._write(sorted(self._watched))

    async def counts(self, match_ids: list[str]) -> dict[str, int]:
        """``{match id: spectators}`` over every live instance (this one's alone without
        Redis).
        """
        local = {m: self._local(m) for m in match_ids}
        if self._client is None or not match_ids:
            return local
        try:
            pipe = self._client.pipeline(transaction=False)
            for match_id in match_ids:
                pipe.hgetall(self._key(match_id))
            rows = await pipe.execute()
        except Exception as exc:  # noqa: BLE001 - Redis down: what this instance knows
            log.debug("spectator counts from local hubs: %s", exc)
            return local
        fresh_after = time.time() - STALE
        result = {}
        for match_id, row in zip(match_ids, rows, strict=True):
            total = 0
            for instance, value in row.items():
                count, _, stamp = value.partition(" ")
                if instance != self._instance and float(stamp or 0) >= fresh_after:
                    total += int(count)
            result[match_id] = total + local[match_id]
        return result

    async def close(self) -> None:
        """Stop refreshing, withdraw this instance's counts, close the connection."""
        for task in (self._task, self._writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self._next is not None and not self._next.done():
            self._next.set_result(None)
        if self._client is not None:
            with contextlib.suppress(Exception):
                pipe = self._client.pipeline(transaction=False)
                for match_id in self._watched:
                    pipe.hdel(self._key(match_id), self._instance)
                await pipe.execute()
            with contextlib.suppress(Exception):
                await self._client.aclose()
