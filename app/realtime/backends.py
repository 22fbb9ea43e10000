"""The broker backend ``REDIS_URL`` names (the only module that knows all three)."""

from __future__ import annotations

from app.realtime.broker import Broker, MemoryBroker, RedisBroker
from app.realtime.cluster_broker import RedisClusterBroker
from app.realtime.redis_client import is_cluster_url


def create_broker(redis_url: str | None, prefix: str) -> Broker:
    """A :class:`RedisClusterBroker` for ``redis+cluster://`` seeds, a :class:`RedisBroker` for
    another ``redis_url``, else (unset) a :class:`MemoryBroker` (one process only).
    ``prefix`` starts every channel name.
    """
    if is_cluster_url(redis_url):
        return RedisClusterBroker(str(redis_url), prefix)
    if redis_url:
        return RedisBroker(redis_url, prefix)
    return MemoryBroker()
