"""Reads of a match: its engine state at one consistent version, the Match JSON, the events
since a version, the record, the frames a socket or hub missed, and who may watch.

Every read of the database goes through :func:`app.db.hot.read_tx`, so the match row, its
snapshot and its log come from one committed version even while another instance commits
(the log is also read only up to the row's version). Nothing secret leaves here: frames carry
``view()`` and event JSON, never ``to_json()``.
"""

from __future__ import annotations

import hmac
from datetime import datetime
from typing import Any, cast

import orjson

from app.db.hot import MatchRow, Tx, read_tx
from app.engine import (
    action_from_json,
    apply_in_place,
    event_to_json,
    export_record,
    load_state,
    view,
)
from app.json_types import JsonObject, JsonValue
from app.realtime.protocol import events_frame, snapshot_frame
from app.services.cache import Live
from app.services.clock import clocks, table_options
from app.services.clock_values.match_clock import MatchClock
from app.services.errors import Forbidden, NotFound
from app.services.match import queries
from app.services.match.queries import batches_since
from app.services.match.spectating import delay
from app.services.records import history
from app.services.records.titles import match_host_name
from app.services.runtime import Runtime
from app.services.seat_values import seats_from_json
from app.settings import RENAMED_MATCH_KEYS

# ---------------------------------------------------------------------- loading


async def load_live(tx: Tx, row: MatchRow) -> Live:
    """Rebuild a match's engine state at ``row.version`` from its snapshot and the log after it.

    ``tx`` must see the same committed version as ``row`` (a write transaction holding the row
    lock, or :func:`read_tx`). Its seats are the row's, typed here once
    (:func:`~app.services.seat_values.seats_from_json`). Raises RuntimeError when the log has
    a hole; ``KeyError`` or ``ValueError`` for stored seats that do not parse.
    """
    state = load_state(await tx.snapshot(row.id))
    version = row.snapshot_version
    for seq, raw in await tx.actions_after(row.id, row.snapshot_version, row.version):
        if seq != version + 1:
            raise RuntimeError(f"match {row.id}: action log jumps from {version} to {seq}")
        apply_in_place(state, action_from_json(orjson.loads(raw)))
        version = seq
    if version != row.version:
        raise RuntimeError(f"match {row.id}: log ends at {version}, row says {row.version}")
    return Live(
        match_id=row.id,
        version=version,
        state=state,
        seats=seats_from_json(row.seats),
        name=row.name,
        private=row.private,
        lobby_code=row.lobby_code,
    )


async def live_for(rt: Runtime, tx: Tx, row: MatchRow) -> Live:
    """The cached state if it is at the row's version, else a rebuild (cached); either way its
    ``clock`` is the row's, parsed here once (:meth:`MatchClock.from_json`; a clock changes
    between moves too, so a cached entry takes it anew). Raises RuntimeError as
    :func:`load_live` (seats that do not parse too); ``KeyError`` or
    :class:`~app.services.clock_values.controls.InvalidTimeControl` for a stored clock that
    does not parse (nothing cached is changed then).
    """
    clock = None if row.clock is None else MatchClock.from_json(row.clock)
    live = rt.storage.cache.get(row.id)
    if live is None or live.version != row.version:
        live = await load_live(tx, row)
        rt.storage.cache.put(live)
    live.clock = clock
    return live


async def current(rt: Runtime, match_id: str) -> Live:
    """The match at its latest committed version, with its view (hold nothing: read fields
    right away). Raises :class:`NotFound`.
    """
    async with rt.storage.cache.lock(match_id):
        live = await _current_locked(rt, match_id)
        if live.view is None:
            live.view = view(live.state, live.state.seat)
        return live


async def _current_locked(rt: Runtime, match_id: str) -> Live:
    """The latest committed match (the caller holds the match's lock)."""
    async with read_tx(rt.storage.db) as reader:
        row = await reader.lock_match(match_id)  # a plain read here: read_tx takes no locks
        if row is None:
            raise NotFound("no such match")
        return await live_for(rt, reader, row)


