"""Background loops of an instance, all driven from database state so any instance can do
the work of one that died: due bot turns, clocks that ran out, leave countdowns and votes
(one sweep: ``next_bot_at``), the instance heartbeat and its outage credit, seat presence
heartbeats, and the live-matches gauge.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Callable, Coroutine

from app.db.errors import log_failure
from app.realtime.hub import HEARTBEAT
from app.services.clock import outage
from app.services.community.socket_revocation import revocation_sweep
from app.services.lobby.queries import count_live_matches
from app.services.lobby.series_games import sweep as series_sweep
from app.services.match.delivery.delivery import delivery_loop
from app.services.match.delivery.sockets import touch_many
from app.services.match.play.bot_turns import drive, due_matches
from app.services.runtime import Runtime
from app.services.tournaments.sweep import sweep as tournament_sweep

log = logging.getLogger(__name__)


#: Set per runtime once the outage check ran (the sweep and the heartbeat wait for it).
_CREDITED: weakref.WeakKeyDictionary[Runtime, asyncio.Event] = weakref.WeakKeyDictionary()


def _credited(rt: Runtime) -> asyncio.Event:
    return _CREDITED.setdefault(rt, asyncio.Event())


async def outage_checked(rt: Runtime) -> bool:
    """Whether this instance's outage check has run (``/readyz``: until then a read or a move
    could see a clock not yet credited for the time nobody served; docs/API.md § Health).
    True at once when the instance runs no bot sweep (``create_app(with_loops=False)``); else
    waits for the check (the caller bounds the wait).
    """
    event = _CREDITED.get(rt)
    if event is None:
        return True
    await event.wait()
    return True


async def bot_sweep(rt: Runtime) -> None:
    """First credit an outage to running clocks (before any deadline is looked at), then
    forever: play every due turn and settle every due clock (``FOR UPDATE SKIP LOCKED`` keeps
    instances apart).
    """
    credited = _credited(rt)  # from the first step: /readyz waits for it from now on
    while True:
        # Shielded: a transaction cancelled halfway (a quick shutdown) must not wedge the pool.
        check = asyncio.ensure_future(outage.start_and_credit(rt))
        try:
            await asyncio.shield(check)
            break
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await check
            raise
        except Exception:
            log_failure(log, "outage check failed; retrying")
            await asyncio.sleep(rt.settings.instance_heartbeat)
    credited.set()
    while True:
        await asyncio.sleep(rt.settings.bot_poll_interval)
        try:
            for match_id in await due_matches(rt):
                drive(rt, match_id)  # one task per match: a bot's search delays no other
        except asyncio.CancelledError:
            raise
        except Exception:
            log_failure(log, "bot sweep failed")


async def instance_heartbeat(rt: Runtime) -> None:
    """Forever, once the outage check ran: tell the database this instance is serving."""
    await _credited(rt).wait()
    while True:
        await asyncio.sleep(rt.settings.instance_heartbeat)
        try:
            await outage.beat(rt)
        except asyncio.CancelledError:
            raise
        except Exception:
            log_failure(log, "instance heartbeat failed")


async def presence_heartbeat(rt: Runtime) -> None:
    """Forever: refresh ``seat_presence`` for seats connected here; refresh the gauge."""
    while True:
        try:
            connected: list[tuple[str, int]] = []
            for hub in list(rt.fanout.hubs.hubs.values()):
                kind, _, key = hub.channel.removeprefix(rt.settings.channel_prefix + ":").partition(
                    ":"
                )
                if kind == "match":
                    connected += [(key, int(k)) for k in hub.local_presence()[0]]
            await touch_many(rt, connected)
            async with rt.storage.db.reading() as conn:
                live = await count_live_matches(conn)
            rt.metrics.matches_live.set(live)
        except asyncio.CancelledError:
            raise
        except Exception:
            log_failure(log, "presence heartbeat failed")
        await asyncio.sleep(HEARTBEAT)


#: A background loop of the runtime: asyncio's task sends it None and takes what it yields.
Loop = Callable[[Runtime], Coroutine[object, None, None]]

LOOPS: list[Loop] = [
    bot_sweep,
    instance_heartbeat,
    presence_heartbeat,
    delivery_loop,
    revocation_sweep,
    tournament_sweep,
    series_sweep,
]
