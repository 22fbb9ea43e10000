"""The brokers: memory, and Redis (real server) including publish while it is unreachable."""

from __future__ import annotations

import asyncio
import secrets

import pytest

from app.realtime.backends import create_broker
from app.realtime.broker import MemoryBroker, RedisBroker
from tests.support.servers import free_port
from tests.support.services import check_redis, run_async

pytestmark = pytest.mark.timeout(60)


def test_memory_broker_delivers_to_subscribers() -> None:
    run_async(_memory_broker_delivers_to_subscribers)


async def _memory_broker_delivers_to_subscribers() -> None:
    broker = MemoryBroker()
    got: list[str] = []
    await broker.subscribe("c", got.append)
    assert await broker.publish("c", "one")
    await broker.unsubscribe("c", got.append)
    assert await broker.publish("c", "two")
    assert got == ["one"] and await broker.ping()


def test_create_broker_picks_the_backend() -> None:
    assert isinstance(create_broker(None, "p"), MemoryBroker)
    assert isinstance(create_broker("redis://127.0.0.1:1/0", "p"), RedisBroker)


@pytest.mark.redis
def test_redis_broker_between_two_instances() -> None:
    run_async(_redis_broker_between_two_instances)


async def _redis_broker_between_two_instances() -> None:
    check_redis()
    channel = f"test-{secrets.token_hex(4)}:c"
    one, two = RedisBroker("redis://127.0.0.1:6379/0"), RedisBroker("redis://127.0.0.1:6379/0")
    await one.start()
    await two.start()
    try:
        got: list[str] = []
        await two.subscribe(channel, got.append)
        await asyncio.sleep(0.1)
        assert await one.publish(channel, "hello")
        for _ in range(50):
            if got:
                break
            await asyncio.sleep(0.02)
        assert got == ["hello"] and one.healthy and await one.ping()
    finally:
        await one.close()
        await two.close()


def test_redis_broker_down_never_raises() -> None:
    run_async(_redis_broker_down_never_raises)


async def _redis_broker_down_never_raises() -> None:
    broker = RedisBroker(f"redis://127.0.0.1:{free_port()}/0")
    await broker.start()
    try:
        assert not broker.healthy
        assert await broker.publish("x", "lost") is False
        assert await broker.ping() is False
        await broker.subscribe("x", lambda _m: None)
    finally:
        await broker.close()
