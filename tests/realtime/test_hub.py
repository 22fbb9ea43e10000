"""The hub on its own, against a fake log (``fetch``) and the memory broker: batches arrive
out of order, twice, with gaps, or too many for a slow socket; presence counts.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.realtime.broker import MemoryBroker
from app.realtime.connection import Connection
from app.realtime.hub import PRESENCE_DIRECT, Hub
from app.realtime.hubs import HubManager
from app.realtime.protocol import broker_message
from tests.support.services import run_async

pytestmark = pytest.mark.timeout(30)


class FakeSocket:
    """Collects what a connection sends."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


class FakeLog:
    """The database as ``fetch`` sees it: frames ``"b<v>"`` for versions 1..head."""

    def __init__(self, head: int) -> None:
        self.head = head
        self.calls: list[tuple[int, int | None]] = []

    async def fetch(self, after: int, upto: int | None) -> list[tuple[int, str]]:
        self.calls.append((after, upto))
        top = self.head if upto is None else min(upto, self.head)
        return [(v, f"b{v}") for v in range(after + 1, top + 1)]


async def _hub(log: FakeLog, at: int) -> tuple[HubManager, Hub, Connection, FakeSocket]:
    manager = HubManager(MemoryBroker())
    hub = await manager.acquire(
        "m:1", lambda: Hub(manager, "m:1", ordered=True, fetch=log.fetch, key="1")
    )
    socket = FakeSocket()
    conn = Connection(socket, None, hub.fetch)
    hub.add(conn)
    hub.note_version(at)
    conn.start(at)
    return manager, hub, conn, socket


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


def _remote(version: int, frame: str, kind: str = "batch") -> str:
    return broker_message("other-instance", kind, version, frame)


def test_out_of_order_and_duplicates_reach_the_socket_once_in_order() -> None:
    async def run() -> list[str]:
        log = FakeLog(head=4)
        manager, _hub_, _conn, socket = await _hub(log, 0)
        broker = manager.broker
        for v in (1, 3, 2, 1, 4, 3):  # 3 before 2: the gap is filled from the log
            await broker.publish("m:1", _remote(v, f"b{v}"))
        await _settle()
        await manager.close()
        return socket.sent

    assert run_async(run) == ["b1", "b2", "b3", "b4"]


def test_own_echo_is_ignored_and_local_delivery_is_direct() -> None:
    async def run() -> list[str]:
        log = FakeLog(head=1)
        manager, hub, _conn, socket = await _hub(log, 0)
        hub.deliver(1, "b1")
        await manager.broker.publish(
            "m:1", broker_message(manager.broker.instance_id, "batch", 1, "echo")
        )
        await _settle()
        await manager.close()
        return socket.sent

    assert run_async(run) == ["b1"]


def test_a_head_message_or_a_newer_version_fills_the_gap_from_the_log() -> None:
    async def run() -> tuple[list[str], list[tuple[int, int | None]]]:
        log = FakeLog(head=3)
        manager, hub, _conn, socket = await _hub(log, 1)
        await manager.broker.publish("m:1", _remote(3, "", kind="head"))
        await _settle()
        log.head = 5
        hub.behind(5)  # what the database watch does
        hub.behind(2)  # already forwarded: nothing to do
        await _settle()
        await manager.close()
        return socket.sent, log.calls

    sent, calls = run_async(run)
    assert sent == ["b2", "b3", "b4", "b5"]
    assert calls == [(1, None), (3, None)]


def test_a_socket_joining_mid_delivery_does_not_hide_the_batch_from_the_others() -> None:
    """Version 1 is committed elsewhere and still on its way when a spectator joins here and
    reads it from the database: the sockets already here get it all the same (at once, from
    the log), once each, and the late broadcast is a duplicate for everyone.
    """

    async def run() -> tuple[list[str], list[str]]:
        log = FakeLog(head=0)
        manager, hub, _conn, socket = await _hub(log, 0)
        log.head = 1  # committed on another instance; its broadcast has not arrived
        joiner = FakeSocket()
        late = Connection(joiner, None, hub.fetch)
        hub.add(late)
        hub.note_version(1)  # what the join does after sending its snapshot at version 1
        late.start(1)
        await _settle()
        first = list(socket.sent)
        await manager.broker.publish("m:1", _remote(1, "b1"))  # the broadcast, late
        log.head = 2
        await manager.broker.publish("m:1", _remote(2, "b2"))
        await _settle()
        await manager.close()
        return first + ["|"] + socket.sent[len(first) :], joiner.sent

    old, joined = run_async(run)
    assert old == ["b1", "|", "b2"]
    assert joined == ["b2"]


