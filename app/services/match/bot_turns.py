"""Driving due bot turns concurrently: one background task per match, at most one per match.

The sweep (:func:`app.services.timers.bot_sweep`) finds matches whose bot (or abandoned) turn
is due; a Strong bot then thinks for up to ``BOT_THINK`` seconds in the worker pool. Playing
those matches one after another would make the last one wait for every search before it, so
each due match gets its own task here (searches still queue for a free worker in
:class:`app.bots.pool.BotPool`). A match already being driven by this instance is skipped.
"""

from __future__ import annotations

from app.services.match.play import play_due_turn
from app.services.runtime import Runtime


def drive(rt: Runtime, match_id: str) -> None:
    """Play ``match_id``'s due turns in the background unless this instance already does."""
    driving = rt.bots.driving
    if match_id in driving:
        return
    driving.add(match_id)
    rt.spawn(_drain(rt, match_id))


async def _drain(rt: Runtime, match_id: str) -> None:
    try:
        while await play_due_turn(rt, match_id):
            pass
    finally:
        rt.bots.driving.discard(match_id)