# ---------------------------------------------------------------------- who may watch


def can_watch(live: Live, player_id: str | None, code: str | None) -> bool:
    """A public match is open to all; a private one to its seats and holders of its code."""
    if not live.private:
        return True
    if player_id is not None and any(s.player == player_id for s in live.seats):
        return True
    return code is not None and hmac.compare_digest(code.encode(), live.lobby_code.encode())


def check_watch(live: Live, player_id: str | None, code: str | None) -> None:
    """Raise :class:`Forbidden` unless :func:`can_watch` (the one private-match read check)."""
    if not can_watch(live, player_id, code):
        raise Forbidden(
            "this match is private: open it with its invite code", reason="match_private"
        )


# ---------------------------------------------------------------------- Match JSON


def presence_of(rt: Runtime, match_id: str) -> tuple[set[str], int]:
    """Seats (as text) connected anywhere and the spectator count, as this instance knows."""
    hub = rt.fanout.hubs.get(rt.fanout.channel("match", match_id))
    return hub.presence() if hub is not None else (set(), 0)


def match_json(rt: Runtime, live: Live, you: int | None) -> JsonObject:
    """The Match JSON of docs/API.md (``state`` is the view of the seat to act)."""
    keys, spectators = presence_of(rt, live.match_id)
    return {
        "id": live.match_id,
        "name": live.name,
        "host_name": match_host_name(live.seats, live.clock),
        "private": live.private,
        "status": "finished" if live.state.is_over else "live",
        "version": live.version,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "colour": s.colour,
                "bot": s.bot,
                "bot_account": s.bot_account,
                "connected": s.bot or str(s.seat) in keys,
            }
            for s in live.seats
        ],
        "you": you,
        "spectators": spectators,
        "lobby_code": live.lobby_code,
        "decision_timeout": rt.settings.decision_timeout,
        # Read under its old name by the previous release's client (a rolling upgrade).
        RENAMED_MATCH_KEYS["decision_timeout"]: rt.settings.decision_timeout,
        "leave_grace": rt.settings.leave_grace,
        "clock": clocks.public(live.clock),
        # The table's aid policy (docs/API.md § Aids); matches from before policies: off.
        "aids": table_options.match_aids(live.clock, True).to_json(),
        "state": live.view,
        # The match's verdict as a contest (app/services/records/verdict.py); filled by get_match
        # once the match is finished and settled.
        "verdict": None,
    }


def delayed_json(rt: Runtime, at: Live, wait: delay.SpectatorDelay) -> JsonObject:
    """The Match JSON a spectator of a delayed match reads: the match at its visible version
    (``at``), no clock, and ``"spectator_delay"`` saying how far behind it is.
    """
    out = match_json(rt, at, None)
    out["spectator_delay"] = {k: v for k, v in wait.to_json().items()}
    return out


async def get_match(
    rt: Runtime, match_id: str, player_id: str | None, code: str | None
) -> JsonObject:
    """Match JSON for a reader; raises :class:`NotFound`, :class:`Forbidden` (private). A
    spectator of a delayed match reads it at its visible version
    (app/services/match/spectating/delay.py).
    """
    live = await current(rt, match_id)
    check_watch(live, player_id, code)
    wait = await delay.delay_for(rt, live, player_id)
    if wait is not None:
        at = await delay.delayed_live(rt, live, player_id)
        return delayed_json(rt, at, wait)
    out = match_json(rt, live, live.seat_of(player_id))
    if live.state.is_over or live.version < 0:
        out["verdict"] = cast("JsonObject | None", await history.verdict_of(rt, match_id))
    return out


# ---------------------------------------------------------------------- the log


