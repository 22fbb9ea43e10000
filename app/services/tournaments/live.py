"""The live tournament page: a change is announced on the tournament's broker channel (every
instance hears it) and each instance reads the tournament once for all its sockets watching it
(app/services/tournaments/page.py).

The message on the channel is only the tournament's id: each instance reads the tournament
itself, and each socket is sent only what its viewer may see.
"""

from __future__ import annotations

import json

from app.services.runtime import Runtime


def channel(rt: Runtime, tid: str) -> str:
    """The broker channel of tournament ``tid``."""
    return rt.fanout.channel("tournament", tid)


async def publish(rt: Runtime, tid: str) -> None:
    """Announce a change of tournament ``tid`` to every instance (never raises: a lost
    announcement is made up by the page's periodic refresh).
    """
    await rt.fanout.broker.publish(channel(rt, tid), json.dumps({"id": tid}))
