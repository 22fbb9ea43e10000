"""Redis clients from ``REDIS_URL``: one server (``redis://``) or a Redis Cluster.

A cluster is named by the scheme ``redis+cluster://host:port[,host:port...]`` (the seed nodes;
the client learns the rest from ``CLUSTER SLOTS``), the notation the ``limits`` library reads
too, so one URL serves the broker, the rate limits and the spectator counts. A database
number is meaningless on a cluster and refused.

This module only builds clients; it sends nothing.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

CLUSTER_SCHEMES = ("redis+cluster",)


def is_cluster_url(url: str | None) -> bool:
    """True when ``url`` names a Redis Cluster (``redis+cluster://...``)."""
    return bool(url) and urlsplit(url or "").scheme in CLUSTER_SCHEMES


def cluster_seeds(url: str) -> list[tuple[str, int]]:
    """The ``(host, port)`` seed nodes of a ``redis+cluster://h1:p1,h2:p2`` URL.

    Raises ``ValueError`` for another scheme, no node, or a database path other than ``/0``.
    """
    parts = urlsplit(url)
    if parts.scheme not in CLUSTER_SCHEMES:
        raise ValueError(f"{url!r} is not a redis+cluster:// URL")
    if parts.path not in ("", "/", "/0"):
        raise ValueError("a Redis Cluster has one database: drop the path from REDIS_URL")
    netloc = parts.netloc.rpartition("@")[2]
    seeds = []
    for node in filter(None, netloc.split(",")):
        host, _, port = node.rpartition(":")
        if not host:
            host, port = port, "6379"
        seeds.append((host.strip("[]"), int(port or 6379)))
    if not seeds:
        raise ValueError(f"{url!r} names no cluster node")
    return seeds


def cluster_client(url: str, **options: Any) -> Any:
    """A ``redis.asyncio.cluster.RedisCluster`` on the seed nodes of ``url``; ``options`` go
    to the client (timeouts, ``decode_responses``). Credentials in the URL are passed on.
    """
    from redis.asyncio.cluster import ClusterNode, RedisCluster

    parts = urlsplit(url)
    if parts.username:
        options.setdefault("username", parts.username)
    if parts.password:
        options.setdefault("password", parts.password)
    nodes = [ClusterNode(host, port) for host, port in cluster_seeds(url)]
    return RedisCluster(startup_nodes=nodes, **options)


def redis_client(url: str, **options: Any) -> Any:
    """An asyncio client for ``url``: a cluster client for ``redis+cluster://``, else
    ``redis.asyncio.Redis.from_url``. Both answer the same key commands and pipelines.
    """
    if is_cluster_url(url):
        return cluster_client(url, **options)
    import redis.asyncio as aioredis

    return aioredis.Redis.from_url(url, **options)
