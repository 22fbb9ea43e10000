"""The spectator delay on every path a spectator reads a live match through.

A match whose host chose a delay (app/services/spectator_delay.py) shows its spectators — any
reader who holds no seat — the position at the *visible version* and the players' chat posted
before the *cutoff time* (the spectators' own room is not held back: it tells nothing they have
not seen); players see it live, and once the match has ended everyone sees all of it. The
paths: the socket (app/services/match/delivery/delayed_socket.py: snapshots of the visible position,
presence with the visible version, chat held until its time; never a batch, clock or snapshot
of the live match), the REST match, events, record (and so the replay of a live match and its
move links, which read the record), and the match chat's history (the API layer filters it
with :func:`chat_cutoff`), and every summary of a match a non-player reads — the public
tables list, a player's profile and match list, the tournament organiser's referee view —
through :func:`visible_summaries` (its turn, seat to act and scores at the visible version).

It never writes. A delayed position is rebuilt from the setup and the log up to its version,
so no frame can carry a later position than the visible one.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

import orjson

from app.engine import GameState, action_from_json, apply_in_place, load_state, view
from app.services.cache import Live
from app.services.match import queries
from app.services.runtime import Runtime
from app.services.spectator_delay import SpectatorDelay

__all__ = [
    "SpectatorDelay",
    "Summary",
    "chat_cutoff",
    "delay_for",
    "delay_of",
    "delayed_live",
    "state_at",
    "visible",
    "visible_summaries",
    "withhold_in_list",
]

#: Matches whose delay was read (it never changes once the match started): match id → delay.
_DELAYS: OrderedDict[str, SpectatorDelay | None] = OrderedDict()
_DELAYS_KEPT = 4096
#: Past positions rebuilt for spectators: (match id, version) → the match then (never changes).
_POSITIONS: OrderedDict[tuple[str, int], Live] = OrderedDict()
_POSITIONS_KEPT = 64
#: The summary of a past position: (match id, version) → its turn, seat to act and scores.
_SUMMARIES: OrderedDict[tuple[str, int], Summary] = OrderedDict()
_SUMMARIES_KEPT = 1024


@dataclass(frozen=True)
class Summary:
    """What a match list tells of a live match at ``version`` (the log entries applied):
    ``turn`` (the engine's turn counter), ``seat_to_act`` (0-based seat) and ``scores``
    (points by seat, in the seats' order).
    """

    version: int
    turn: int
    seat_to_act: int
    scores: tuple[int, ...]


async def delay_of(rt: Runtime, match_id: str) -> SpectatorDelay | None:
    """The match's spectator delay (None: spectators see it live). Cached per process."""
    if match_id in _DELAYS:
        return _DELAYS[match_id]
    delay = SpectatorDelay.from_json(await queries.spectator_delay(rt.storage.db, match_id))
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
    times = await queries.action_times(rt.storage.db, match_id, max(0, latest - delay.window()))
    shown, cutoff = delay.cutoff(datetime.now(UTC), latest, times)
    return shown, cutoff, delay.due(times.get(shown + 1))


async def state_at(rt: Runtime, live: Live, version: int) -> Live:
    """The match as it stood at ``version`` (rebuilt from its setup and log), as a
    :class:`Live` without a clock (a live clock would tell who is to move now).
    """
    if version >= live.version:
        if live.view is None:
            live.view = view(live.state, live.state.seat)
        return replace(live, clock=None)
    key = (live.match_id, version)
    if key in _POSITIONS:  # every spectator of a match asks for the same few positions
        _POSITIONS.move_to_end(key)
        return _POSITIONS[key]
    rebuilt = await _rebuild(rt, live.match_id, version)
    if rebuilt is None:
        return live
    state, at_version = rebuilt
    at = Live(
        match_id=live.match_id,
        version=at_version,
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


async def _rebuild(rt: Runtime, match_id: str, version: int) -> tuple[GameState, int] | None:
    """The match's state after its first ``version`` log entries, and how many there were
    (None: no such match).
    """
    found = await queries.delayed_view(rt.storage.db, match_id, version)
    if found is None:
        return None
    setup, actions = found
    state = load_state(setup)
    for _, raw in actions:
        apply_in_place(state, action_from_json(orjson.loads(raw)))
    return state, len(actions)


async def _summary_at(rt: Runtime, match_id: str, version: int) -> Summary | None:
    key = (match_id, version)
    if key in _SUMMARIES:
        _SUMMARIES.move_to_end(key)
        return _SUMMARIES[key]
    known = _POSITIONS.get(key)
    if known is not None:
        state, at_version = known.state, known.version
    else:
        rebuilt = await _rebuild(rt, match_id, version)
        if rebuilt is None:
            return None
        state, at_version = rebuilt
    summary = Summary(at_version, state.turn, state.seat, tuple(int(s) for s in state.scores))
    _SUMMARIES[key] = summary
    while len(_SUMMARIES) > _SUMMARIES_KEPT:
        _SUMMARIES.popitem(last=False)
    return summary


async def visible_summaries(
    rt: Runtime, match_ids: Iterable[str], viewer: str | None
) -> dict[str, Summary]:
    """``{match id: Summary at the visible version}`` for the live matches among
    ``match_ids`` whose spectator delay holds something back from ``viewer`` (None: anyone,
    e.g. a public list). A match missing from the answer is shown as stored: finished, no
    delay, ``viewer`` seated in it, or nothing hidden yet. One query for the lot; a rebuilt
    position is kept per (match, version), so a list polled by many readers replays each
    delayed match once per move.
    """
    out: dict[str, Summary] = {}
    for row in await queries.delayed_live_rows(rt.storage.db, list(match_ids)):
        delay = SpectatorDelay.from_json(row.spectator_delay)
        if delay is None or (
            viewer is not None and any(s.get("player") == viewer for s in row.seats)
        ):
            continue
        latest = int(row.version)
        if delay.moves:
            shown = max(0, latest - delay.moves)
        else:
            shown, _, _ = await visible(rt, row.id, latest, delay)
        if shown >= latest:
            continue
        summary = await _summary_at(rt, row.id, shown)
        if summary is not None:
            out[row.id] = summary
    return out


async def withhold_in_list(
    rt: Runtime, entries: list[dict[str, Any]], viewer: str | None, id_key: str = "id"
) -> None:
    """Rewrite, in place, the entries of a match list (each names its match by ``id_key``) a
    delay holds back from ``viewer`` (see :func:`visible_summaries`) to their visible
    version: whichever of ``turn``, ``seat_to_act``, ``scores``, ``version`` an entry has, and
    the ``score`` of each of its ``seats`` (``{"seat", "score", ...}``). A ``clock`` becomes
    None: its running seat and deadline would tell who is to move now.
    """
    ids = [str(e[id_key]) for e in entries if e.get(id_key)]
    shown = await visible_summaries(rt, ids, viewer) if ids else {}
    for entry in entries:
        summary = shown.get(str(entry.get(id_key)))
        if summary is None:
            continue
        fields = {
            "turn": summary.turn,
            "seat_to_act": summary.seat_to_act,
            "scores": list(summary.scores),
            "version": summary.version,
            "clock": None,
        }
        entry.update({k: v for k, v in fields.items() if k in entry})
        for seat in entry.get("seats") or ():
            if "score" in seat and int(seat["seat"]) < len(summary.scores):
                seat["score"] = summary.scores[int(seat["seat"])]


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
