"""``REDIS_URL`` naming a cluster, and the cluster broker's channel names (no Redis needed)."""

from __future__ import annotations

import pytest

from app.realtime.backends import create_broker
from app.realtime.broker import RedisBroker
from app.realtime.cluster_broker import RedisClusterBroker
from app.realtime.redis_client import cluster_seeds, is_cluster_url


def test_cluster_urls() -> None:
    assert is_cluster_url("redis+cluster://10.0.0.1:7000,10.0.0.2:7001")
    assert not is_cluster_url("redis://localhost:6379/0")
    assert not is_cluster_url(None)
    assert cluster_seeds("redis+cluster://:pw@10.0.0.1:7000,10.0.0.2") == [
        ("10.0.0.1", 7000),
        ("10.0.0.2", 6379),
    ]
    with pytest.raises(ValueError, match="one database"):
        cluster_seeds("redis+cluster://10.0.0.1:7000/3")
    with pytest.raises(ValueError, match="no cluster node"):
        cluster_seeds("redis+cluster://")


async def test_the_broker_follows_the_url() -> None:
    cluster = create_broker("redis+cluster://127.0.0.1:7000", "game")
    single = create_broker("redis://127.0.0.1:6379/0", "game")
    try:
        assert isinstance(cluster, RedisClusterBroker)
        assert type(single) is RedisBroker
        # One hash tag per match: the match's channel and anything keyed by it share a slot.
        assert cluster.shard_channel("game:match:abc") == "game:{match:abc}"
        assert cluster.shard_channel("game:lobby:QX7") == "game:{lobby:QX7}"
        assert cluster.shard_channel("other") == "{other}"
    finally:
        await cluster.close()
        await single.close()
