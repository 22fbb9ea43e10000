"""Background loops of an instance, all driven from database state so any instance can do
the work of one that died: due bot turns (and abandoned seats), seat presence heartbeats, and
the live-matches gauge."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from app.db.lobbies import count_live_matches
from app.realtime.hub import HEARTBEAT
from app.services.bot_turns import drive
from app.services.delivery import delivery_loop
from app.services.play import due_matches
from app.services.runtime import Runtime
from app.services.sockets import touch_many

log = logging.getLogger(__name__)


async def bot_sweep(rt: Runtime) -> None:
    """Forever: play every due bot turn (``FOR UPDATE SKIP LOCKED`` keeps instances apart)."""
    while True:
        await asyncio.sleep(rt.settings.bot_poll_interval)
        try:
            for match_id in await due_matches(rt):
                drive(rt, match_id)  # one task per match: a bot's search delays no other
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot sweep failed")


async def presence_heartbeat(rt: Runtime) -> None:
    """Forever: refresh ``seat_presence`` for seats connected here; refresh the gauge."""
    while True:
        try:
            connected: list[tuple[str, int]] = []
            for hub in list(rt.hubs.hubs.values()):
                kind, _, key = hub.channel.removeprefix(rt.settings.channel_prefix + ":") \
                    .partition(":")
                if kind == "match":
                    connected += [(key, int(k)) for k in hub.local_presence()[0]]
            await touch_many(rt, connected)
            async with rt.db.reading() as conn:
                live = await count_live_matches(conn)
            rt.metrics.matches_live.set(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("presence heartbeat failed")
        await asyncio.sleep(HEARTBEAT)


LOOPS: list[Callable[[Runtime], Coroutine[Any, Any, None]]] = [
    bot_sweep, presence_heartbeat, delivery_loop]