def test_presence_announcement_with_a_higher_version_fills_the_gap() -> None:
    async def run() -> list[str]:
        log = FakeLog(head=2)
        manager, _hub_, _conn, socket = await _hub(log, 0)
        await manager.broker.publish(
            "m:1", _remote(0, '{"keys":["1"],"spectators":0,"hello":false,"v":2}', kind="presence")
        )
        await _settle()
        await manager.close()
        return socket.sent

    assert run_async(run) == ["b1", "b2"]


def test_a_socket_too_far_behind_is_closed_to_reconnect() -> None:
    async def run() -> tuple[bool, Any]:
        log = FakeLog(head=0)
        manager = HubManager(MemoryBroker())
        hub = await manager.acquire(
            "m:1", lambda: Hub(manager, "m:1", ordered=True, fetch=log.fetch, key="1")
        )
        socket = FakeSocket()
        conn = Connection(socket, "0", hub.fetch)
        hub.add(conn)
        for v in range(1, Connection.QUEUE_LIMIT + 2):  # the writer is not started yet
            conn.push(v, f"b{v}")
        conn.start(0)
        await _settle()
        await manager.release(hub, conn)
        await manager.close()
        return conn.overflowed, socket.closed

    overflowed, closed = run_async(run)
    assert overflowed and closed is not None and closed[0] == 1013


def test_presence_is_counted_not_scanned_and_changes_are_coalesced() -> None:
    async def run() -> tuple[tuple[set[str], int], int, tuple[set[str], int]]:
        manager = HubManager(MemoryBroker())
        frames: list[tuple[frozenset[str], int]] = []

        def render(keys: set[str], spectators: int) -> str:
            frames.append((frozenset(keys), spectators))
            return "presence"

        hub = await manager.acquire(
            "m:1", lambda: Hub(manager, "m:1", ordered=True, render_presence=render, key="1")
        )
        conns = [Connection(FakeSocket(), None if i % 3 else str(i % 2)) for i in range(300)]
        for conn in conns:
            hub.add(conn)
        counted = hub.local_presence()
        await _settle()
        renders = len(frames)
        for conn in conns[1:]:
            hub.remove(conn)
        await _settle()
        left = hub.local_presence()
        await manager.close()
        return counted, renders, left

    counted, renders, left = run_async(run)
    assert counted == ({"0", "1"}, 200)
    # 300 joins in one burst: a frame per join while the hub is small, then one for the rest.
    assert renders <= PRESENCE_DIRECT + 1
    assert left == ({"0"}, 0)


def test_a_change_that_is_not_an_action_is_refreshed_when_the_watch_sees_it() -> None:
    """``noted``: the database's count of clock-only changes (and early ends) grew since the
    last look — the broadcast may have been lost — so every socket gets the current clock.
    """

    async def run() -> tuple[list[str], int]:
        calls = 0

        async def refresh() -> str | None:
            nonlocal calls
            calls += 1
            return f"clock{calls}"

        manager = HubManager(MemoryBroker())
        log = FakeLog(head=0)
        hub = await manager.acquire(
            "m:1",
            lambda: Hub(manager, "m:1", ordered=True, fetch=log.fetch, key="1", refresh=refresh),
        )
        socket = FakeSocket()
        conn = Connection(socket, None, hub.fetch)
        hub.add(conn)
        hub.note_version(0)
        conn.start(0)
        hub.noted(3)  # the first look only records the count
        await _settle()
        hub.noted(3)  # nothing new
        await _settle()
        hub.noted(4)  # a vote started and its clock frame never came through the broker
        await _settle()
        await manager.close()
        return socket.sent, calls

    assert run_async(run) == (["clock1"], 1)


def test_joined_leaves_the_hub_even_when_the_block_fails() -> None:
    async def run() -> tuple[bool, list[str]]:
        manager = HubManager(MemoryBroker())
        left: list[str] = []

        async def after(hub: Hub) -> None:
            left.append(hub.channel)

        with pytest.raises(RuntimeError):
            async with manager.joined(
                "m:1",
                lambda: Hub(manager, "m:1", ordered=True, key="1"),
                lambda _: Connection(FakeSocket(), "0"),
                after,
            ) as (hub, conn):
                assert conn in hub.connections and manager.get("m:1") is hub
                raise RuntimeError("the socket went away")
        gone = manager.get("m:1") is None
        await manager.close()
        return gone, left

    assert run_async(run) == (True, ["m:1"])


def test_a_sync_resends_nothing_the_socket_was_already_sent() -> None:
    """A client resumed after a pause (SIGSTOP) asks ``sync`` for versions still unread in its
    buffer: they are on their way, in order; only newer ones are sent (the soak found a
    version delivered twice on one socket).
    """

    async def run() -> list[str]:
        log = FakeLog(head=3)
        socket = FakeSocket()
        conn = Connection(socket, None, log.fetch)
        conn.start(3)  # versions 1-3 were sent
        conn.request_sync(1)
        await _settle()
        log.head = 4
        conn.request_sync(1)
        await _settle()
        return socket.sent

    assert run_async(run) == ["b4"]
