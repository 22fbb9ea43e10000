"""A lobby's sockets: the lobby's hub (newest lobby wins; presence re-sends it with who is
connected) and joining a websocket to it, the lobby sent first.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from app.realtime.connection import Connection, Socket
from app.realtime.hub import Hub
from app.realtime.protocol import lobby_frame
from app.services.lobby.lobby import get_lobby
from app.services.runtime import Runtime


def lobby_hub_factory(rt: Runtime, code: str) -> Hub:
    """A hub for a lobby channel: newest lobby wins; presence re-sends the lobby."""
    hub: Hub

    def render(keys: set[str], _spectators: int) -> str | None:
        data = hub.state
        if data is None:
            return None
        fresh = dict(data)
        fresh["seats"] = [
            {**s, "connected": bool(s["bot"]) or (s["player"] is not None and s["player"] in keys)}
            for s in data["seats"]
        ]
        return lobby_frame(fresh)

    hub = Hub(
        rt.fanout.hubs, rt.fanout.channel("lobby", code), ordered=False, render_presence=render
    )
    return hub


@contextlib.asynccontextmanager
async def lobby_socket(
    rt: Runtime, socket: Socket, code: str, player_id: str | None
) -> AsyncIterator[tuple[Hub, Connection]]:
    """A websocket joined to a lobby for the block, the lobby sent first. Raises
    :class:`NotFound` before joining; leaves the lobby's hub on the way out (even when
    cancelled).
    """
    await get_lobby(rt, code)
    async with rt.fanout.hubs.joined(
        rt.fanout.channel("lobby", code),
        lambda: lobby_hub_factory(rt, code),
        lambda _: Connection(socket, player_id),
    ) as (hub, conn):
        data = await get_lobby(rt, code)
        hub.state = data
        hub.note_version(data["version"])
        await socket.send_text(lobby_frame(dict(data)))
        conn.start(data["version"])
        yield hub, conn
