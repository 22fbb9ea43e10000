"""The live tournament page: a change is announced on the tournament's broker channel (every
instance hears it) and each open tournament socket answers with the fresh Tournament JSON.

The message on the channel is only the tournament's id and version: the socket reads the
tournament itself, so a page never shows what its viewer may not see.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

from app.services.runtime import Runtime


def channel(rt: Runtime, tid: str) -> str:
    """The broker channel of tournament ``tid``."""
    return rt.channel("tournament", tid)


async def publish(rt: Runtime, tid: str) -> None:
    """Announce a change of tournament ``tid`` to every instance (never raises: a lost
    announcement is made up by the page's periodic refresh).
    """
    await rt.broker.publish(channel(rt, tid), json.dumps({"id": tid}))


@contextlib.asynccontextmanager
async def changes(rt: Runtime, tid: str) -> AsyncIterator[asyncio.Event]:
    """An event set whenever tournament ``tid`` changes (on any instance), for the block."""
    changed = asyncio.Event()

    def heard(_message: str) -> None:
        changed.set()

    await rt.broker.subscribe(channel(rt, tid), heard)
    try:
        yield changed
    finally:
        await rt.broker.unsubscribe(channel(rt, tid), heard)
