"""Shared views on their own (app/realtime/watches.py), against a fake read and the memory
broker: one read per change for every socket, a burst of changes coalesced, frames rendered
once per viewer key, an unchanged read sends nothing, a failed read keeps the last state, and
the watch goes with its last socket.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Hashable
from typing import Any

import pytest

from app.realtime.broker import MemoryBroker
from app.realtime.connection import Connection
from app.realtime.watches import Watches

pytestmark = pytest.mark.timeout(30)


class FakeSocket:
    """Collects what a connection sends."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


class Source:
    """The state behind the channel: ``{"v": n}``; counts reads and renders."""

    def __init__(self) -> None:
        self.v = 1
        self.reads = 0
        self.renders = 0
        self.fail = False
        self.gate: asyncio.Event | None = None

    async def read(self) -> dict[str, Any]:
        self.reads += 1
        if self.gate is not None:
            await self.gate.wait()
        if self.fail:
            raise ConnectionError("the database went away")
        return {"v": self.v}

    def render(self, state: Any, key: Hashable) -> str:
        self.renders += 1
        return f"{state['v']}:{key}"


def _key(_state: Any, viewer: str | None) -> Hashable:
    return viewer == "host"


async def _settle(condition: Any) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never settled")


async def test_one_read_per_change_for_every_socket_and_one_render_per_key() -> None:
    broker, source = MemoryBroker(), Source()
    watches = Watches(broker)
    kw: dict[str, Any] = dict(read=source.read, key=_key, render=source.render, refresh_every=60)
    async with contextlib.AsyncExitStack() as stack:
        conns = []
        for viewer in ["host", None, "ann", None, "ben"]:
            socket = FakeSocket()
            conn = Connection(socket, viewer)
            first = await stack.enter_async_context(watches.watching("ch", conn, viewer, **kw))
            await socket.send_text(first)
            conn.start(0)
            conns.append((socket, conn))
        assert source.reads == 1 and source.renders == 2  # one read, one frame per key
        assert [s.sent for s, _ in conns] == [["1:True"]] + [["1:False"]] * 4
        source.v = 2
        source.gate = asyncio.Event()
        for _ in range(3):  # a burst while the read waits: one more read after it
            await broker.publish("ch", "{}")
        await asyncio.sleep(0.05)
        source.v = 3
        await broker.publish("ch", "{}")
        source.gate.set()
        await _settle(lambda: all(s.sent[-1].startswith("3:") for s, _ in conns))
        assert source.reads == 3, source.reads  # the first, the burst's, the one during it
        # The burst's read already saw version 3, the next one the same: one frame for both.
        assert [len(s.sent) for s, _ in conns] == [2] * 5
        await broker.publish("ch", "{}")  # read again, unchanged: nothing sent
        await _settle(lambda: source.reads == 4)
        await asyncio.sleep(0.05)
        assert [len(s.sent) for s, _ in conns] == [2] * 5
        source.fail = True  # a failed read keeps what the sockets have
        await broker.publish("ch", "{}")
        await _settle(lambda: source.reads == 5)
        assert watches.watches["ch"].state == {"v": 3}
        for _, conn in conns:
            await conn.stop()
    assert watches.watches == {}  # gone with its last socket, and unsubscribed
    source.fail = False
    await broker.publish("ch", "{}")
    await asyncio.sleep(0.05)
    assert source.reads == 5


async def test_a_failed_first_read_is_raised_and_leaves_no_watch() -> None:
    broker, source = MemoryBroker(), Source()
    source.fail = True
    watches = Watches(broker)
    with pytest.raises(ConnectionError):
        async with watches.watching(
            "ch",
            Connection(FakeSocket(), None),
            None,
            read=source.read,
            key=_key,
            render=source.render,
            refresh_every=60,
        ):
            pass
    assert watches.watches == {}