async def chat_cutoff(rt: Runtime, match_id: str, player_id: str | None) -> datetime | None:
    """The time before which ``player_id`` may read the match's chat: a spectator of a delayed
    match reads only what was said before its cutoff (None: all of it). Raises
    :class:`NotFound`.
    """
    live = await current(rt, match_id)
    return await delay.chat_cutoff(rt, live, player_id)


async def events_since(
    rt: Runtime, match_id: str, since: int, player_id: str | None, code: str | None
) -> JsonObject:
    """``{"version", "batches": [{"v", "seat", "action_id", "events", "by"}]}`` after
    ``since``;
    from the start (``since`` 0) also ``"opening"``: the events of the setup (the first draw,
    and with the Wheel of Fortune the pig's first move), which belong to no action.

    A spectator of a delayed match gets the batches up to its visible version only.

    Raises :class:`NotFound`, :class:`Forbidden`.
    """
    live = await current(rt, match_id)
    check_watch(live, player_id, code)
    upto: int | None = None
    wait = await delay.delay_for(rt, live, player_id)
    if wait is not None:
        upto, _, _ = await delay.visible(rt, match_id, live.version, wait)
    rows = await batches_since(rt.storage.db, match_id, since, upto)
    batches: list[JsonValue] = [
        {"v": v, "seat": seat, "action_id": action_id, "events": orjson.loads(events), "by": by}
        for v, seat, action_id, events, by in rows
    ]
    version = max([live.version if upto is None else upto, *(r[0] for r in rows)])
    out: JsonObject = {"version": version, "batches": batches}
    if since == 0:
        out["opening"] = [event_to_json(e) for e in live.state.opening_events]
    return out


async def record(
    rt: Runtime, match_id: str, player_id: str | None, code: str | None
) -> dict[str, Any]:
    """The ``carcassonne-record/1`` of a match (only the tiles drawn so far while live; for a
    spectator of a delayed match, only up to its visible version).
    """
    async with rt.storage.cache.lock(match_id):
        live = await _current_locked(rt, match_id)
        check_watch(live, player_id, code)
        out = export_record(live.state)
        actions = list(live.state.actions)
        clock = clocks.stored(live.clock)
        over, seat = live.state.is_over, live.seat_of(player_id)
    if not over and seat is None and await delay.delay_of(rt, match_id) is not None:
        at = await delay.delayed_live(rt, live, player_id)
        out, actions, clock = export_record(at.state), list(at.state.actions), None
    async with rt.storage.db.reading() as conn:
        computer = await queries.computer_seqs(conn, match_id)
    out = clocks.annotate_record(out, actions, computer, clock)
    out["aids"] = table_options.aids_of(clock, True).to_json()
    judged = await history.verdict_of(rt, match_id)
    if judged is not None:
        out["verdict"] = judged
    return out


async def fetch_frames(
    rt: Runtime, match_id: str, after: int, upto: int | None
) -> list[tuple[int, str]]:
    """Frames a socket or hub missed after ``after`` (up to ``upto``): the batches, the last
    one carrying the current view when it is the latest; or one snapshot frame when too far
    behind (or ahead). The one gap-fill path of every hub and socket.
    """
    live = await current(rt, match_id)
    # The cached match changes under us at the next await (a move committed meanwhile sets a
    # later version and drops the view): take what the last frame needs now, as of ``latest``.
    latest, whole, clock = live.version, live.view, clocks.public(live.clock)
    if upto is None and (latest - after > rt.settings.max_catch_up or after > latest):
        return [(latest, snapshot_frame(latest, match_json(rt, live, None)))]
    frames: list[tuple[int, str]] = []
    for v, seat, action_id, events, by in await batches_since(rt.storage.db, match_id, after, upto):
        if v > latest:  # committed after our read: the next fill brings it with its view
            break
        last = v == latest
        frames.append(
            (
                v,
                events_frame(
                    v,
                    seat,
                    action_id,
                    events,
                    state=whole if last else None,
                    by=by,
                    clock=clock if last else None,
                ),
            )
        )
    return frames
