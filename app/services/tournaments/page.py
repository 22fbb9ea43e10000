"""The live tournament page's sockets share one view per instance: a change of the tournament
(announced on its broker channel: :mod:`app.services.tournaments.live`) is read once here and
sent to every socket watching it, each with its own ``is_host`` and ``me``
(:func:`app.services.tournaments.reads.viewer_key`), rendered once per distinct viewer
key. It never reads per socket and never shows a viewer what is not theirs.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Hashable

from app.realtime.connection import Connection
from app.services.runtime import Runtime
from app.services.tournaments import live, reads
from app.services.tournaments.model import TournamentJson

#: Seconds between two unprompted reads while sockets watch (a lost announcement, or a live
#: table's clock and score, which announce nothing, are made up for).
REFRESH_EVERY = 30.0


def frame(data: TournamentJson, key: Hashable) -> str:
    """``{"t": "tournament", "v": version, "d": Tournament}`` for viewers with ``key``."""
    assert isinstance(key, tuple)
    return json.dumps({"t": "tournament", "v": data["version"], "d": reads.for_key(data, key)})


@contextlib.asynccontextmanager
async def watching(
    rt: Runtime, tid: str, conn: Connection, viewer: str | None
) -> AsyncIterator[str]:
    """Watch tournament ``tid`` with ``conn`` (``viewer``: the socket's player, None:
    anonymous) for the block: yields the frame to send first, then pushes a fresh frame on
    ``conn`` after every change. Raises :class:`NotFound` (no such tournament).
    """
    async with rt.fanout.watches.watching(
        live.channel(rt, tid),
        conn,
        viewer,
        read=lambda: reads.read(rt, tid),
        key=reads.viewer_key,
        render=frame,
        refresh_every=REFRESH_EVERY,
    ) as first:
        yield first
