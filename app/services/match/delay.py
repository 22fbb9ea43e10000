"""The spectator delay on every path a spectator reads a live match through.

A match whose host chose a delay (app/services/spectator_delay.py) shows its spectators — any
reader who holds no seat — the position at the *visible version* and the players' chat posted
before the *cutoff time* (the spectators' own room is not held back: it tells nothing they have
not seen); players see it live, and once the match has ended everyone sees all of it. The
paths: the socket (app/services/match/delayed_socket.py: snapshots of the visible position,
presence with the visible version, chat held until its time; never a batch, clock or snapshot
of the live match), the REST match, events, record (and so the replay of a live match and its
move links, which read the record), and the match chat's history (the API layer filters it
with :func:`chat_cutoff`).

It never writes. A delayed position is rebuilt from the setup and the log up to its version,
so no frame can carry a later position than the visible one.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from datetime import UTC, datetime

import orjson

from app.engine import action_from_json, apply_in_place, load_state, view
from app.services.cache import Live
from app.services.match import queries
from app.services.runtime import Runtime
from app.services.spectator_delay import SpectatorDelay

__all__ = [
    "SpectatorDelay",
    "chat_cutoff",
    "delay_for",
    "delay_of",
    "delayed_live",
    "state_at",
    "visible",
]

#: Matches whose delay was read (it never changes once the match started): match id → delay.
_DELAYS: OrderedDict[str, SpectatorDelay | None] = OrderedDict()
_DELAYS_KEPT = 4096
#: Past positions rebuilt for spectators: (match id, version) → the match then (never changes).
_POSITIONS: OrderedDict[tuple[str, int], Live] = OrderedDict()
_POSITIONS_KEPT = 64


async def delay_of(rt: Runtime, match_id: str) -> SpectatorDelay | None:
    """The match's spectator delay (None: spectators see it live). Cached per process."""
    if match_id in _DELAYS:
        return _DELAYS[match_id]
    delay = SpectatorDelay.from_json(await queries.spectator_delay(rt.db, match_id))
    _DELAYS[match_id] = delay
    while len(_DELAYS) > _DELAYS_KEPT:
        _DELAYS.popitem(last=False)
    return delay


async def delay_for(rt: Runtime, live: Live, player_id: str | None) -> SpectatorDelay | None:
    """The delay that applies to ``player_id`` reading ``live``: None for a seated player, for
    a finished match, or when the match has none.
    """
    if live.state.is_over or live.seat_of(player_id) is not None:
        return None
    return await delay_of(rt, live.match_id)


async def visible(
    rt: Runtime, match_id: str, latest: int, delay: SpectatorDelay
) -> tuple[int, datetime | None, datetime | None]:
    """``(visible version, cutoff time, due)`` of a live match at version ``latest``; ``due``:
    when the next hidden action becomes visible by time alone (None: it waits for moves).
    """
    times = await queries.action_times(rt.db, match_id, max(0, latest - delay.window()))
    shown, cutoff = delay.cutoff(datetime.now(UTC), latest, times)
    return shown, cutoff, delay.due(times.get(shown + 1))


async def state_at(rt: Runtime, live: Live, version: int) -> Live:
    """The match as it stood at ``version`` (rebuilt from its setup and log), as a
    :class:`Live` without a clock (a live clock would tell who is to move now).
    """
    if version >= live.version:
        if live.view is None:
            live.view = view(live.state, live.state.seat)
        return replace(live, clock=None, parsed_clock=None, parsed_for=None)
    key = (live.match_id, version)
    if key in _POSITIONS:  # every spectator of a match asks for the same few positions
        _POSITIONS.move_to_end(key)
        return _POSITIONS[key]
    found = await queries.delayed_view(rt.db, live.match_id, version)
    if found is None:
        return live
    setup, actions = found
    state = load_state(setup)
    for _, raw in actions:
        apply_in_place(state, action_from_json(orjson.loads(raw)))
    at = Live(
        match_id=live.match_id,
        version=len(actions),
        state=state,
        seats=live.seats,
        name=live.name,
        private=live.private,
        lobby_code=live.lobby_code,
        view=view(state, state.seat),
        clock=None,
    )
    _POSITIONS[key] = at
    while len(_POSITIONS) > _POSITIONS_KEPT:
        _POSITIONS.popitem(last=False)
    return at


async def delayed_live(rt: Runtime, live: Live, player_id: str | None) -> Live:
    """``live`` as ``player_id`` may see it: itself for players (or without a delay), else the
    match at its visible version.
    """
    delay = await delay_for(rt, live, player_id)
    if delay is None:
        return live
    shown, _, _ = await visible(rt, live.match_id, live.version, delay)
    return await state_at(rt, live, shown)


async def chat_cutoff(rt: Runtime, live: Live, player_id: str | None) -> datetime | None:
    """The time before which ``player_id`` may read the match's chat (None: all of it)."""
    delay = await delay_for(rt, live, player_id)
    if delay is None:
        return None
    _, cutoff, _ = await visible(rt, live.match_id, live.version, delay)
    return cutoff
